/**
 * Batches and their execution: the steps of a phase cut into batches of at most `batchSize`
 * objects (one request each; previous-WAF PATCHes, the custom phase's calls and the entry point
 * PUT are one request per step), and one batch sent through the provider. New filters are named by
 * ref in rule bodies until they exist; the create calls' answers (in request order) give their ids.
 */
import { ZonewallError } from '../errors.js';
import type { FilterPointer, FirewallRuleBody, FirewallRuleWriteBody, PhaseName, Write } from '../plan/index.js';
import type { Provider } from '../providers/index.js';
import { CustomRuleIds, executeCustomStep } from './custom-rules.js';
import type { Phase, Step } from './phases.js';

/** Steps sent in one request. */
export interface Batch {
  phase: PhaseName;
  steps: Step[];
}

const perStep = new Set<PhaseName>(['page_rules', 'previous_waf', 'custom_rules', 'entrypoint']);

/** The batches of a phase; rule deletes that take their filter along are batched apart (one option per call). */
export function batchesOf(phase: Phase, batchSize: number): Batch[] {
  const size = perStep.has(phase.name) ? 1 : batchSize;
  const out: Batch[] = [];
  for (const steps of splitByFilterOption(phase.steps)) {
    for (let i = 0; i < steps.length; i += size) out.push({ phase: phase.name, steps: steps.slice(i, i + size) });
  }
  return out;
}

function splitByFilterOption(steps: Step[]): Step[][] {
  const takes = (s: Step) => s.kind === 'write' && s.write.op === 'firewall_rule.delete' && s.write.deleteFilterIfUnused === true;
  const withFilter = steps.filter(takes);
  if (withFilter.length === 0 || withFilter.length === steps.length) return [steps];
  return [withFilter, steps.filter((s) => !takes(s))];
}

/** Filter ids of filters created during this apply, by ref. */
export type CreatedFilters = Map<string, string>;

/** What an apply learns as it goes: ids of created filters, and of custom rules, by ref. */
export interface ApplyIds {
  filters: CreatedFilters;
  customRules: CustomRuleIds;
}

/** Fresh id tables for one apply. */
export function newApplyIds(): ApplyIds {
  return { filters: new Map(), customRules: new CustomRuleIds() };
}

function resolve(pointer: FilterPointer, created: CreatedFilters): { id: string } {
  if ('id' in pointer) return { id: pointer.id };
  const id = created.get(pointer.ref);
  if (id === undefined) throw new ZonewallError('ERR_INTERNAL', `filter "${pointer.ref}" should have been created before the rules that use it`);
  return { id };
}

function ruleBody(body: FirewallRuleWriteBody, created: CreatedFilters): FirewallRuleBody {
  return { ...body, filter: resolve(body.filter, created) };
}

function writesOf<O extends Write['op']>(batch: Batch, op: O): Extract<Write, { op: O }>[] {
  return batch.steps.flatMap((s) => (s.kind === 'write' && s.write.op === op ? [s.write as Extract<Write, { op: O }>] : []));
}

/** Sends one batch; records the ids of created filters. */
export async function executeBatch(provider: Provider, zoneId: string, batch: Batch, ids: ApplyIds): Promise<void> {
  const created = ids.filters;
  switch (batch.phase) {
    case 'filters.create': {
      const writes = writesOf(batch, 'filter.create');
      const result = await provider.createFilters(zoneId, writes.map((w) => w.body));
      writes.forEach((w, i) => { if (w.body.ref !== undefined && result[i] !== undefined) created.set(w.body.ref, result[i]!.id); });
      return;
    }
    case 'filters.update':
      await provider.updateFilters(zoneId, writesOf(batch, 'filter.update').map((w) => ({ ...w.body, id: w.id })));
      return;
    case 'filters.delete':
      await provider.deleteFilters(zoneId, writesOf(batch, 'filter.delete').map((w) => w.id));
      return;
    case 'firewall_rules.create':
      await provider.createFirewallRules(zoneId, writesOf(batch, 'firewall_rule.create').map((w) => ruleBody(w.body, created)));
      return;
    case 'firewall_rules.update':
      await provider.updateFirewallRules(zoneId, writesOf(batch, 'firewall_rule.update').map((w) => ({ ...ruleBody(w.body, created), id: w.id })));
      return;
    case 'firewall_rules.delete':
    case 'firewall_rules.delete_first': {
      const writes = writesOf(batch, 'firewall_rule.delete');
      const withFilter = writes[0]?.deleteFilterIfUnused === true;
      await provider.deleteFirewallRules(zoneId, writes.map((w) => w.id), withFilter ? { deleteFilterIfUnused: true } : undefined);
      return;
    }
    case 'custom_rules':
      for (const step of batch.steps) {
        if (step.kind !== 'custom_rules') throw new ZonewallError('ERR_INTERNAL', 'a custom_rules batch holds another kind of step');
        await executeCustomStep(provider, zoneId, step.write, step.op, ids.customRules);
      }
      return;
    case 'page_rules':
    case 'previous_waf':
    case 'entrypoint':
      for (const step of batch.steps) await executeSingle(provider, zoneId, step);
  }
}

async function executeSingle(provider: Provider, zoneId: string, step: Step): Promise<void> {
  if (step.kind === 'entrypoint') {
    const { body, wafMigration } = step.write;
    await provider.putEntrypoint(zoneId, body, wafMigration !== undefined ? { wafMigration } : undefined);
    return;
  }
  if (step.kind !== 'write') throw new ZonewallError('ERR_INTERNAL', 'a custom_rules step outside its phase');
  const w = step.write;
  switch (w.op) {
    case 'waf_package.patch': return provider.patchWafPackage(zoneId, w.packageId, w.body);
    case 'waf_group.patch': return provider.patchWafGroup(zoneId, w.packageId, w.groupId, w.mode);
    case 'waf_rule.patch': return provider.patchWafRule(zoneId, w.packageId, w.ruleId, w.mode);
    case 'page_rule.create': await provider.createPageRule(zoneId, w.body); return;
    case 'page_rule.update': await provider.updatePageRule(zoneId, w.id, w.body); return;
    case 'page_rule.delete': return provider.deletePageRule(zoneId, w.id);
    default: throw new ZonewallError('ERR_INTERNAL', `write ${w.op} is not a single-object write`);
  }
}
