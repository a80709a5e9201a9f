/**
 * The order in which a plan's writes run. Filters come before the rules that use them, the managed
 * entry point after the rules, deletions last and in reverse (rules, then filters), as Terraform's
 * `transform_destroy_edge.go` reverses destroy edges. Within the filters phase updates run before
 * creates, so an expression a kept filter gives up is free before a new filter claims it (the
 * service refuses duplicate expressions).
 *
 * | phase | writes |
 * |---|---|
 * | `firewall_rules.delete_first` | rules deleted before their simplified-flow filter can be recreated |
 * | `filters.update` | PUT of filters, in batches |
 * | `filters.create` | POST of filters, in batches |
 * | `firewall_rules.update` | PUT of rules (priorities, repoints), in batches |
 * | `firewall_rules.create` | POST of rules, in batches |
 * | `page_rules` | one POST, PUT or DELETE per Page Rule (the API has no batch form) |
 * | `previous_waf` | one PATCH per package, group or rule (the API has no batch form) |
 * | `custom_rules` | single-rule POST/PATCH/DELETE calls, or one PUT of the custom phase entry point |
 * | `entrypoint` | one PUT of the whole entry point (and the migration step) |
 * | `firewall_rules.delete` | DELETE of rules, in batches |
 * | `filters.delete` | DELETE of filters, in batches |
 */
import type { Change } from './change.js';
import type { Write } from './write.js';

/** The phases, in the order they run. */
export const PhaseNames = [
  'firewall_rules.delete_first',
  'filters.update',
  'filters.create',
  'firewall_rules.update',
  'firewall_rules.create',
  'page_rules',
  'previous_waf',
  'custom_rules',
  'entrypoint',
  'firewall_rules.delete',
  'filters.delete',
] as const;

/** One phase. */
export type PhaseName = (typeof PhaseNames)[number];

/** The phase a write runs in. */
export function phaseOf(write: Write): PhaseName {
  switch (write.op) {
    case 'filter.create': return 'filters.create';
    case 'filter.update': return 'filters.update';
    case 'filter.delete': return 'filters.delete';
    case 'firewall_rule.create': return 'firewall_rules.create';
    case 'firewall_rule.update': return 'firewall_rules.update';
    case 'firewall_rule.delete': return write.destroyFirst === true ? 'firewall_rules.delete_first' : 'firewall_rules.delete';
    case 'waf_package.patch':
    case 'waf_group.patch':
    case 'waf_rule.patch': return 'previous_waf';
    case 'page_rule.create':
    case 'page_rule.update':
    case 'page_rule.delete': return 'page_rules';
  }
}

const kindOrder: Record<Change['kind'], number> = {
  filter: 0, firewall_rule: 1, custom_rule: 2, waf_package: 3, waf_group: 4, waf_rule: 5, managed_ruleset: 6, waf_migration: 7, page_rule: 8,
};
const kinds = Object.keys(kindOrder).length;

const phaseRank = Object.fromEntries(PhaseNames.map((p, i) => [p, i])) as Record<PhaseName, number>;

/** The rank of a change in apply order: the phase of its first write, entry-point changes at `entrypoint`. */
function rank(c: Change): number {
  const first = c.writes[0];
  if (first !== undefined) return phaseRank[phaseOf(first)];
  if (c.kind === 'managed_ruleset' || c.kind === 'waf_migration') return phaseRank.entrypoint;
  if (c.kind === 'custom_rule') return phaseRank.custom_rules;
  // No write: no-ops and follows-rule deletions sit with their kind's deletions or updates.
  return phaseRank[c.action === 'delete' ? 'filters.delete' : c.kind === 'filter' ? 'filters.update' : 'firewall_rules.update'];
}

/**
 * Sorts changes into apply order: by phase, then kind, then ref. Stable, so the order of managed
 * rulesets within the entry point, and of custom rules within their phase, is kept. A counting
 * sort puts the changes in place by phase and kind (a plan has a few such buckets), then each
 * bucket is sorted by ref: no keyed copies of thousands of changes.
 */
export function orderChanges(changes: readonly Change[]): Change[] {
  const keys = new Uint8Array(changes.length); // bucket of each change: phase * kinds + kind (< 99)
  const ends = new Array<number>(PhaseNames.length * kinds).fill(0); // bucket sizes, then offsets
  changes.forEach((c, i) => {
    const k = rank(c) * kinds + kindOrder[c.kind];
    keys[i] = k;
    ends[k]!++;
  });
  let at = 0;
  ends.forEach((n, k) => { ends[k] = at; at += n; }); // where each bucket starts; once filled, where it ends
  const out = new Array<Change>(changes.length);
  changes.forEach((c, i) => { out[ends[keys[i]!]!++] = c; });
  let start = 0;
  ends.forEach((end) => {
    const kind = out[start]?.kind;
    if (end - start > 1 && kind !== 'managed_ruleset' && kind !== 'custom_rule') {
      out.slice(start, end).sort(byRefThenId).forEach((c, i) => { out[start + i] = c; });
    }
    start = end;
  });
  return out;
}

function byRefThenId(a: Change, b: Change): number {
  return compareText(a.ref, b.ref) || compareText(a.id ?? '', b.id ?? '');
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
