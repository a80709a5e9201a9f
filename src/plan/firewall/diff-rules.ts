/**
 * Changes of firewall rules. Rules are updated in place with a PUT of the full rule whatever
 * changed: a reorder changes priorities only, a move to another filter repoints, a rename changes
 * the ref; the rule's id survives all of them. A rule is replaced only when its simplified-flow
 * filter must be recreated with the same expression (see `diff-filters.ts`). Live rules the
 * manifest no longer has are deleted; rules without a ref are unmanaged unless `--prune`.
 */
import type { DesiredFirewallRule } from '../../manifest/index.js';
import { changedAttributes, noOpChange, type Change, type ChangeReason } from '../change.js';
import { finding } from './findings.js';
import {
  desiredRuleAttributes,
  filterPointer,
  liveRuleAttributes,
  type FirewallContext,
} from './context.js';
import type { LiveFirewallRule } from './live.js';
import type { UnmanagedObject } from '../plan.js';
import type { FilterPointer, FirewallRuleWriteBody } from './writes.js';

function ruleBody(d: DesiredFirewallRule, filter: FilterPointer, live?: LiveFirewallRule): FirewallRuleWriteBody {
  const body: FirewallRuleWriteBody = {
    action: d.action,
    priority: d.priority,
    paused: d.paused,
    description: d.description,
    ref: d.ref,
    filter,
  };
  // Products only mean something to bypass rules; send them when set, or to clear live ones.
  if (d.products.length > 0 || (live?.products?.length ?? 0) > 0) {
    body.products = [...d.products] as FirewallRuleWriteBody['products'];
  }
  return body;
}

function updateReason(ctx: FirewallContext, d: DesiredFirewallRule, changed: string[]): ChangeReason {
  if (changed.includes('ref')) return 'renamed';
  if (changed.length === 1 && changed[0] === 'priority') return 'reordered';
  if (changed.length === 1 && changed[0] === 'filter') {
    return ctx.replacedFilters.has(d.filterRef) ? 'filter-replaced' : 'repointed';
  }
  return 'changed';
}

/** Whether a live rule uses the filter a desired one will use (`target`: a live id, null when created). */
function pointsAt(l: LiveFirewallRule, target: string | null): boolean {
  return target !== null && !('deleted' in l.filter) && l.filter.id === target;
}

function sameProducts(d: DesiredFirewallRule, l: LiveFirewallRule): boolean {
  const live = l.products;
  if (live === undefined || live.length === 0) return d.products.length === 0;
  if (live.length !== d.products.length) return false;
  const want = [...d.products].sort();
  return [...live].sort().every((p, i) => p === want[i]);
}

/** The fast path of large no-op plans: nothing differs (no attribute objects are built). */
function inSync(d: DesiredFirewallRule, l: LiveFirewallRule, target: string | null): boolean {
  return l.action === d.action && l.priority === d.priority && l.paused === d.paused
    && (l.description ?? '') === d.description && (l.ref ?? '') === d.ref && pointsAt(l, target) && sameProducts(d, l);
}

/**
 * The position of the desired filter a rule uses. The live filter of a rule in sync is the one its
 * desired filter claimed, found through the live filters' index by ref: a no-op plan needs no
 * index of the desired filters.
 */
function filterIndexOf(ctx: FirewallContext, d: DesiredFirewallRule, l: LiveFirewallRule | undefined): number | undefined {
  if (l !== undefined && !('deleted' in l.filter)) {
    const k = ctx.match.claimantOf(l.filter.id, l.filter.ref);
    if (k >= 0 && ctx.desired.filters[k]!.ref === d.filterRef) return k;
  }
  return ctx.desiredFilterIndex(d.filterRef);
}

function diffRule(ctx: FirewallContext, d: DesiredFirewallRule, i: number): Change | undefined {
  const l = ctx.match.rules[i];
  const filterIndex = filterIndexOf(ctx, d, l);
  if (filterIndex === undefined) {
    ctx.findings.push(finding('missing-filter', `firewall rule "${d.ref}" uses filter "${d.filterRef}", which the manifest does not declare`,
      { kind: 'firewall_rule', ref: d.ref, location: d.location }));
    return undefined;
  }
  const target = ctx.filterTarget[filterIndex]!;
  if (l === undefined) {
    const after = desiredRuleAttributes(d);
    return { kind: 'firewall_rule', action: 'create', reason: 'new', ref: d.ref, before: null, after,
      changed: Object.keys(after), writes: [{ op: 'firewall_rule.create', body: ruleBody(d, filterPointer(ctx, filterIndex)) }] };
  }
  const recreate = !('deleted' in l.filter) && ctx.recreateWithRule.has(l.filter.id);
  if (!recreate && inSync(d, l, target)) return noOpChange('firewall_rule', d.ref, l.id);
  const before = liveRuleAttributes(ctx, l);
  const after = desiredRuleAttributes(d);
  // The filter is compared by identity; its label only says which one it is.
  if (pointsAt(l, target)) after.filter = before.filter!;
  const changed = changedAttributes(before, after);
  const base = { kind: 'firewall_rule' as const, ref: d.ref, id: l.id, before, after, changed };
  const body = ruleBody(d, filterPointer(ctx, filterIndex), l);
  if (recreate) {
    return { ...base, action: 'replace', reason: 'recreated-with-filter',
      writes: [{ op: 'firewall_rule.delete', id: l.id, destroyFirst: true }, { op: 'firewall_rule.create', body }],
      note: 'its simplified-flow filter is replaced or dropped, and only deleting the rule with delete_filter_if_unused can delete it, so the rule is deleted first and created again (new id)' };
  }
  if (changed.length === 0) return { ...base, action: 'no-op', reason: 'in-sync', writes: [] };
  return { ...base, action: 'update', reason: updateReason(ctx, d, changed),
    writes: [{ op: 'firewall_rule.update', id: l.id, body }] };
}

/** Changes of every firewall rule the manifest declares (none for a rule whose filter is missing). */
export function diffDesiredRules(ctx: FirewallContext): Change[] {
  const changes = ctx.desired.firewallRules.map((d, i) => diffRule(ctx, d, i));
  return changes.includes(undefined) ? changes.filter((c) => c !== undefined) : changes as Change[];
}

/** A one-line summary of a live rule for the unmanaged list. */
export function ruleSummary(ctx: FirewallContext, l: LiveFirewallRule): string {
  const f = 'deleted' in l.filter ? undefined : ctx.match.liveFilter(l.filter.id);
  const what = f === undefined ? `filter ${l.filter.id}` : f.expression;
  return `${l.action}${l.paused ? ' (paused)' : ''} when ${what}${l.description ? ` — ${l.description}` : ''}`;
}

/**
 * Live rules no desired rule claimed: deleted when managed (or pruned; changes added to `changes`),
 * else listed as unmanaged. Returns the ids of unmanaged rules that stay (their filters must stay too).
 */
export function diffLeftoverRules(ctx: FirewallContext, changes: Change[], unmanaged: UnmanagedObject[]): Set<string> {
  const kept = new Set<string>();
  const claimed = ctx.match.claimedRules;
  if (!claimed.includes(0)) return kept;
  const leftover = ctx.live.firewallRules.filter((_, j) => claimed[j] === 0);
  const heldRefs = new Set(ctx.match.rules.flatMap((l) => (l === undefined ? [] : [l.ref ?? ''])));
  for (const l of leftover) {
    const ref = l.ref ?? '';
    if (ref === '' && !ctx.prune) {
      unmanaged.push({ kind: 'firewall_rule', id: l.id, summary: ruleSummary(ctx, l) });
      kept.add(l.id);
      if (!('deleted' in l.filter) && ctx.recreateWithRule.has(l.filter.id)) {
        ctx.findings.push(finding('locked-filter-duplicate',
          `filter ${l.filter.id} was created by the simplified flow for unmanaged rule ${l.id}; it can only be recreated once that rule is gone: delete it, or plan with --prune`,
          { kind: 'firewall_rule' }));
      }
      continue;
    }
    let reason: ChangeReason = ref === '' ? 'prune' : 'not-in-manifest';
    if (ref !== '' && heldRefs.has(ref)) {
      reason = 'duplicate-ref';
      ctx.findings.push(finding('duplicate-ref', `firewall rule ${l.id} carries ref "${ref}", which another live rule holds; the extra one is deleted`,
        { kind: 'firewall_rule', ref }));
    }
    const before = liveRuleAttributes(ctx, l);
    const destroyFirst = !('deleted' in l.filter) && ctx.recreateWithRule.has(l.filter.id);
    changes.push({ kind: 'firewall_rule', action: 'delete', reason, ref, id: l.id, before, after: null,
      changed: Object.keys(before), writes: [{ op: 'firewall_rule.delete', id: l.id, ...(destroyFirst ? { destroyFirst } : {}) }] });
  }
  return kept;
}
