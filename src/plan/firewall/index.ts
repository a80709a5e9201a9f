/**
 * The firewall kind: filters and firewall rules (the `filters` and `firewall_rules` sections), the
 * first generation of the zone's firewall. Always read (one paginated list each); written in
 * batches, filters before the rules that use them and deleted after them.
 */
import type { Change } from '../change.js';
import { listPages, type PlanKind } from '../kind.js';
import { byId } from '../stable-json.js';
import type { Write } from '../write.js';
import { lastEvaluatedFirst } from './delete-order.js';
import { diffFirewall } from './diff.js';
import { exportFirewall } from './export.js';
import { firewallRulesQuota } from './quota.js';
import { filterPauses, firewallChangeFindings } from './safety.js';

declare module '../phase.js' {
  interface PhaseRegistry {
    'firewall_rules.delete_first': true;
    'filters.update': true;
    'filters.create': true;
    'firewall_rules.update': true;
    'firewall_rules.create': true;
    'firewall_rules.delete': true;
    'filters.delete': true;
  }
}

declare module '../change.js' {
  interface ResourceKindRegistry {
    filter: true;
    firewall_rule: true;
  }
}

/** Filters and firewall rules. */
export const firewall: PlanKind = {
  name: 'firewall',
  resources: {
    filter: { kept: 'filters.update', deleted: 'filters.delete', counted: true },
    firewall_rule: { kept: 'firewall_rules.update', deleted: 'filters.delete', counted: true, deleteOrder: lastEvaluatedFirst },
  },
  phases: [
    { name: 'firewall_rules.delete_first', requests: 'batch' },
    { name: 'filters.update', requests: 'batch' },
    { name: 'filters.create', requests: 'batch' },
    { name: 'firewall_rules.update', requests: 'batch' },
    { name: 'firewall_rules.create', requests: 'batch' },
    { name: 'firewall_rules.delete', requests: 'batch' },
    { name: 'filters.delete', requests: 'batch' },
  ],
  ops: ['filter.create', 'filter.update', 'filter.delete', 'firewall_rule.create', 'firewall_rule.update', 'firewall_rule.delete'],
  phaseOf(write: Write) {
    switch (write.op) {
      case 'filter.create': return 'filters.create';
      case 'filter.update': return 'filters.update';
      case 'filter.delete': return 'filters.delete';
      case 'firewall_rule.create': return 'firewall_rules.create';
      case 'firewall_rule.update': return 'firewall_rules.update';
      case 'firewall_rule.delete': return write.destroyFirst === true ? 'firewall_rules.delete_first' : 'firewall_rules.delete';
      default: throw new Error(`firewall: write ${write.op} is not a firewall write`);
    }
  },
  // Rule deletes that take their filter along go in requests of their own (one option per call), first.
  batchGroup: (write: Write) => (write.op === 'firewall_rule.delete' && write.deleteFilterIfUnused === true ? 0 : 1),
  canonical: (desired) => desired.filters.map((f) => f.expression),
  readRequests: (live, perPage) => listPages(live.filters.length, perPage) + listPages(live.firewallRules.length, perPage),
  diff: ({ desired, live, canon, prune }) => diffFirewall(desired, live, canon, prune),
  changeFindings: firewallChangeFindings,
  planFindings: (changes: readonly Change[], zone) => filterPauses(changes, zone),
  quotaFindings: (tier, zone, changes) => firewallRulesQuota(tier, zone, changes),
  export(live, { canon }) {
    const e = exportFirewall(live, canon);
    const sections = {
      ...(Object.keys(e.filters).length > 0 ? { filters: e.filters } : {}),
      ...(Object.keys(e.rules).length > 0 ? { firewall_rules: e.rules } : {}),
    };
    const writes: Write[] = [
      ...e.adoptFilters.map(({ id, ...body }): Write => ({ op: 'filter.update', id, body })),
      ...e.adoptRules.map(({ id, ...body }): Write => ({ op: 'firewall_rule.update', id, body })),
    ];
    return { sections, adopted: e.objects, skipped: e.skipped, adoption: { writes } };
  },
  fingerprint(live, put) {
    put('fl', live.filterLocks ?? 'reported');
    for (const f of [...live.filters].sort(byId)) {
      put('f', [f.id, f.expression, f.paused, f.description ?? '', f.ref ?? '', f.locked === true]);
    }
    for (const r of [...live.firewallRules].sort(byId)) {
      put('r', [r.id, r.action, r.priority, r.paused, r.description ?? '', r.ref ?? '', [...(r.products ?? [])].sort(),
        r.filter.id, 'deleted' in r.filter, r.modified_on ?? '']);
    }
  },
};
