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
import { ResourceKinds, type Change, type ResourceKind } from './change.js';
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

/** The place of a kind among changes of one phase (a switch: a keyed lookup in a table cost more per change than the rest of ranking). */
function kindRank(kind: ResourceKind): number {
  switch (kind) {
    case 'filter': return 0;
    case 'firewall_rule': return 1;
    case 'custom_rule': return 2;
    case 'waf_package': return 3;
    case 'waf_group': return 4;
    case 'waf_rule': return 5;
    case 'managed_ruleset': return 6;
    case 'waf_migration': return 7;
    case 'page_rule': return 8;
  }
}
const kinds = ResourceKinds.length;

const phaseRank = Object.fromEntries(PhaseNames.map((p, i) => [p, i])) as Record<PhaseName, number>;
// Ranks of changes without writes, read once: a plan's thousands of no-ops each made a keyed lookup.
const entrypointRank = phaseRank.entrypoint;
const customRulesRank = phaseRank.custom_rules;
const deletedRank = phaseRank['filters.delete'];
const keptFilterRank = phaseRank['filters.update'];
const keptRank = phaseRank['firewall_rules.update'];

/** The rank of a change in apply order: the phase of its first write, entry-point changes at `entrypoint`. */
function rank(c: Change): number {
  // The length first: reading [0] of the no-ops' shared frozen empty list is a slow out-of-bounds load.
  if (c.writes.length > 0) return phaseRank[phaseOf(c.writes[0]!)];
  if (c.kind === 'managed_ruleset' || c.kind === 'waf_migration') return entrypointRank;
  if (c.kind === 'custom_rule') return customRulesRank;
  // No write: no-ops and follows-rule deletions sit with their kind's deletions or updates.
  return c.action === 'delete' ? deletedRank : c.kind === 'filter' ? keptFilterRank : keptRank;
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
  for (let i = 0; i < changes.length; i++) {
    const c = changes[i]!;
    const k = rank(c) * kinds + kindRank(c.kind);
    keys[i] = k;
    ends[k]!++;
  }
  let at = 0;
  for (let k = 0; k < ends.length; k++) { // where each bucket starts; once filled, where it ends
    const n = ends[k]!;
    ends[k] = at;
    at += n;
  }
  const out = new Array<Change>(changes.length);
  for (let i = 0; i < changes.length; i++) out[ends[keys[i]!]!++] = changes[i]!;
  let start = 0;
  for (const end of ends) {
    const kind = out[start]?.kind;
    if (end - start > 1 && kind !== 'managed_ruleset' && kind !== 'custom_rule') {
      const sorted = out.slice(start, end).sort(byRefThenId);
      for (let i = 0; i < sorted.length; i++) out[start + i] = sorted[i]!;
    }
    start = end;
  }
  return out;
}

function byRefThenId(a: Change, b: Change): number {
  // Refs differ but for deletions of duplicates: one comparison of them decides.
  if (a.ref !== b.ref) return a.ref < b.ref ? -1 : 1;
  return compareText(a.id ?? '', b.id ?? '');
}

function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
