/**
 * Carries out filter and firewall rule writes, a batch per request. New filters are named by ref in
 * rule bodies until they exist; the create calls' answers (in request order) give their ids.
 */
import { ZonewallError } from '../errors.js';
import type { FilterPointer, FirewallRuleBody, FirewallRuleWriteBody, Write } from '../plan/index.js';
import type { ApplyIds, WriteExecutor } from './executor.js';

const filterKey = (ref: string) => `filter:${ref}`;

function resolve(pointer: FilterPointer, ids: ApplyIds): { id: string } {
  if ('id' in pointer) return { id: pointer.id };
  const id = ids.created.get(filterKey(pointer.ref));
  if (id === undefined) throw new ZonewallError('ERR_INTERNAL', `filter "${pointer.ref}" should have been created before the rules that use it`);
  return { id };
}

function ruleBody(body: FirewallRuleWriteBody, ids: ApplyIds): FirewallRuleBody {
  return { ...body, filter: resolve(body.filter, ids) };
}

function only<O extends Write['op']>(writes: Write[], op: O): Extract<Write, { op: O }>[] {
  return writes.filter((w): w is Extract<Write, { op: O }> => w.op === op);
}

/** Filters and firewall rules: batched creates, updates and deletes. */
export const firewallExecutor: WriteExecutor = {
  ops: ['filter.create', 'filter.update', 'filter.delete', 'firewall_rule.create', 'firewall_rule.update', 'firewall_rule.delete'],
  async execute(provider, zoneId, writes, ids) {
    switch (writes[0]?.op) {
      case 'filter.create': {
        const creates = only(writes, 'filter.create');
        const result = await provider.createFilters(zoneId, creates.map((w) => w.body));
        creates.forEach((w, i) => { if (w.body.ref !== undefined && result[i] !== undefined) ids.created.set(filterKey(w.body.ref), result[i]!.id); });
        return;
      }
      case 'filter.update':
        await provider.updateFilters(zoneId, only(writes, 'filter.update').map((w) => ({ ...w.body, id: w.id })));
        return;
      case 'filter.delete':
        await provider.deleteFilters(zoneId, only(writes, 'filter.delete').map((w) => w.id));
        return;
      case 'firewall_rule.create':
        await provider.createFirewallRules(zoneId, only(writes, 'firewall_rule.create').map((w) => ruleBody(w.body, ids)));
        return;
      case 'firewall_rule.update':
        await provider.updateFirewallRules(zoneId, only(writes, 'firewall_rule.update').map((w) => ({ ...ruleBody(w.body, ids), id: w.id })));
        return;
      case 'firewall_rule.delete': {
        const deletes = only(writes, 'firewall_rule.delete');
        // A batch holds deletes of one kind only (`batchGroup`): with their filter, or without.
        const withFilter = deletes[0]?.deleteFilterIfUnused === true;
        await provider.deleteFirewallRules(zoneId, deletes.map((w) => w.id), withFilter ? { deleteFilterIfUnused: true } : undefined);
        return;
      }
      default: throw new ZonewallError('ERR_INTERNAL', `write ${String(writes[0]?.op)} is not a filter or firewall rule write`);
    }
  },
};
