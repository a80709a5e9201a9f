/**
 * The writes of a rules phase (a Rulesets API entry point of the zone), chosen so that ids are kept and
 * calls are few. Single-rule calls (DELETE, then in target order POST with a position, PATCH with
 * the complete new rule and/or a position) touch only the rules that change, so a rule someone adds
 * elsewhere meanwhile is never dropped, and a delete never touches the rules after it
 * (terraform-provider-cloudflare #5921 recreated them); they cost one request per rule. One PUT of
 * the entry point sends every rule, kept ones with their ids, and costs one request. The plan takes
 * single-rule calls for up to the phase's `singleRuleCalls` of them, else the PUT; a zone without
 * the entry point always gets the PUT, which creates it.
 *
 * Single-rule calls run in target order, each moved or new rule placed right after the rule before
 * it in the target (or first), so once they have all run the list is the target list.
 */
import type { ServedPhase } from '../api/index.js';
import type { Change } from './change.js';
import type { PhaseName } from './phase.js';
import type { TargetItem } from './phase-target.js';
import type { PhaseRuleBody, PhaseRuleOp, PhaseWrite, PlannedPosition, RulePointer } from './write.js';

/** What a rules phase's kind tells `choosePhaseWrites`: where it writes and how its rules are sent. */
export interface PhaseWriter<D extends { ref: string }, L extends { id: string }, B extends PhaseRuleBody> {
  /** The apply phase the writes run in. */
  phase: PhaseName;
  /** The Rulesets API phase of the entry point. */
  ruleset: ServedPhase;
  /** Up to this many single-rule calls are made instead of one PUT of the whole list. */
  singleRuleCalls: number;
  /** The body that writes a desired rule (with `id` to keep a live rule in a PUT). */
  desiredBody(d: D, id?: string): B;
  /** The body that keeps an unmanaged live rule in a PUT. */
  keptBody(l: L): B;
}

function pointerTo<D extends { ref: string }>(item: TargetItem<D>, live: readonly { id: string }[]): RulePointer {
  return item.live !== undefined ? { id: live[item.live]!.id } : { ref: item.desired!.ref };
}

/** The single-rule calls that turn the live list into the target list. */
function singleRuleOps<D extends { ref: string }, L extends { id: string }, B extends PhaseRuleBody>(
  writer: PhaseWriter<D, L, B>, target: readonly TargetItem<D>[], changes: readonly Change[], live: readonly L[],
): PhaseRuleOp<B>[] {
  const ops: PhaseRuleOp<B>[] = changes.filter((c) => c.action === 'delete').map((c) => ({ op: 'delete', ref: c.ref, id: c.id! }));
  const byRef = new Map(changes.filter((c) => c.action !== 'delete').map((c) => [c.ref, c]));
  target.forEach((item, i) => {
    const position: PlannedPosition = i === 0 ? { first: true } : { after: pointerTo(target[i - 1]!, live) };
    const d = item.desired;
    if (d === undefined) {
      // A kept rule moves only when the target cannot keep every kept rule in place (never, by weight).
      if (item.moved) ops.push({ op: 'update', ref: '', id: live[item.live!]!.id, position });
      return;
    }
    if (item.live === undefined) { ops.push({ op: 'create', ref: d.ref, body: writer.desiredBody(d), position }); return; }
    const edited = byRef.get(d.ref)?.changed.some((n) => n !== 'position') === true;
    if (!edited && !item.moved) return;
    const id = live[item.live]!.id;
    ops.push({ op: 'update', ref: d.ref, id, ...(edited ? { body: writer.desiredBody(d) } : {}), ...(item.moved ? { position } : {}) });
  });
  return ops;
}

function putBody<D extends { ref: string }, L extends { id: string }, B extends PhaseRuleBody>(
  writer: PhaseWriter<D, L, B>, entry: { description?: string } | null, target: readonly TargetItem<D>[], live: readonly L[],
): PhaseWrite<B> {
  const rules = target.map((t) => (t.desired !== undefined ? writer.desiredBody(t.desired, t.live !== undefined ? live[t.live]!.id : undefined) : writer.keptBody(live[t.live!]!)));
  const description = entry?.description;
  return { phase: writer.phase, ruleset: writer.ruleset, strategy: 'put', body: { ...(description !== undefined && description !== '' ? { description } : {}), rules } };
}

/** The writes of a rules phase whose entry point (`null`: none yet) differs from its target. */
export function choosePhaseWrites<D extends { ref: string }, L extends { id: string }, B extends PhaseRuleBody>(
  writer: PhaseWriter<D, L, B>, entry: { id: string; description?: string } | null, target: readonly TargetItem<D>[], changes: readonly Change[], live: readonly L[],
): PhaseWrite<B> {
  if (entry === null) return putBody(writer, entry, target, live);
  const ops = singleRuleOps(writer, target, changes, live);
  return ops.length <= writer.singleRuleCalls
    ? { phase: writer.phase, ruleset: writer.ruleset, strategy: 'rules', rulesetId: entry.id, ops }
    : putBody(writer, entry, target, live);
}
