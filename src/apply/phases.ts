/**
 * A plan's writes grouped into the apply phases of the registration list (`plan/kinds.ts`), each
 * write tied to the change it carries out, so the executor can report per change what was applied.
 * A phase write (an entry point PUT, or its single-rule calls) carries the changes of the kinds
 * placed in its phase: the PUT is one step that carries them all, single-rule calls one step each.
 */
import { PhaseNames, phaseOf, resourceOf, type Change, type Plan, type PhaseName, type PhaseWrite, type Write } from '../plan/index.js';

/** One write of a phase and the index of its change in `plan.changes`. */
export type Step =
  | { kind: 'write'; write: Write; change: number }
  /** A phase write: the whole PUT (`op` undefined), or its single-rule call number `op`. */
  | { kind: 'phase'; write: PhaseWrite; op?: number; changes: number[] };

/** The steps of one phase, in plan order. */
export interface Phase {
  name: PhaseName;
  steps: Step[];
}

/** Whether a phase write carries a change: a change of a kind placed in its phase, not a no-op. */
function carries(write: PhaseWrite, c: Change): boolean {
  if (c.action === 'no-op') return false;
  const r = resourceOf(c.kind);
  return r.carried === true && r.kept === write.phase;
}

/** The steps of a phase write: one PUT carrying every change of its phase, or one step per call. */
function phaseSteps(plan: Pick<Plan, 'changes'>, write: PhaseWrite): Step[] {
  const carried = plan.changes.flatMap((c, i) => (carries(write, c) ? [i] : []));
  if (write.strategy === 'put') return [{ kind: 'phase', write, changes: carried }];
  return write.ops.map((op, n) => {
    // A pruned rule has no ref: its delete is found by id.
    const change = carried.find((i) => (op.op === 'delete' ? plan.changes[i]!.id === op.id : op.ref !== '' && plan.changes[i]!.ref === op.ref));
    return { kind: 'phase', write, op: n, changes: change !== undefined ? [change] : [] };
  });
}

/** Steps by phase, collected in plan order, then the non-empty phases in the order they run. */
class PhaseSteps {
  private readonly byPhase = new Map<PhaseName, Step[]>();

  add(name: PhaseName, step: Step): void {
    const list = this.byPhase.get(name);
    if (list === undefined) this.byPhase.set(name, [step]);
    else list.push(step);
  }

  phases(): Phase[] {
    return PhaseNames.filter((n) => this.byPhase.has(n)).map((name) => ({ name, steps: this.byPhase.get(name)! }));
  }
}

/** The non-empty phases of a plan, in the order they run. */
export function planPhases(plan: Pick<Plan, 'changes' | 'phaseWrites'>): Phase[] {
  const out = new PhaseSteps();
  plan.changes.forEach((c, i) => {
    for (const write of c.writes) out.add(phaseOf(write), { kind: 'write', write, change: i });
  });
  for (const write of plan.phaseWrites) for (const step of phaseSteps(plan, write)) out.add(write.phase, step);
  return out.phases();
}

/** The phases of writes that carry no change of a plan (an export's adoption writes): change -1. */
export function writePhases(writes: readonly Write[], phaseWrites: readonly PhaseWrite[]): Phase[] {
  const out = new PhaseSteps();
  for (const write of writes) out.add(phaseOf(write), { kind: 'write', write, change: -1 });
  for (const write of phaseWrites) for (const step of phaseSteps({ changes: [] }, write)) out.add(write.phase, step);
  return out.phases();
}

/** The change indexes a step carries out. */
export function stepChanges(step: Step): number[] {
  return step.kind === 'write' ? [step.change] : step.changes;
}
