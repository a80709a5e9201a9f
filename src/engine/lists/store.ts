/**
 * An account's lists in SQL (the account object's tables): the lists, their items (one row per
 * normalised value, keyed by the sort key so a page is one index range), and the bulk operations
 * of item writes. Item values are stored as the API shows them (JSON).
 */
import type { ListItemJson, ListJson, ServedListKind } from '../../api/index.js';
import { newId } from '../ids.js';
import type { Sql } from '../sql.js';
import { valueJson, valueText, type ItemInput, type ItemValue } from './items.js';

/** DDL of the account object (idempotent). */
export const listsSchema: readonly string[] = [
  `CREATE TABLE IF NOT EXISTS lists (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL UNIQUE,
    kind TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    num_items INTEGER NOT NULL DEFAULT 0,
    created_on TEXT NOT NULL,
    modified_on TEXT NOT NULL
  )`,
  `CREATE TABLE IF NOT EXISTS list_items (
    list_id TEXT NOT NULL,
    key TEXT NOT NULL,
    id TEXT NOT NULL,
    value TEXT NOT NULL,
    text TEXT NOT NULL,
    comment TEXT,
    created_on TEXT NOT NULL,
    modified_on TEXT NOT NULL,
    PRIMARY KEY (list_id, key)
  ) WITHOUT ROWID`,
  'CREATE UNIQUE INDEX IF NOT EXISTS list_items_by_id ON list_items (list_id, id)',
  `CREATE TABLE IF NOT EXISTS list_operations (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    list_id TEXT NOT NULL,
    status TEXT NOT NULL,
    error TEXT,
    completed TEXT NOT NULL,
    polls_left INTEGER NOT NULL,
    polls_total INTEGER NOT NULL
  )`,
];

/** A list row. */
export type StoredList = {
  id: string;
  name: string;
  kind: ServedListKind;
  description: string;
  num_items: number;
  created_on: string;
  modified_on: string;
};

/** Every list of the account, in creation order. */
export function allLists(sql: Sql): StoredList[] {
  return sql.exec<StoredList & { seq: number }>('SELECT id, name, kind, description, num_items, created_on, modified_on FROM lists ORDER BY seq').toArray();
}

/** A list by id, or undefined. */
export function listById(sql: Sql, id: string): StoredList | undefined {
  return sql.exec<StoredList>('SELECT id, name, kind, description, num_items, created_on, modified_on FROM lists WHERE id = ?', id).toArray()[0];
}

/** A list by name, or undefined. */
export function listByName(sql: Sql, name: string): StoredList | undefined {
  return sql.exec<StoredList>('SELECT id, name, kind, description, num_items, created_on, modified_on FROM lists WHERE name = ?', name).toArray()[0];
}

/** The API shape of a list; `references` is `num_referencing_filters`. */
export function listToJson(list: StoredList, references: number): ListJson {
  const json: ListJson = { id: list.id, name: list.name, kind: list.kind, num_items: list.num_items, num_referencing_filters: references, created_on: list.created_on, modified_on: list.modified_on };
  if (list.description !== '') json.description = list.description;
  return json;
}

/** Items of all of the account's lists. */
export function totalItems(sql: Sql): number {
  return Number(sql.exec<{ n: number | null }>('SELECT SUM(num_items) AS n FROM lists').one().n ?? 0);
}

type ItemRow = { id: string; key: string; value: string; comment: string | null; created_on: string; modified_on: string };

function itemToJson(row: ItemRow): ListItemJson {
  const json = { id: row.id, ...(JSON.parse(row.value) as object), created_on: row.created_on, modified_on: row.modified_on } as ListItemJson;
  if (row.comment !== null && row.comment !== '') json.comment = row.comment;
  return json;
}

/**
 * One page of a list's items, ascending, after the key `after`; `search` filters by the kind's
 * rule (IP: starts with, hostname: contains, ASN: equals). One more row than the page is read to
 * know whether another page follows.
 */
export function itemsPage(sql: Sql, list: StoredList, after: string | undefined, perPage: number, search: string | undefined): { items: ListItemJson[]; last: string | undefined; more: boolean } {
  const where = ['list_id = ?'];
  const args: unknown[] = [list.id];
  if (after !== undefined) { where.push('key > ?'); args.push(after); }
  if (search !== undefined && search !== '') {
    if (list.kind === 'ip') { where.push('substr(text, 1, length(?)) = ?'); args.push(search.toLowerCase(), search.toLowerCase()); }
    else if (list.kind === 'asn') { where.push('text = ?'); args.push(search); }
    else { where.push('instr(text, ?) > 0'); args.push(search.toLowerCase()); }
  }
  const rows = sql.exec<ItemRow>(`SELECT id, key, value, comment, created_on, modified_on FROM list_items WHERE ${where.join(' AND ')} ORDER BY key LIMIT ?`, ...args, perPage + 1).toArray();
  const more = rows.length > perPage;
  const page = more ? rows.slice(0, perPage) : rows;
  return { items: page.map(itemToJson), last: page[page.length - 1]?.key, more };
}

/** One item by id, or undefined. */
export function itemById(sql: Sql, listId: string, itemId: string): ListItemJson | undefined {
  const row = sql.exec<ItemRow>('SELECT id, key, value, comment, created_on, modified_on FROM list_items WHERE list_id = ? AND id = ?', listId, itemId).toArray()[0];
  return row === undefined ? undefined : itemToJson(row);
}

/** Whether the list has an item of this id. */
export function hasItemId(sql: Sql, listId: string, itemId: string): boolean {
  return sql.exec('SELECT 1 FROM list_items WHERE list_id = ? AND id = ?', listId, itemId).toArray().length > 0;
}

/**
 * Adds the items (an existing value keeps its id and creation time; its comment is overwritten);
 * answers how many rows are new.
 */
export function upsertItems(sql: Sql, listId: string, items: readonly ItemInput[], now: string): number {
  let added = 0;
  for (const item of items) {
    const existing = sql.exec<{ id: string }>('SELECT id FROM list_items WHERE list_id = ? AND key = ?', listId, item.key).toArray()[0];
    if (existing !== undefined) {
      sql.exec('UPDATE list_items SET value = ?, comment = ?, modified_on = ? WHERE list_id = ? AND key = ?', JSON.stringify(valueJson(item.value)), item.comment ?? null, now, listId, item.key);
    } else {
      sql.exec('INSERT INTO list_items (list_id, key, id, value, text, comment, created_on, modified_on) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        listId, item.key, newId(), JSON.stringify(valueJson(item.value)), valueText(item.value), item.comment ?? null, now, now);
      added++;
    }
  }
  return added;
}

/** Removes every item whose key is not in `keep`. */
export function removeItemsExcept(sql: Sql, listId: string, keep: ReadonlySet<string>): void {
  const keys = sql.exec<{ key: string }>('SELECT key FROM list_items WHERE list_id = ?', listId).toArray();
  for (const { key } of keys) if (!keep.has(key)) sql.exec('DELETE FROM list_items WHERE list_id = ? AND key = ?', listId, key);
}

/** Removes the items of these ids (ids not in the list are ignored: a retried delete is safe). */
export function removeItemsById(sql: Sql, listId: string, ids: readonly string[]): void {
  for (const id of ids) sql.exec('DELETE FROM list_items WHERE list_id = ? AND id = ?', listId, id);
}

/** Brings `num_items` and `modified_on` up to date after an item write. */
export function touchList(sql: Sql, listId: string, now: string): void {
  sql.exec('UPDATE lists SET num_items = (SELECT COUNT(*) FROM list_items WHERE list_id = ?), modified_on = ? WHERE id = ?', listId, now, listId);
}

/** The values of a list's items, ascending (the trace's and the catalog's view). */
export function listValues(sql: Sql, listId: string): ItemValue[] {
  return sql.exec<{ value: string }>('SELECT value FROM list_items WHERE list_id = ? ORDER BY key', listId).toArray().map((r) => {
    const v = JSON.parse(r.value) as Record<string, unknown>;
    if ('ip' in v) return { kind: 'ip', ip: v.ip as string };
    if ('asn' in v) return { kind: 'asn', asn: v.asn as number };
    return { kind: 'hostname', hostname: v.hostname as ItemValue & { kind: 'hostname' } extends { hostname: infer H } ? H : never };
  });
}
