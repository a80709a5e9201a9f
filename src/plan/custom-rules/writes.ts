/**
 * The writes of the custom phase, chosen so that ids are kept and calls are few. Single-rule calls
 * (DELETE, then in target order POST with a position, PATCH with the complete new rule and/or a
 * position) touch only the rules that change, so a rule someone adds elsewhere meanwhile is never
 * dropped; they cost one request per rule. One PUT of the entry point sends every rule, kept ones
 * with their ids, and costs one request. The plan takes single-rule calls for up to
 * `CustomWriteLimits.singleRuleCalls` of them, else the PUT; a zone without the entry point always
 * gets the PUT, which creates it.
 *
 * Single-rule calls run in target order, each moved or new rule placed right after the rule before
 * it in the target (or first), so once they have all run the list is the target list.
 */
import type { Change } from '../change.js';
import { desiredCustomBody, keptCustomBody } from './attributes.js';
import type { TargetItem } from './order.js';
import { CustomPhase } from '../../api/index.js';
import type { CustomRuleBody, LiveCustomEntrypoint, LiveCustomRule } from './live.js';
import type { PhaseRuleOp, PhaseWrite, PlannedPosition, RulePointer } from '../write.js';

/** One single-rule call of the custom phase. */
export type CustomRuleOp = PhaseRuleOp<CustomRuleBody>;
/** The writes of the custom phase: single-rule calls, or one PUT of the entry point. */
export type CustomRulesWrite = PhaseWrite<CustomRuleBody>;

/** When the plan writes the custom phase rule by rule. */
export const CustomWriteLimits = {
  /** Up to this many single-rule calls are made instead of one PUT of the whole list. */
  singleRuleCalls: 3,
} as const;

function pointerTo(item: TargetItem, live: readonly LiveCustomRule[]): RulePointer {
  return item.live !== undefined ? { id: live[item.live]!.id } : { ref: item.desired!.ref };
}

/** The single-rule calls that turn the live list into the target list. */
function singleRuleOps(target: readonly TargetItem[], changes: readonly Change[], live: readonly LiveCustomRule[]): CustomRuleOp[] {
  const ops: CustomRuleOp[] = changes.filter((c) => c.action === 'delete').map((c) => ({ op: 'delete', ref: c.ref, id: c.id! }));
  const byRef = new Map(changes.filter((c) => c.action !== 'delete').map((c) => [c.ref, c]));
  target.forEach((item, i) => {
    const position: PlannedPosition = i === 0 ? { first: true } : { after: pointerTo(target[i - 1]!, live) };
    const d = item.desired;
    if (d === undefined) {
      // A kept rule moves only when the target cannot keep every kept rule in place (never, by weight).
      if (item.moved) ops.push({ op: 'update', ref: '', id: live[item.live!]!.id, position });
      return;
    }
    if (item.live === undefined) { ops.push({ op: 'create', ref: d.ref, body: desiredCustomBody(d), position }); return; }
    const edited = byRef.get(d.ref)?.changed.some((n) => n !== 'position') === true;
    if (!edited && !item.moved) return;
    const id = live[item.live]!.id;
    ops.push({ op: 'update', ref: d.ref, id, ...(edited ? { body: desiredCustomBody(d) } : {}), ...(item.moved ? { position } : {}) });
  });
  return ops;
}

function putBody(entry: LiveCustomEntrypoint | null, target: readonly TargetItem[], live: readonly LiveCustomRule[]): CustomRulesWrite {
  const rules = target.map((t) => (t.desired !== undefined ? desiredCustomBody(t.desired, t.live !== undefined ? live[t.live]!.id : undefined) : keptCustomBody(live[t.live!]!)));
  return { phase: 'custom_rules', ruleset: CustomPhase, strategy: 'put', body: { ...(entry?.description !== undefined && entry.description !== '' ? { description: entry.description } : {}), rules } };
}

/** The writes of a custom phase that differs from its target. */
export function chooseCustomWrites(entry: LiveCustomEntrypoint | null, target: readonly TargetItem[], changes: readonly Change[], live: readonly LiveCustomRule[]): CustomRulesWrite {
  if (entry === null) return putBody(entry, target, live);
  const ops = singleRuleOps(target, changes, live);
  return ops.length <= CustomWriteLimits.singleRuleCalls ? { phase: 'custom_rules', ruleset: CustomPhase, strategy: 'rules', rulesetId: entry.id, ops } : putBody(entry, target, live);
}
