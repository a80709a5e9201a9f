/**
 * The firewall rules API of a zone (api-facts.md §3) apart from create (`create.ts`): list, get,
 * update one (PUT), bulk update (PUT), edit one and bulk edit (PATCH, results are arrays), delete
 * one (optional body `{"delete_filter_if_unused": true}`) and bulk delete (`?id=A&id=B`, the same
 * option in the body or the query). Every write is all-or-nothing.
 */
import { DeleteFilterIfUnused, FirewallRulePaths } from '../../api/index.js';
import { ApiError, apiMessage } from '../api-errors.js';
import { BodyReader, Problems, requireArray, requireObject } from '../body-reader.js';
import type { ZoneRequestContext, ZoneRoute } from '../context.js';
import { booleanParam, ok, page, parsePageRequest } from '../envelope.js';
import { getFilter, type FilterRecord } from '../filters/store.js';
import { isId } from '../ids.js';
import type { ApiMessage, ApiResponse } from '../types.js';
import { dropUnusedFilters } from './cleanup.js';
import { FirewallActions } from './constants.js';
import { createRules } from './create.js';
import { quotaProblem, ruleFeatureProblems } from './entitlements.js';
import { listView } from '../list-view.js';
import { listRules, ruleListSource } from './list.js';
import { countActiveRules, deleteRule, getRule, ruleToJson, updateRule, type StoredFirewallRuleFields, type RuleWithFilter } from './store.js';
import { readRulePatch, readRuleUpdate, shapeOk, type RulePatch } from './validate.js';

const BASE = FirewallRulePaths.collection;

/** Routes of the firewall rules API. */
export const firewallRuleRoutes: ZoneRoute[] = [
  { method: 'GET', pattern: BASE, handler: list, cacheable: true },
  { method: 'POST', pattern: BASE, handler: createRules },
  { method: 'PUT', pattern: BASE, handler: bulkUpdate },
  { method: 'PATCH', pattern: BASE, handler: bulkPatch },
  { method: 'DELETE', pattern: BASE, handler: bulkDelete },
  { method: 'GET', pattern: FirewallRulePaths.item, handler: getOne, cacheable: true },
  { method: 'PUT', pattern: FirewallRulePaths.item, handler: updateOne },
  { method: 'PATCH', pattern: FirewallRulePaths.item, handler: patchOne },
  { method: 'DELETE', pattern: FirewallRulePaths.item, handler: deleteOne },
];

function list(ctx: ZoneRequestContext): ApiResponse {
  const q = ctx.query;
  const request = parsePageRequest(q);
  const action = q.get('action') ?? undefined;
  if (action !== undefined && !(FirewallActions as readonly string[]).includes(action)) {
    throw ApiError.of('invalidQuery', `query parameter action must be one of ${FirewallActions.join(', ')}; got ${JSON.stringify(action)}`, { pointer: '?action' });
  }
  const id = q.get('id') ?? undefined;
  if (id !== undefined && id.length > 32) throw ApiError.of('invalidQuery', 'query parameter id must be at most 32 characters', { pointer: '?id' });
  const query = { description: q.get('description') ?? undefined, action, paused: booleanParam(q, 'paused'), id };
  // The whole list (what a plan pages through) comes from the zone object's in-memory copy.
  if (Object.values(query).every((v) => v === undefined)) return listView(ctx.sql, ruleListSource).page(ctx.sql, request);
  const { items, total } = listRules(ctx.sql, query, request.perPage, request.offset);
  return page(items, request, total);
}

function getOne(ctx: ZoneRequestContext): ApiResponse {
  return ok(ruleToJson(mustGet(ctx, ctx.params.rule_id!)));
}

interface RuleUpdate {
  id: string;
  fields: StoredFirewallRuleFields;
  pointer: string;
}

function updateOne(ctx: ZoneRequestContext): ApiResponse {
  const id = ctx.params.rule_id!;
  const problems = new Problems();
  const read = readRuleUpdate(requireObject(ctx.body, 'a firewall rule'), '', problems);
  if (read?.id !== undefined && read.id !== id) problems.add('/id', `id ${read.id} does not match the rule in the path (${id})`);
  problems.throwIfAny();
  const [result] = applyUpdates(ctx, [{ id, fields: read!.fields, pointer: '' }]);
  return ok(result!.json, { messages: result!.messages });
}

function bulkUpdate(ctx: ZoneRequestContext): ApiResponse {
  const items = requireArray(ctx.body, 'firewall rule objects, each with its id');
  const problems = new Problems();
  const updates: RuleUpdate[] = [];
  items.forEach((item, i) => {
    const read = readRuleUpdate(item, `/${i}`, problems);
    if (read === undefined) return;
    if (read.id === undefined) problems.add(`/${i}/id`, 'id is required in a bulk update');
    else if (updates.some((u) => u.id === read.id)) problems.add(`/${i}/id`, `rule ${read.id} is listed twice`);
    else updates.push({ id: read.id, fields: read.fields, pointer: `/${i}` });
  });
  problems.throwIfAny();
  const results = applyUpdates(ctx, updates);
  return ok(results.map((r) => r.json), { messages: results.flatMap((r) => r.messages) });
}

function patchOne(ctx: ZoneRequestContext): ApiResponse {
  const id = ctx.params.rule_id!;
  const problems = new Problems();
  const read = readRulePatch(requireObject(ctx.body, 'the firewall rule fields to change'), '', problems);
  if (read?.id !== undefined && read.id !== id) problems.add('/id', `id ${read.id} does not match the rule in the path (${id})`);
  problems.throwIfAny();
  const results = applyUpdates(ctx, [mergePatch(ctx, id, read!.patch, '', problems)]);
  return ok(results.map((r) => r.json), { messages: results.flatMap((r) => r.messages) });
}

function bulkPatch(ctx: ZoneRequestContext): ApiResponse {
  const items = requireArray(ctx.body, 'objects with a firewall rule id and the fields to change (e.g. {"id", "priority"})');
  const problems = new Problems();
  const patches: { id: string; patch: RulePatch; pointer: string }[] = [];
  items.forEach((item, i) => {
    const read = readRulePatch(item, `/${i}`, problems);
    if (read === undefined) return;
    if (read.id === undefined) problems.add(`/${i}/id`, 'id is required in a bulk edit');
    else if (patches.some((p) => p.id === read.id)) problems.add(`/${i}/id`, `rule ${read.id} is listed twice`);
    else patches.push({ id: read.id, patch: read.patch, pointer: `/${i}` });
  });
  problems.throwIfAny();
  const updates = patches.map((p) => mergePatch(ctx, p.id, p.patch, p.pointer, problems));
  problems.throwIfAny();
  const results = applyUpdates(ctx, updates);
  return ok(results.map((r) => r.json), { messages: results.flatMap((r) => r.messages) });
}

/** A PATCH merged onto the stored rule, re-checked as a whole (e.g. bypass needs products). */
function mergePatch(ctx: ZoneRequestContext, id: string, patch: RulePatch, pointer: string, problems: Problems): RuleUpdate {
  const { rule } = mustGet(ctx, id, pointer);
  const fields: StoredFirewallRuleFields = {
    filterId: rule.filterId, action: rule.action, priority: rule.priority, paused: rule.paused,
    description: rule.description, ref: rule.ref, products: rule.products, ...patch,
  };
  shapeOk(fields, new BodyReader({}, pointer, problems));
  problems.throwIfAny();
  return { id, fields, pointer };
}

/**
 * Checks then writes a batch of rule updates: rules and filters must exist, the plan must allow
 * the actions, filters and active count. Filters a rule stopped using are kept (`cleanup.ts`).
 */
function applyUpdates(ctx: ZoneRequestContext, updates: RuleUpdate[]): { json: unknown; messages: ApiMessage[] }[] {
  const current = updates.map((u) => mustGet(ctx, u.id, u.pointer));
  const errors: ApiMessage[] = [];
  const filters = updates.map((u) => {
    const f = getFilter(ctx.sql, u.fields.filterId);
    if (f === undefined) {
      errors.push(apiMessage('unknownFilterReference', `filter ${u.fields.filterId} does not exist in zone ${ctx.zone.name}`, { pointer: `${u.pointer}/filter/id` }));
    }
    return f as FilterRecord;
  });
  if (errors.length > 0) throw new ApiError(400, errors);
  const plan = updates.flatMap((u, i) => ruleFeatureProblems(ctx, u.fields.action, filters[i]!.usesMatches, u.pointer));
  const before = countActiveRules(ctx.sql);
  const after = before - current.filter((c) => !c.rule.paused).length + updates.filter((u) => !u.fields.paused).length;
  const quota = quotaProblem(ctx, before, after);
  if (quota !== undefined) plan.push(quota);
  if (plan.length > 0) throw new ApiError(400, plan);
  // A filter the rule stops using is kept, as on the real service (even one created inline).
  updates.forEach((u) => updateRule(ctx.sql, u.id, u.fields, ctx.now));
  return updates.map((u, i) => ({
    json: ruleToJson({ rule: { ...u.fields, id: u.id, createdOn: current[i]!.rule.createdOn, modifiedOn: ctx.now }, filter: filters[i] }),
    messages: [],
  }));
}

function deleteOne(ctx: ZoneRequestContext): ApiResponse {
  const { rule } = mustGet(ctx, ctx.params.rule_id!);
  deleteRule(ctx.sql, rule.id);
  const messages = deleteFilterIfUnused(ctx) ? dropUnusedFilters(ctx.sql, [rule.filterId]) : [];
  return ok({ id: rule.id }, { messages });
}

/** `DELETE ...?id=A&id=B`: unknown ids are skipped (200, like the real API); the result lists what was deleted. */
function bulkDelete(ctx: ZoneRequestContext): ApiResponse {
  const ids = [...new Set(ctx.query.getAll('id'))];
  const bad = ids.filter((id) => !isId(id));
  if (bad.length > 0) {
    throw new ApiError(400, bad.map((id) => apiMessage('invalidQuery', `query parameter id must be a 32-character hex rule id, got ${JSON.stringify(id)}`, { pointer: '?id' })));
  }
  const option = deleteFilterIfUnused(ctx);
  const rules = ids.map((id) => getRule(ctx.sql, id)).filter((r): r is RuleWithFilter => r !== undefined);
  for (const { rule } of rules) deleteRule(ctx.sql, rule.id);
  const messages = option ? dropUnusedFilters(ctx.sql, rules.map((r) => r.rule.filterId)) : [];
  return ok(rules.map((r) => ({ id: r.rule.id })), { messages });
}

/** The `delete_filter_if_unused` option, from the JSON body or the query. */
function deleteFilterIfUnused(ctx: ZoneRequestContext): boolean {
  const fromQuery = booleanParam(ctx.query, DeleteFilterIfUnused);
  if (ctx.body === undefined) return fromQuery ?? false;
  const problems = new Problems();
  const r = new BodyReader(ctx.body, '', problems, 'an object like {"delete_filter_if_unused": true}');
  r.allowOnly([DeleteFilterIfUnused]);
  const fromBody = r.boolean(DeleteFilterIfUnused);
  problems.throwIfAny();
  return fromBody ?? fromQuery ?? false;
}

function mustGet(ctx: ZoneRequestContext, id: string, pointer?: string): RuleWithFilter {
  const found = getRule(ctx.sql, id);
  if (found === undefined) {
    throw ApiError.of('ruleNotFound', `firewall rule ${id} not found in zone ${ctx.zone.name}`, pointer !== undefined ? { pointer: `${pointer}/id` } : {});
  }
  return found;
}
