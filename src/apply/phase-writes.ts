/**
 * Execution of a phase write: the one PUT, or the single-rule calls in plan order. Rules created
 * earlier in the same apply are named by ref in positions until they exist; each call answers the
 * whole ruleset, from which the new ids (by ref) are learnt. `first` becomes `index: 1`, valid on a
 * POST into an empty list as well as on a PATCH.
 */
import { ZonewallError } from '../errors.js';
import type { RulePosition, LiveRuleset, PhaseRuleOp, PhaseWrite, PlannedPosition, RulePointer } from '../plan/index.js';
import type { Provider } from '../providers/index.js';

/** What an apply learns about rules phases as it goes: ids of rules by ref. */
export class RuleIds {
  private readonly byRef = new Map<string, string>();

  /** Records the ids of a ruleset answer. */
  learn(ruleset: LiveRuleset): void {
    for (const r of ruleset.rules) if (r.ref !== undefined && r.ref !== '' && r.id !== undefined) this.byRef.set(r.ref, r.id);
  }

  /** The id a pointer names. */
  resolve(pointer: RulePointer): string {
    if ('id' in pointer) return pointer.id;
    const id = this.byRef.get(pointer.ref);
    if (id === undefined) throw new ZonewallError('ERR_INTERNAL', `rule "${pointer.ref}" should have been created before the rules placed after it`);
    return id;
  }
}

function positionOf(p: PlannedPosition | undefined, ids: RuleIds): RulePosition | undefined {
  if (p === undefined) return undefined;
  return 'first' in p ? { index: 1 } : { after: ids.resolve(p.after) };
}

function runOp(provider: Provider, zoneId: string, write: Extract<PhaseWrite, { strategy: 'rules' }>, op: PhaseRuleOp, ids: RuleIds): Promise<LiveRuleset> {
  const { ruleset: phase, rulesetId } = write;
  switch (op.op) {
    case 'create': return provider.createPhaseRule(zoneId, phase, rulesetId, op.body, positionOf(op.position, ids));
    case 'update': {
      const position = positionOf(op.position, ids);
      return provider.updatePhaseRule(zoneId, phase, rulesetId, op.id, { ...(op.body !== undefined ? { body: op.body } : {}), ...(position !== undefined ? { position } : {}) });
    }
    case 'delete': return provider.deletePhaseRule(zoneId, phase, rulesetId, op.id);
  }
}

/** Runs one step of a phase write: the PUT (`op` undefined) or single-rule call number `op`. */
export async function executePhaseStep(provider: Provider, zoneId: string, write: PhaseWrite, op: number | undefined, ids: RuleIds): Promise<void> {
  if (write.strategy === 'put') {
    ids.learn(await provider.putPhase(zoneId, write.ruleset, write.body, write.step !== undefined ? { step: write.step } : undefined));
    return;
  }
  const call = write.ops[op ?? -1];
  if (call === undefined) throw new ZonewallError('ERR_INTERNAL', `${write.phase} call ${String(op)} is not in the plan`);
  ids.learn(await runOp(provider, zoneId, write, call, ids));
}
