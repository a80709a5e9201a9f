/**
 * Live filters no desired filter claimed. A managed one (it has a ref) is deleted, unless an
 * unmanaged rule that stays still uses it; an unmanaged one is listed and left alone unless
 * `--prune`. Simplified-flow filters cannot be DELETEd: the rule delete removes them
 * (`delete_filter_if_unused`), so they show as `follows-rule` deletions without an API call of their own.
 */
import type { Change, ChangeReason } from '../change.js';
import { finding } from './findings.js';
import { liveFilterAttributes, type FirewallContext } from './context.js';
import type { LiveFilter } from './live.js';
import type { UnmanagedObject } from '../plan.js';

/** Live rule ids by the filter id they use. */
function rulesByFilter(ctx: FirewallContext): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const r of ctx.live.firewallRules) {
    if ('deleted' in r.filter) continue;
    const list = out.get(r.filter.id);
    if (list === undefined) out.set(r.filter.id, [r.id]);
    else list.push(r.id);
  }
  return out;
}

function deletion(ctx: FirewallContext, l: LiveFilter, reason: ChangeReason, withCall: boolean): Change {
  const before = liveFilterAttributes(l, ctx.canon);
  return {
    kind: 'filter', action: 'delete', reason, ref: l.ref ?? '', id: l.id, before, after: null,
    changed: Object.keys(before), writes: withCall ? [{ op: 'filter.delete', id: l.id }] : [],
    ...(withCall ? {} : { note: 'created by the simplified flow: deleted with its rule (delete_filter_if_unused)' }),
  };
}

/**
 * Changes (added to `changes`) and unmanaged entries for the live filters nobody claimed.
 * `keptRules` are the live rules that stay untouched (unmanaged, not pruned).
 */
export function diffLeftoverFilters(ctx: FirewallContext, keptRules: ReadonlySet<string>, changes: Change[], unmanaged: UnmanagedObject[]): void {
  const claimed = ctx.match.claimedFilters;
  if (!claimed.includes(0)) return;
  const leftover = ctx.match.liveFilters.filter((_, j) => claimed[j] === 0);
  const users = rulesByFilter(ctx);
  const heldRefs = new Set(ctx.match.filters.flatMap((l) => (l === undefined ? [] : [l.ref ?? ''])));
  for (const l of leftover) {
    const ref = l.ref ?? '';
    const usedBy = users.get(l.id) ?? [];
    const stays = usedBy.filter((id) => keptRules.has(id));
    if (l.locked === true && usedBy.length > 0 && stays.length === 0) {
      // It belongs to its rules, which this plan deletes: it goes with the last of them.
      changes.push(deletion(ctx, l, 'follows-rule', false));
      continue;
    }
    if (ref === '' && !ctx.prune) {
      unmanaged.push({ kind: 'filter', id: l.id, summary: l.expression });
      continue;
    }
    if (stays.length > 0) {
      ctx.findings.push(finding('filter-still-used',
        `filter ${ref !== '' ? `"${ref}" ` : ''}(id ${l.id}) is not in the manifest but unmanaged firewall rule ${stays.join(', ')} still uses it; it is kept`,
        { kind: 'filter', ref }));
      continue;
    }
    if (l.locked === true) {
      ctx.findings.push(finding('locked-filter-orphan',
        `filter ${l.id} was created by the simplified flow and no rule uses it, but the API cannot delete it`, { kind: 'filter', ref }));
      continue;
    }
    let reason: ChangeReason = ref === '' ? 'prune' : 'not-in-manifest';
    if (ref !== '' && heldRefs.has(ref)) {
      reason = 'duplicate-ref';
      ctx.findings.push(finding('duplicate-ref', `filter ${l.id} carries ref "${ref}", which another live filter holds; the extra one is deleted`,
        { kind: 'filter', ref }));
    }
    changes.push(deletion(ctx, l, reason, true));
  }
}
