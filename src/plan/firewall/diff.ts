/**
 * The firewall side of a plan: filters and firewall rules. Matches desired and live objects
 * (`match.ts`), diffs the declared filters, then the rules (which need to know where each
 * filter will be), then what is left over in the zone, and finally checks for expressions the
 * service would refuse as duplicates. A rule delete takes its filter along
 * (`delete_filter_if_unused`) when the plan deletes that filter too: the only way a simplified-flow
 * filter can go, and harmless for others (their own delete then finds them gone, which the bulk
 * delete answers with 200).
 */
import type { DesiredZone } from '../../manifest/index.js';
import { finding } from './findings.js';
import type { Canonicalizer } from '../canonical.js';
import type { Change } from '../change.js';
import { diffDesiredFilters } from './diff-filters.js';
import { diffLeftoverFilters } from './leftover-filters.js';
import { diffDesiredRules, diffLeftoverRules } from './diff-rules.js';
import { checkDuplicates } from './duplicates.js';
import type { FirewallContext } from './context.js';
import type { Finding } from '../finding.js';
import type { LiveZone } from '../live.js';
import { matchFirewall } from './match.js';
import type { UnmanagedObject } from '../plan.js';

/** Changes, unmanaged objects and findings of the filters and firewall rules of a zone. */
export function diffFirewall(
  desired: DesiredZone,
  live: LiveZone,
  canon: Canonicalizer,
  prune: boolean,
): { changes: Change[]; unmanaged: UnmanagedObject[]; findings: Finding[] } {
  const match = matchFirewall(desired.filters, desired.firewallRules, live.filters, live.firewallRules, canon, prune);
  // Made at the first lookup: rules in sync find their filter through their live rule (`diff-rules.ts`).
  let byRef: Map<string, number> | undefined;
  const desiredFilterIndex = (ref: string) => {
    if (byRef === undefined) {
      byRef = new Map();
      desired.filters.forEach((f, i) => byRef!.set(f.ref, i));
    }
    return byRef.get(ref);
  };
  const ctx: FirewallContext = {
    desired, live, canon, prune, match,
    findings: [],
    desiredFilterIndex,
    filterTarget: new Array<string | null>(desired.filters.length).fill(null),
    replacedFilters: new Set(),
    recreateWithRule: new Set(),
    expressionFreed: new Set(),
  };
  const unmanaged: UnmanagedObject[] = [];
  // In this order: filters, rules, then the live rules and filters the manifest no longer has.
  const filterChanges = diffDesiredFilters(ctx);
  recreateRulesOfDroppedLockedFilters(ctx);
  const changes = filterChanges.concat(diffDesiredRules(ctx));
  const keptRules = diffLeftoverRules(ctx, changes, unmanaged);
  diffLeftoverFilters(ctx, keptRules, changes, unmanaged);
  checkDuplicates(ctx, changes);
  deleteFiltersWithTheirRules(ctx, changes);
  checkUnknownLocks(ctx, changes);
  return { changes, unmanaged, findings: ctx.findings };
}

/**
 * A simplified-flow filter the manifest drops while a rule of it stays (moved to another filter):
 * a repoint would leave the filter behind for good, so the rule is deleted with
 * `delete_filter_if_unused` and created again instead.
 */
function recreateRulesOfDroppedLockedFilters(ctx: FirewallContext): void {
  const { liveFilters, claimedFilters, claimedRules } = ctx.match;
  const dropped = new Set<string>();
  liveFilters.forEach((l, j) => { if (l.locked === true && claimedFilters[j] === 0) dropped.add(l.id); });
  if (dropped.size === 0) return;
  ctx.live.firewallRules.forEach((r, j) => {
    if (!('deleted' in r.filter) && dropped.has(r.filter.id) && claimedRules[j] === 1) ctx.recreateWithRule.add(r.filter.id);
  });
}

/**
 * Without `locked` from the service, a filter zonewall did not create (no ref of its own: adopted by
 * expression, or pruned) may be a simplified-flow filter, which refuses PUT and DELETE (10104). The
 * plan cannot know, so it says so for each such write.
 */
function checkUnknownLocks(ctx: FirewallContext, changes: readonly Change[]): void {
  if (ctx.live.filterLocks !== 'unknown') return;
  for (const c of changes) {
    if (c.kind !== 'filter' || c.id === undefined || c.writes.length === 0) continue;
    const verb = c.writes.some((w) => w.op === 'filter.update') ? 'update' : c.writes.some((w) => w.op === 'filter.delete') ? 'delete' : undefined;
    if (verb === undefined) continue;
    const l = ctx.match.liveFilter(c.id);
    if (l === undefined || (l.ref ?? '') !== '') continue;
    ctx.findings.push(finding('filter-lock-unknown',
      `filter ${c.ref !== '' ? `"${c.ref}" ` : ''}(id ${l.id}): the service does not say whether the simplified flow created it; if it did, the service refuses to ${verb} it (10104) and apply stops there: then write the filter inline under its rule`,
      { kind: 'filter', ...(c.ref !== '' ? { ref: c.ref } : {}) }));
  }
}

/** Marks the rule deletes whose filter this plan deletes too (or recreates) with `deleteFilterIfUnused`. */
function deleteFiltersWithTheirRules(ctx: FirewallContext, changes: readonly Change[]): void {
  let going: Set<string> | undefined;
  changes.forEach((c) => { if (c.kind === 'filter' && c.action === 'delete' && c.id !== undefined) (going ??= new Set(ctx.recreateWithRule)).add(c.id); });
  going ??= ctx.recreateWithRule;
  if (going.size === 0) return;
  const filterOf = new Map(ctx.live.firewallRules.map((r) => [r.id, r.filter.id]));
  for (const c of changes) {
    if (c.writes.length > 0) for (const w of c.writes) if (w.op === 'firewall_rule.delete' && going.has(filterOf.get(w.id) ?? '')) w.deleteFilterIfUnused = true;
  }
}
