/**
 * The writes of the `http_ratelimit` phase, chosen as the custom phase's are (`custom-rules/
 * writes.ts`): ids kept, calls few. Single-rule calls (DELETE, then in target order POST with a
 * position, PATCH with the complete new rule and/or a position) for up to
 * `RateLimitWriteLimits.singleRuleCalls` of them, else one PUT of the entry point that sends every
 * rule, kept ones with their ids. A delete never touches the rules after it (terraform-provider-
 * cloudflare #5921 recreated them). A zone without the entry point gets the PUT, which creates it.
 */
import { RatelimitPhase } from '../../api/index.js';
import type { DesiredRateLimitRule } from '../../manifest/index.js';
import type { Change } from '../change.js';
import type { TargetItem } from '../custom-rules/order.js';
import type { PhaseRuleOp, PhaseWrite, PlannedPosition, RulePointer } from '../write.js';
import { desiredRateLimitBody, keptRateLimitBody } from './attributes.js';
import type { LiveRateLimitEntrypoint, LiveRateLimitRule, RateLimitRuleBody } from './live.js';

/** One rule of the target list. */
export type RateLimitTarget = TargetItem<DesiredRateLimitRule>;
/** The writes of the phase. */
export type RateLimitWrite = PhaseWrite<RateLimitRuleBody>;

/** When the plan writes the phase rule by rule. */
export const RateLimitWriteLimits = { singleRuleCalls: 3 } as const;

function pointerTo(item: RateLimitTarget, live: readonly LiveRateLimitRule[]): RulePointer {
  return item.live !== undefined ? { id: live[item.live]!.id } : { ref: item.desired!.ref };
}

function singleRuleOps(target: readonly RateLimitTarget[], changes: readonly Change[], live: readonly LiveRateLimitRule[]): PhaseRuleOp<RateLimitRuleBody>[] {
  const ops: PhaseRuleOp<RateLimitRuleBody>[] = changes.filter((c) => c.action === 'delete').map((c) => ({ op: 'delete', ref: c.ref, id: c.id! }));
  const byRef = new Map(changes.filter((c) => c.action !== 'delete').map((c) => [c.ref, c]));
  target.forEach((item, i) => {
    const position: PlannedPosition = i === 0 ? { first: true } : { after: pointerTo(target[i - 1]!, live) };
    const d = item.desired;
    if (d === undefined) {
      if (item.moved) ops.push({ op: 'update', ref: '', id: live[item.live!]!.id, position });
      return;
    }
    if (item.live === undefined) { ops.push({ op: 'create', ref: d.ref, body: desiredRateLimitBody(d), position }); return; }
    const edited = byRef.get(d.ref)?.changed.some((n) => n !== 'position') === true;
    if (!edited && !item.moved) return;
    ops.push({ op: 'update', ref: d.ref, id: live[item.live]!.id, ...(edited ? { body: desiredRateLimitBody(d) } : {}), ...(item.moved ? { position } : {}) });
  });
  return ops;
}

function putBody(entry: LiveRateLimitEntrypoint | null, target: readonly RateLimitTarget[], live: readonly LiveRateLimitRule[]): RateLimitWrite {
  const rules = target.map((t) => (t.desired !== undefined ? desiredRateLimitBody(t.desired, t.live !== undefined ? live[t.live]!.id : undefined) : keptRateLimitBody(live[t.live!]!)));
  return { phase: 'rate_limiting_rules', ruleset: RatelimitPhase, strategy: 'put', body: { ...(entry?.description ? { description: entry.description } : {}), rules } };
}

/** The writes of a phase that differs from its target. */
export function chooseRateLimitWrites(entry: LiveRateLimitEntrypoint | null, target: readonly RateLimitTarget[], changes: readonly Change[], live: readonly LiveRateLimitRule[]): RateLimitWrite {
  if (entry === null) return putBody(entry, target, live);
  const ops = singleRuleOps(target, changes, live);
  return ops.length <= RateLimitWriteLimits.singleRuleCalls ? { phase: 'rate_limiting_rules', ruleset: RatelimitPhase, strategy: 'rules', rulesetId: entry.id, ops } : putBody(entry, target, live);
}
