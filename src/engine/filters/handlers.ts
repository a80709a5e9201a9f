/**
 * The filters API of a zone (api-facts.md §2): list, get, create (array), update one, bulk update,
 * delete one, bulk delete. Writes are all-or-nothing (the request's transaction). Filters created
 * inline by the simplified flow are locked: PUT and DELETE refuse them (10104); only a rule delete
 * with `delete_filter_if_unused` removes one (see `../firewall-rules/cleanup.ts`).
 */
import { FilterPaths } from '../../api/index.js';
import { ApiError, apiMessage } from '../api-errors.js';
import { Problems, requireArray } from '../body-reader.js';
import type { ZoneRequestContext, ZoneRoute } from '../context.js';
import { booleanParam, ok, page, parsePageRequest } from '../envelope.js';
import { featureUnavailable, filterFieldProblems } from '../firewall-rules/entitlements.js';
import { rulesUsingFilter } from '../firewall-rules/store.js';
import { isId, newId } from '../ids.js';
import type { ApiMessage, ApiResponse } from '../types.js';
import { listView } from '../list-view.js';
import { deleteFilter, filterListSource, filterToJson, getFilter, insertFilter, listFilters, updateFilter, type FilterRecord } from './store.js';
import { duplicateProblems, readFilter, type FilterInput } from './validate.js';

const BASE = FilterPaths.collection;

/** Routes of the filters API. */
export const filterRoutes: ZoneRoute[] = [
  { method: 'GET', pattern: BASE, handler: list, cacheable: true },
  { method: 'POST', pattern: BASE, handler: create },
  { method: 'PUT', pattern: BASE, handler: bulkUpdate },
  { method: 'DELETE', pattern: BASE, handler: bulkDelete },
  { method: 'GET', pattern: FilterPaths.item, handler: getOne, cacheable: true },
  { method: 'PUT', pattern: FilterPaths.item, handler: updateOne },
  { method: 'DELETE', pattern: FilterPaths.item, handler: deleteOne },
];

function list(ctx: ZoneRequestContext): ApiResponse {
  const q = ctx.query;
  const request = parsePageRequest(q);
  const id = q.get('id') ?? undefined;
  if (id !== undefined && id.length > 32) throw ApiError.of('invalidQuery', 'query parameter id must be at most 32 characters', { pointer: '?id' });
  const query = {
    paused: booleanParam(q, 'paused'),
    expression: q.get('expression') ?? undefined,
    description: q.get('description') ?? undefined,
    ref: q.get('ref') ?? undefined,
    id,
  };
  // The whole list (what a plan pages through) comes from the zone object's in-memory copy.
  if (Object.values(query).every((v) => v === undefined)) return listView(ctx.sql, filterListSource).page(ctx.sql, request);
  const { items, total } = listFilters(ctx.sql, query, request.perPage, request.offset);
  return page(items, request, total);
}

function getOne(ctx: ZoneRequestContext): ApiResponse {
  return ok(filterToJson(mustGet(ctx, ctx.params.filter_id!)));
}

function create(ctx: ZoneRequestContext): ApiResponse {
  const items = requireArray(ctx.body, 'filter objects');
  const problems = new Problems();
  const inputs = items.map((item, i) => readFilter(item, `/${i}`, problems, 'create')?.input);
  problems.throwIfAny();
  const valid = inputs as FilterInput[];
  refuseIfAny(400, duplicateProblems(ctx.sql, valid));
  refuseIfAny(400, gatedFilterFieldProblems(ctx, valid));
  const created = valid.map((input) => {
    const record = toRecord(newId(), input, false);
    insertFilter(ctx.sql, record, ctx.now);
    return filterToJson(record);
  });
  return ok(created);
}

function updateOne(ctx: ZoneRequestContext): ApiResponse {
  const id = ctx.params.filter_id!;
  const problems = new Problems();
  const read = readFilter(ctx.body, '', problems, 'update');
  if (read?.id !== undefined && read.id !== id) problems.add('/id', `id ${read.id} does not match the filter in the path (${id})`);
  problems.throwIfAny();
  return ok(applyUpdates(ctx, [{ id, input: read!.input }])[0]);
}

function bulkUpdate(ctx: ZoneRequestContext): ApiResponse {
  const items = requireArray(ctx.body, 'filter objects, each with its id');
  const problems = new Problems();
  const updates: { id: string; input: FilterInput }[] = [];
  items.forEach((item, i) => {
    const read = readFilter(item, `/${i}`, problems, 'update');
    if (read !== undefined && read.id === undefined) problems.add(`/${i}/id`, 'id is required in a bulk update');
    else if (read?.id !== undefined) {
      if (updates.some((u) => u.id === read.id)) problems.add(`/${i}/id`, `filter ${read.id} is listed twice`);
      updates.push({ id: read.id, input: read.input });
    }
  });
  problems.throwIfAny();
  return ok(applyUpdates(ctx, updates));
}

/** The plan-gated fields the filters use that the zone's plan lacks (10201 each). */
export function gatedFilterFieldProblems(ctx: ZoneRequestContext, inputs: readonly FilterInput[]): ApiMessage[] {
  return inputs.flatMap((input) => filterFieldProblems(ctx, input.checked.fields, `${input.pointer}/expression`));
}

/** Checks then writes a batch of updates; any refusal refuses the whole batch. */
function applyUpdates(ctx: ZoneRequestContext, updates: { id: string; input: FilterInput }[]): unknown[] {
  const current = updates.map((u) => mustGet(ctx, u.id, u.input.pointer));
  refuseIfAny(400, current.flatMap((f, i) => (f.locked ? [lockedError(f.id, 'updated', updates[i]!.input.pointer || undefined)] : [])));
  refuseIfAny(400, duplicateProblems(ctx.sql, updates.map((u) => u.input), new Set(updates.map((u) => u.id))));
  refuseIfAny(400, gatedFilterFieldProblems(ctx, updates.map((u) => u.input)));
  // A filter that rules use may not start using a feature those rules are not entitled to.
  const gated = updates.filter((u) => u.input.checked.usesMatches && !ctx.limits.matches && rulesUsingFilter(ctx.sql, u.id).length > 0);
  refuseIfAny(400, gated.map((u) => featureUnavailable(ctx, 'matches', `${u.input.pointer}/expression`)));
  return updates.map((u) => {
    const record = toRecord(u.id, u.input, false);
    updateFilter(ctx.sql, record, ctx.now);
    return filterToJson(record);
  });
}

function deleteOne(ctx: ZoneRequestContext): ApiResponse {
  const filter = mustGet(ctx, ctx.params.filter_id!);
  refuseIfAny(400, deletionProblems(ctx, [filter]));
  deleteFilter(ctx.sql, filter.id);
  return ok({ id: filter.id });
}

/** `DELETE ...?id=A&id=B`: unknown ids are skipped (200, like the real API); the result lists what was deleted. */
function bulkDelete(ctx: ZoneRequestContext): ApiResponse {
  if (ctx.body !== undefined) throw ApiError.of('invalidField', 'bulk delete takes the filter ids in the query (?id=A&id=B), not in a body', { pointer: '/' });
  const ids = [...new Set(ctx.query.getAll('id'))];
  const bad = ids.filter((id) => !isId(id));
  refuseIfAny(400, bad.map((id) => apiMessage('invalidQuery', `query parameter id must be a 32-character hex filter id, got ${JSON.stringify(id)}`, { pointer: '?id' })));
  const filters = ids.map((id) => getFilter(ctx.sql, id)).filter((f): f is FilterRecord => f !== undefined);
  refuseIfAny(400, deletionProblems(ctx, filters));
  for (const f of filters) deleteFilter(ctx.sql, f.id);
  return ok(filters.map((f) => ({ id: f.id })));
}

/** Locked filters and filters still used by rules cannot be deleted. */
function deletionProblems(ctx: ZoneRequestContext, filters: FilterRecord[]): ApiMessage[] {
  return filters.flatMap((f) => {
    if (f.locked) return [lockedError(f.id, 'deleted')];
    const rules = rulesUsingFilter(ctx.sql, f.id);
    if (rules.length === 0) return [];
    return [apiMessage('filterInUse',
      `filter ${f.id} is used by firewall rule${rules.length > 1 ? 's' : ''} ${rules.join(', ')}; delete those rules or point them at another filter first (deletions run rules first, then filters)`,
      { meta: { id: f.id, firewall_rules: rules } })];
  });
}

function lockedError(id: string, verb: 'updated' | 'deleted', pointer?: string): ApiMessage {
  return apiMessage('filterLocked',
    `filter ${id} was created inline with a firewall rule (simplified flow) and cannot be ${verb} through the filters API; ` +
      'create a new filter and point the rule at it, or delete the rules that use it with {"delete_filter_if_unused": true}',
    { meta: { id }, ...(pointer !== undefined ? { pointer } : {}) });
}

function mustGet(ctx: ZoneRequestContext, id: string, pointer?: string): FilterRecord {
  const filter = getFilter(ctx.sql, id);
  if (filter === undefined) {
    throw ApiError.of('filterNotFound', `filter ${id} not found in zone ${ctx.zone.name}`, pointer !== undefined ? { pointer: `${pointer}/id` } : {});
  }
  return filter;
}

function refuseIfAny(status: number, errors: ApiMessage[]): void {
  if (errors.length > 0) throw new ApiError(status, errors);
}

/** A stored filter from a valid body. */
export function toRecord(id: string, input: FilterInput, locked: boolean): FilterRecord {
  return {
    id,
    expression: input.expression,
    canonical: input.checked.canonical,
    usesMatches: input.checked.usesMatches,
    paused: input.paused,
    description: input.description,
    ref: input.ref,
    locked,
  };
}
