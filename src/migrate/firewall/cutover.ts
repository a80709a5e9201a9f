/**
 * The staged cutover of a live zone from firewall rules to custom rules, as desired states (plans
 * are made from them by `plan`, applied by `apply`). A request meets the firewall rules first and
 * the custom rules after (DESIGN.md "Two generations"), so:
 *   1. `stage`: the converted custom rules are created *disabled*, ahead of any custom rules the
 *      zone has; nothing the zone enforces changes.
 *   2. `enable`: the converted rules are enabled while the firewall rules stay. Every request still
 *      meets the complete old generation first; the proof showed the new rules decide as they did.
 *   3. `remove`: the firewall rules, last evaluated first (`removalOrder`), then their filters
 *      (the plan's dependency order); the zone is the rewritten manifest. What is left of the
 *      firewall rules is always the head of their evaluation order, which decides as the custom
 *      rules behind it would (deleting the head first would let a later rule decide instead).
 * A failure in any step leaves the zone at the previous step's state or within the step, each of
 * which enforces one complete generation. A re-run resumes at the step the zone is in
 * (`resumeStep`): it never plans a step back (disabling rules a failed `enable` had enabled).
 */
import { firewallEvaluationOrder, type DesiredCustomRule, type DesiredZone } from '../../manifest/index.js';
import type { Change, LiveZone, Plan } from '../../plan/index.js';

/** The names of the cutover's steps, in order. */
export const CutoverSteps = ['stage', 'enable', 'remove'] as const;
export type CutoverStepName = (typeof CutoverSteps)[number];

/** One step: the zone's desired state after it, and what it does, for the user. */
export interface CutoverStep {
  name: CutoverStepName;
  summary: string;
  desired: DesiredZone;
}

/**
 * The three desired states from the manifest before the upgrade and the rewritten one.
 * @example const steps = cutoverSteps(before, upgrade.after!, upgrade.conversion.customRules.map((r) => r.ref));
 */
export function cutoverSteps(before: DesiredZone, after: DesiredZone, convertedRefs: readonly string[]): CutoverStep[] {
  const converted = new Set(convertedRefs);
  const newRules = after.customRules ?? [];
  const disabled = newRules.map((r): DesiredCustomRule => (converted.has(r.ref) ? { ...r, enabled: false } : r));
  const staged = (rules: DesiredCustomRule[]): DesiredZone => ({ ...before, customRules: rules });
  return [
    {
      name: 'stage',
      summary: `create the ${converted.size} converted custom rule(s) disabled; the firewall rules keep enforcing`,
      desired: staged(disabled),
    },
    {
      name: 'enable',
      summary: 'enable the converted custom rules; the firewall rules still run first, the custom rules after them decide the same',
      desired: staged(newRules),
    },
    {
      name: 'remove',
      summary: `delete the ${before.firewallRules.length} firewall rule(s), then their ${before.filters.length} filter(s)`,
      desired: after,
    },
  ];
}

/**
 * The index of the step to start from on a zone the cutover may have begun: `remove` once a
 * firewall rule of the old manifest is gone, `enable` once a converted rule that ends enabled is
 * enabled live, else `stage`.
 * @example const from = resumeStep(steps, await provider.readZone(zoneId));
 */
export function resumeStep(steps: readonly CutoverStep[], live: Pick<LiveZone, 'firewallRules' | 'customEntrypoint'>): number {
  const [stage, , remove] = steps;
  if (stage === undefined || remove === undefined) return 0;
  const liveFirewall = new Set(live.firewallRules.map((r) => r.ref));
  if (stage.desired.firewallRules.some((r) => !liveFirewall.has(r.ref))) return 2;
  const staged = new Set((stage.desired.customRules ?? []).filter((r) => !r.enabled).map((r) => r.ref));
  const ending = new Set((remove.desired.customRules ?? []).filter((r) => r.enabled && staged.has(r.ref)).map((r) => r.ref));
  if ((live.customEntrypoint?.rules ?? []).some((r) => r.enabled && r.ref !== undefined && ending.has(r.ref))) return 1;
  return 0;
}

/**
 * The `remove` step's plan with its firewall rule deletions in reverse evaluation order (the
 * rest of the plan in place), so a stop between two batches leaves a head of the old order.
 * @example const plan = removalOrder(diffZone(step.desired, live, {}), before);
 */
export function removalOrder(plan: Plan, before: DesiredZone): Plan {
  const rank = new Map(firewallEvaluationOrder(before.firewallRules).map((r, i) => [r.ref, i]));
  const isDelete = (c: Change) => c.kind === 'firewall_rule' && c.action === 'delete';
  const deletes = plan.changes.filter(isDelete).sort((a, b) => (rank.get(b.ref) ?? Infinity) - (rank.get(a.ref) ?? Infinity));
  let next = 0;
  return { ...plan, changes: plan.changes.map((c) => (isDelete(c) ? deletes[next++]! : c)) };
}
