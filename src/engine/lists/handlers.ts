/**
 * The Lists API under `/accounts/{account_id}/rules/lists` (security-phases.md §2; the official
 * client's `rules.lists`, `items`, `bulkOperations`): lists CRUD, items (cursor pages, search,
 * append, replace, delete) answered with a bulk operation, and the operation's status.
 */
import { ListErrors, ListItemPageLimits, ListKinds, ListPaths, ListQuotas, ListRules, ItemQuotaError, type ServedListKind } from '../../api/index.js';
import { ApiError } from '../api-errors.js';
import { BodyReader, Problems, requireObject } from '../body-reader.js';
import { ok } from '../envelope.js';
import { newId } from '../ids.js';
import type { ApiResponse } from '../types.js';
import type { AccountRequestContext, AccountRoute, ListReferenceInfo } from './context.js';
import { readItem, type ItemInput } from './items.js';
import { pollOperation, recordOperation, requireNoOperationInProgress } from './operations.js';
import {
  allLists, hasItemId, itemById, itemsPage, listById, listByName, listToJson, removeItemsById, removeItemsExcept, totalItems, touchList, upsertItems, type StoredList,
} from './store.js';

/** Routes of the Lists API (the operation route first: its static segment wins over `:list_id`). */
export const listRoutes: AccountRoute[] = [
  { method: 'GET', pattern: ListPaths.operation, handler: getOperation },
  { method: 'GET', pattern: ListPaths.collection, handler: listLists, references: true },
  { method: 'POST', pattern: ListPaths.collection, handler: createList },
  { method: 'GET', pattern: ListPaths.item, handler: getList, references: true },
  { method: 'PUT', pattern: ListPaths.item, handler: updateList, references: true },
  { method: 'DELETE', pattern: ListPaths.item, handler: deleteList, references: true },
  { method: 'GET', pattern: ListPaths.items, handler: listItems },
  { method: 'POST', pattern: ListPaths.items, handler: appendItems },
  { method: 'PUT', pattern: ListPaths.items, handler: replaceItems },
  { method: 'DELETE', pattern: ListPaths.items, handler: deleteItems },
  { method: 'GET', pattern: ListPaths.listItem, handler: getItem },
];

const NamePattern = new RegExp(ListRules.namePattern);

/** The rules that reference list `name` (a rule naming it twice, or in two expressions, once). */
function rulesReferencing(ctx: AccountRequestContext, name: string): ListReferenceInfo[] {
  const seen = new Set<string>();
  return ctx.references.filter((r) => {
    const key = `${r.zone_id}\u0000${r.rule}`;
    if (r.list !== name || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function referencesTo(ctx: AccountRequestContext, name: string): number {
  return rulesReferencing(ctx, name).length;
}

function mustList(ctx: AccountRequestContext): StoredList {
  const list = listById(ctx.sql, ctx.params.list_id!);
  if (list === undefined) throw ApiError.from(ListErrors.listNotFound, `list ${ctx.params.list_id} not found in account ${ctx.account.id}`);
  return list;
}

function noQuery(ctx: AccountRequestContext, allowed: readonly string[] = []): void {
  for (const key of ctx.query.keys()) {
    if (!allowed.includes(key)) throw ApiError.of('invalidQuery', `unknown query parameter ${JSON.stringify(key)}${allowed.length > 0 ? ` (allowed: ${allowed.join(', ')})` : ''}`, { pointer: `?${key}` });
  }
}

function listLists(ctx: AccountRequestContext): ApiResponse {
  noQuery(ctx);
  return ok(allLists(ctx.sql).map((l) => listToJson(l, referencesTo(ctx, l.name))));
}

function getList(ctx: AccountRequestContext): ApiResponse {
  noQuery(ctx);
  const list = mustList(ctx);
  return ok(listToJson(list, referencesTo(ctx, list.name)));
}

function createList(ctx: AccountRequestContext): ApiResponse {
  noQuery(ctx);
  const problems = new Problems();
  const r = new BodyReader(requireObject(ctx.body, 'the list to create, {"name": …, "kind": …, "description"?: …}'), '', problems);
  r.allowOnly(['name', 'kind', 'description']);
  const name = r.string('name', { required: true, nonEmpty: true, maxLength: ListRules.nameMaxLength });
  if (name !== undefined && !NamePattern.test(name)) problems.add('/name', `name ${JSON.stringify(name)} must match ${ListRules.namePattern} (lowercase letters, digits and _)`);
  const kind = r.oneOf('kind', ListKinds, { required: true });
  const description = r.string('description', { maxLength: ListRules.descriptionMaxLength });
  problems.throwIfAny();
  if (kind === 'redirect') throw ApiError.from(ListErrors.kindNotServed, 'redirect lists (Bulk Redirects) are not served by the zonewall engine; it serves ip, hostname and asn lists', { pointer: '/kind' });
  const served = kind as ServedListKind;
  const quota = ListQuotas[ctx.account.plan];
  if (served !== 'ip' && !quota.hostnameAndAsn) {
    throw ApiError.from(ListErrors.listKindUnavailable, `${served} lists need the enterprise plan; account ${ctx.account.name} is on ${ctx.account.plan}`, { pointer: '/kind' });
  }
  if (listByName(ctx.sql, name!) !== undefined) throw ApiError.from(ListErrors.listExists, `a list named ${name} already exists in the account`, { pointer: '/name' });
  const count = allLists(ctx.sql).length;
  if (count >= quota.lists) {
    throw ApiError.from(ListErrors.listQuota, `the account's ${ctx.account.plan} plan allows ${quota.lists} list${quota.lists === 1 ? '' : 's'} and it has ${count}; delete one first`);
  }
  const id = newId();
  ctx.sql.exec('INSERT INTO lists (id, name, kind, description, created_on, modified_on) VALUES (?, ?, ?, ?, ?, ?)', id, name!, served, description ?? '', ctx.now, ctx.now);
  return ok(listToJson(listById(ctx.sql, id)!, 0));
}

function updateList(ctx: AccountRequestContext): ApiResponse {
  noQuery(ctx);
  const list = mustList(ctx);
  const problems = new Problems();
  const r = new BodyReader(requireObject(ctx.body, 'the list\'s new description, {"description": …}'), '', problems);
  r.allowOnly(['description', 'name', 'kind']);
  const description = r.string('description', { maxLength: ListRules.descriptionMaxLength });
  // `name` and `kind` may be sent back unchanged (as a GET has them), never changed.
  for (const key of ['name', 'kind'] as const) {
    if (r.has(key) && r.raw(key) !== list[key]) {
      throw ApiError.from(ListErrors.immutableField, `${key} of a list cannot change (it is ${JSON.stringify(list[key])}); create a new list instead`, { pointer: `/${key}` });
    }
  }
  problems.throwIfAny();
  if (description !== undefined && description !== list.description) {
    ctx.sql.exec('UPDATE lists SET description = ?, modified_on = ? WHERE id = ?', description, ctx.now, list.id);
  }
  return ok(listToJson(listById(ctx.sql, list.id)!, referencesTo(ctx, list.name)));
}

function deleteList(ctx: AccountRequestContext): ApiResponse {
  noQuery(ctx);
  const list = mustList(ctx);
  const refs = rulesReferencing(ctx, list.name);
  if (refs.length > 0) {
    const named = refs.slice(0, 5).map((r) => `${r.rule} in zone ${r.zone_name}`).join('; ');
    throw ApiError.from(ListErrors.listInUse, `list ${list.name} is referenced by ${refs.length} rule${refs.length === 1 ? '' : 's'} (${named}${refs.length > 5 ? '; …' : ''}); remove the references first`, { meta: { references: refs } });
  }
  ctx.sql.exec('DELETE FROM list_items WHERE list_id = ?', list.id);
  ctx.sql.exec('DELETE FROM lists WHERE id = ?', list.id);
  return ok({ id: list.id });
}

function listItems(ctx: AccountRequestContext): ApiResponse {
  noQuery(ctx, ['cursor', 'per_page', 'search']);
  const list = mustList(ctx);
  const perPageText = ctx.query.get('per_page');
  const perPage = perPageText === null || perPageText === '' ? ListItemPageLimits.defaultPerPage : /^\d+$/.test(perPageText) ? Number(perPageText) : Number.NaN;
  if (!(perPage >= ListItemPageLimits.minPerPage && perPage <= ListItemPageLimits.maxPerPage)) {
    throw ApiError.of('invalidQuery', `query parameter per_page must be an integer from ${ListItemPageLimits.minPerPage} to ${ListItemPageLimits.maxPerPage}, got ${JSON.stringify(perPageText)}`, { pointer: '?per_page' });
  }
  const cursor = ctx.query.get('cursor');
  const after = cursor === null || cursor === '' ? undefined : decodeCursor(cursor);
  const page = itemsPage(ctx.sql, list, after, perPage, ctx.query.get('search') ?? undefined);
  const cursors: { after?: string } = {};
  if (page.more && page.last !== undefined) cursors.after = Buffer.from(page.last, 'utf8').toString('base64url');
  return { status: 200, body: { result: page.items, success: true, errors: [], messages: [], result_info: { cursors } as never } };
}

function decodeCursor(cursor: string): string {
  if (!/^[A-Za-z0-9_-]+$/.test(cursor)) throw ApiError.of('invalidQuery', `query parameter cursor ${JSON.stringify(cursor)} is not a cursor this API gave`, { pointer: '?cursor' });
  return Buffer.from(cursor, 'base64url').toString('utf8');
}

function getItem(ctx: AccountRequestContext): ApiResponse {
  noQuery(ctx);
  const list = mustList(ctx);
  const item = itemById(ctx.sql, list.id, ctx.params.item_id!);
  if (item === undefined) throw ApiError.from(ListErrors.itemNotFound, `item ${ctx.params.item_id} not found in list ${list.name}`);
  return ok(item);
}

/**
 * Reads a write body's items: every problem found, each with its pointer; duplicates refused. Item
 * writes read their body before they look at the account's pending operations: a malformed body is
 * 400 whatever the state (the 429 of a pending operation is for a write that could otherwise apply).
 */
function readItems(ctx: AccountRequestContext, list: StoredList, allowEmpty: boolean): ItemInput[] {
  if (!Array.isArray(ctx.body)) throw ApiError.of('invalidField', 'the request body must be a JSON array of items', { pointer: '/' });
  if (ctx.body.length === 0 && !allowEmpty) throw ApiError.of('invalidField', 'the request body is an empty array; send at least one item', { pointer: '/' });
  const problems = new Problems();
  const items: ItemInput[] = [];
  const seen = new Map<string, number>();
  ctx.body.forEach((raw, i) => {
    const item = readItem(raw, `/${i}`, list.kind, problems);
    if (item === undefined) return;
    const first = seen.get(item.key);
    if (first !== undefined) problems.add(`/${i}`, `item ${i} repeats item ${first} (the same value once normalised)`);
    else { seen.set(item.key, i); items.push(item); }
  });
  if (problems.list.length > 0) throw new ApiError(400, problems.list.map((p) => ({ ...p, code: ListErrors.invalidItem.code })));
  return items;
}

/** Records the operation of a write; `apply` runs unless the account's item quota would be exceeded. */
function itemWrite(ctx: AccountRequestContext, list: StoredList, newTotalOf: () => number, apply: () => void): ApiResponse {
  const quota = ListQuotas[ctx.account.plan].items;
  const total = newTotalOf();
  let error: string | undefined;
  if (total > quota) error = `${ItemQuotaError}: the account's ${ctx.account.plan} plan allows ${quota} items across all lists, and this write would make ${total}`;
  else {
    apply();
    touchList(ctx.sql, list.id, ctx.now);
  }
  const operationId = recordOperation(ctx.sql, list.id, error === undefined ? {} : { error }, ctx.now, ctx.operationPolls);
  return ok({ operation_id: operationId });
}

function appendItems(ctx: AccountRequestContext): ApiResponse {
  noQuery(ctx);
  const list = mustList(ctx);
  const items = readItems(ctx, list, false);
  requireNoOperationInProgress(ctx.sql);
  const fresh = () => items.filter((i) => ctx.sql.exec('SELECT 1 FROM list_items WHERE list_id = ? AND key = ?', list.id, i.key).toArray().length === 0).length;
  return itemWrite(ctx, list, () => totalItems(ctx.sql) + fresh(), () => upsertItems(ctx.sql, list.id, items, ctx.now));
}

function replaceItems(ctx: AccountRequestContext): ApiResponse {
  noQuery(ctx);
  const list = mustList(ctx);
  const items = readItems(ctx, list, true);
  requireNoOperationInProgress(ctx.sql);
  return itemWrite(ctx, list, () => totalItems(ctx.sql) - list.num_items + items.length, () => {
    removeItemsExcept(ctx.sql, list.id, new Set(items.map((i) => i.key)));
    upsertItems(ctx.sql, list.id, items, ctx.now);
  });
}

function deleteItems(ctx: AccountRequestContext): ApiResponse {
  noQuery(ctx);
  const list = mustList(ctx);
  const problems = new Problems();
  const r = new BodyReader(requireObject(ctx.body, 'the items to delete, {"items": [{"id": …}]}'), '', problems);
  r.allowOnly(['items']);
  const raw = r.raw('items');
  const ids: string[] = [];
  const places = new Map<string, number>();
  if (!Array.isArray(raw) || raw.length === 0) problems.add('/items', 'items must be a non-empty array of {"id": …}');
  else {
    raw.forEach((item, i) => {
      const ir = new BodyReader(item, `/items/${i}`, problems, 'an object {"id": …}');
      ir.allowOnly(['id']);
      const id = ir.string('id', { required: true, nonEmpty: true, maxLength: 64 });
      // The same id twice is refused as a value twice in an append or replace is.
      const first = id === undefined ? undefined : places.get(id);
      if (first !== undefined) problems.add(`/items/${i}/id`, `item id ${id} is listed twice (also at /items/${first}/id); list each id once`);
      else if (id !== undefined) { places.set(id, i); ids.push(id); }
    });
  }
  problems.throwIfAny();
  requireNoOperationInProgress(ctx.sql);
  // An id the list does not have is ignored: a delete retried after a lost answer is then safe.
  const present = ids.filter((id) => hasItemId(ctx.sql, list.id, id));
  return itemWrite(ctx, list, () => totalItems(ctx.sql) - present.length, () => removeItemsById(ctx.sql, list.id, present));
}

function getOperation(ctx: AccountRequestContext): ApiResponse {
  noQuery(ctx);
  return ok(pollOperation(ctx.sql, ctx.params.operation_id!));
}

