/**
 * A plan's writes grouped into the phases of `plan/order.ts`, each write tied to the change it
 * carries out, so the executor can report per change what was applied. The entry point PUT is one
 * step that carries every managed-ruleset and migration change; the custom phase is one PUT step, or
 * one step per single-rule call.
 */
import { PhaseNames, phaseOf, type CustomRulesWrite, type EntrypointWrite, type Plan, type PhaseName, type Write } from '../plan/index.js';

/** One write of a phase and the index of its change in `plan.changes`. */
export type Step =
  | { kind: 'write'; write: Write; change: number }
  | { kind: 'entrypoint'; write: EntrypointWrite; changes: number[] }
  /** The custom phase: the whole PUT (`op` undefined), or its single-rule call number `op`. */
  | { kind: 'custom_rules'; write: CustomRulesWrite; op?: number; changes: number[] };

/** The steps of one phase, in plan order. */
export interface Phase {
  name: PhaseName;
  steps: Step[];
}

/** The non-empty phases of a plan, in the order they run. */
export function planPhases(plan: Pick<Plan, 'changes' | 'entrypoint'> & { customRules?: Plan['customRules'] }): Phase[] {
  const byPhase = new Map<PhaseName, Step[]>();
  const add = (name: PhaseName, step: Step) => {
    const list = byPhase.get(name);
    if (list === undefined) byPhase.set(name, [step]);
    else list.push(step);
  };
  plan.changes.forEach((c, i) => {
    for (const write of c.writes) add(phaseOf(write), { kind: 'write', write, change: i });
  });
  if (plan.entrypoint !== null) {
    const changes = plan.changes.flatMap((c, i) => ((c.kind === 'managed_ruleset' || c.kind === 'waf_migration') && c.action !== 'no-op' ? [i] : []));
    add('entrypoint', { kind: 'entrypoint', write: plan.entrypoint, changes });
  }
  for (const step of customSteps(plan)) add('custom_rules', step);
  return PhaseNames.filter((n) => byPhase.has(n)).map((name) => ({ name, steps: byPhase.get(name)! }));
}

/** The custom phase's steps: one PUT carrying every custom rule change, or one step per call. */
function customSteps(plan: Pick<Plan, 'changes'> & { customRules?: Plan['customRules'] }): Step[] {
  const write = plan.customRules ?? null;
  if (write === null) return [];
  const custom = plan.changes.flatMap((c, i) => (c.kind === 'custom_rule' && c.action !== 'no-op' ? [i] : []));
  if (write.strategy === 'put') return [{ kind: 'custom_rules', write, changes: custom }];
  return write.ops.map((op, n) => {
    // A pruned rule has no ref: its delete is found by id.
    const change = custom.find((i) => (op.op === 'delete' ? plan.changes[i]!.id === op.id : op.ref !== '' && plan.changes[i]!.ref === op.ref));
    return { kind: 'custom_rules', write, op: n, changes: change !== undefined ? [change] : [] };
  });
}

/** The change indexes a step carries out. */
export function stepChanges(step: Step): number[] {
  return step.kind === 'write' ? [step.change] : step.changes;
}
