/**
 * The firewall side of a plan: filters and firewall rules. Matches desired and live objects
 * (`match-firewall.ts`), diffs the declared filters, then the rules (which need to know where each
 * filter will be), then what is left over in the zone, and finally checks for expressions the
 * service would refuse as duplicates.
 */
import type { DesiredZone } from '../manifest/index.js';
import type { Canonicalizer } from './canonical.js';
import type { Change } from './change.js';
import { diffDesiredFilters } from './diff-filters.js';
import { diffLeftoverFilters } from './diff-leftover-filters.js';
import { diffDesiredRules, diffLeftoverRules } from './diff-rules.js';
import { checkDuplicates } from './duplicates.js';
import type { FirewallContext } from './firewall-context.js';
import type { Finding } from './finding.js';
import type { LiveZone } from './live.js';
import { matchFirewall } from './match-firewall.js';
import type { UnmanagedObject } from './plan.js';

/** Changes, unmanaged objects and findings of the filters and firewall rules of a zone. */
export function diffFirewall(
  desired: DesiredZone,
  live: LiveZone,
  canon: Canonicalizer,
  prune: boolean,
): { changes: Change[]; unmanaged: UnmanagedObject[]; findings: Finding[] } {
  const match = matchFirewall(desired.filters, desired.firewallRules, live.filters, live.firewallRules, canon, prune);
  const ctx: FirewallContext = {
    desired, live, canon, prune, match,
    findings: [],
    desiredFilters: new Map(desired.filters.map((f) => [f.ref, f])),
    filterTarget: new Map(),
    replacedFilters: new Set(),
    recreateWithRule: new Set(),
    expressionFreed: new Set(),
  };
  const unmanaged: UnmanagedObject[] = [];
  const filterChanges = diffDesiredFilters(ctx);
  const ruleChanges = diffDesiredRules(ctx);
  const leftoverRules = diffLeftoverRules(ctx, unmanaged);
  const leftoverFilters = diffLeftoverFilters(ctx, leftoverRules.kept, unmanaged);
  const changes = [...filterChanges, ...ruleChanges, ...leftoverRules.changes, ...leftoverFilters];
  checkDuplicates(ctx, changes);
  return { changes, unmanaged, findings: ctx.findings };
}
