/**
 * Execution of the custom phase's writes: the one PUT, or the single-rule calls in plan order.
 * Rules created earlier in the same apply are named by ref in positions until they exist; each
 * call answers the whole ruleset, from which the new ids (by ref) and the rule count are learnt.
 * `first` becomes `index: 1`, valid on a POST into an empty list as well as on a PATCH.
 */
import { ZonewallError } from '../errors.js';
import type { CustomRulePosition, CustomRuleOp, CustomRulesWrite, LiveCustomEntrypoint, PlannedPosition, RulePointer } from '../plan/index.js';
import type { Provider } from '../providers/index.js';

/** What an apply learns about the custom phase as it goes: ids of rules by ref. */
export class CustomRuleIds {
  private readonly byRef = new Map<string, string>();

  /** Records the ids of a ruleset answer. */
  learn(ruleset: LiveCustomEntrypoint): void {
    for (const r of ruleset.rules) if (r.ref !== undefined && r.ref !== '') this.byRef.set(r.ref, r.id);
  }

  /** The id a pointer names. */
  resolve(pointer: RulePointer): string {
    if ('id' in pointer) return pointer.id;
    const id = this.byRef.get(pointer.ref);
    if (id === undefined) throw new ZonewallError('ERR_INTERNAL', `custom rule "${pointer.ref}" should have been created before the rules placed after it`);
    return id;
  }
}

function positionOf(p: PlannedPosition | undefined, ids: CustomRuleIds): CustomRulePosition | undefined {
  if (p === undefined) return undefined;
  return 'first' in p ? { index: 1 } : { after: ids.resolve(p.after) };
}

async function runOp(provider: Provider, zoneId: string, rulesetId: string, op: CustomRuleOp, ids: CustomRuleIds): Promise<LiveCustomEntrypoint> {
  switch (op.op) {
    case 'create': return provider.createCustomRule(zoneId, rulesetId, op.body, positionOf(op.position, ids));
    case 'update': {
      const position = positionOf(op.position, ids);
      return provider.updateCustomRule(zoneId, rulesetId, op.id, { ...(op.body !== undefined ? { body: op.body } : {}), ...(position !== undefined ? { position } : {}) });
    }
    case 'delete': return provider.deleteCustomRule(zoneId, rulesetId, op.id);
  }
}

/** Runs one step of the custom phase: the PUT (`op` undefined) or single-rule call number `op`. */
export async function executeCustomStep(provider: Provider, zoneId: string, write: CustomRulesWrite, op: number | undefined, ids: CustomRuleIds): Promise<void> {
  if (write.strategy === 'put') {
    ids.learn(await provider.putCustomEntrypoint(zoneId, write.body));
    return;
  }
  const call = write.ops[op ?? -1];
  if (call === undefined) throw new ZonewallError('ERR_INTERNAL', `custom rules call ${String(op)} is not in the plan`);
  ids.learn(await runOp(provider, zoneId, write.rulesetId, call, ids));
}
