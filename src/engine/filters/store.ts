/**
 * The filters table of a zone and every SQL statement on it. Rows keep the expression as sent, its
 * canonical form (duplicates are refused) and whether it uses the plan-gated `matches`
 * operator, so entitlement checks never re-parse. `locked` marks filters created inline by the
 * simplified flow. Filters have no timestamps in the real API; the columns are kept for ordering
 * and debugging only.
 */
import type { FilterJson } from '../../api/index.js';
import { noteWrite, type ListSource } from '../list-view.js';
import { whereClause, type Sql, type SqlRow, type SqlValue } from '../sql.js';

/** DDL of the filters table (idempotent). */
export const filtersSchema = [
  `CREATE TABLE IF NOT EXISTS filters (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    id TEXT NOT NULL UNIQUE,
    expression TEXT NOT NULL,
    canonical TEXT NOT NULL,
    uses_matches INTEGER NOT NULL DEFAULT 0,
    paused INTEGER NOT NULL DEFAULT 0,
    description TEXT NOT NULL DEFAULT '',
    ref TEXT NOT NULL DEFAULT '',
    locked INTEGER NOT NULL DEFAULT 0,
    created_on TEXT NOT NULL,
    modified_on TEXT NOT NULL
  )`,
  // Not UNIQUE: a bulk update may swap two filters' expressions, which a per-row unique check
  // would refuse midway. Duplicates are refused by the handlers before writing.
  'CREATE INDEX IF NOT EXISTS filters_canonical ON filters (canonical)',
] as const;

/** A filter as stored. */
export interface FilterRecord {
  id: string;
  expression: string;
  canonical: string;
  usesMatches: boolean;
  paused: boolean;
  description: string;
  ref: string;
  locked: boolean;
}

export type { FilterJson };

/** The columns every filter query selects, in `rowToFilter`'s order. */
export const FILTER_COLUMNS = 'id, expression, canonical, uses_matches, paused, description, ref, locked';

/** Converts a selected row (optionally with a column prefix, for joins) to a record. */
export function rowToFilter(row: SqlRow, prefix = ''): FilterRecord {
  return {
    id: row[`${prefix}id`] as string,
    expression: row[`${prefix}expression`] as string,
    canonical: row[`${prefix}canonical`] as string,
    usesMatches: row[`${prefix}uses_matches`] === 1,
    paused: row[`${prefix}paused`] === 1,
    description: row[`${prefix}description`] as string,
    ref: row[`${prefix}ref`] as string,
    locked: row[`${prefix}locked`] === 1,
  };
}

/** The API shape of a filter. */
export function filterToJson(f: FilterRecord): FilterJson {
  // Key order as the real API prints it: id, paused, description, ref, expression.
  const out = { id: f.id, paused: f.paused } as FilterJson;
  if (f.description !== '') out.description = f.description;
  if (f.ref !== '') out.ref = f.ref;
  out.expression = f.expression;
  if (f.locked) out.locked = true;
  return out;
}

/** One filter by id. */
export function getFilter(sql: Sql, id: string): FilterRecord | undefined {
  const rows = sql.exec(`SELECT ${FILTER_COLUMNS} FROM filters WHERE id = ?`, id).toArray();
  return rows.length > 0 ? rowToFilter(rows[0]!) : undefined;
}

/** The filter whose canonical expression is `canonical`, if any. */
export function findByCanonical(sql: Sql, canonical: string): { id: string } | undefined {
  const rows = sql.exec<{ id: string }>('SELECT id FROM filters WHERE canonical = ?', canonical).toArray();
  return rows[0];
}

/** Inserts a filter. */
export function insertFilter(sql: Sql, f: FilterRecord, now: string): void {
  sql.exec(
    `INSERT INTO filters (id, expression, canonical, uses_matches, paused, description, ref, locked, created_on, modified_on)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    f.id, f.expression, f.canonical, f.usesMatches ? 1 : 0, f.paused ? 1 : 0, f.description, f.ref, f.locked ? 1 : 0, now, now,
  );
  noteWrite(sql, 'filters', f.id);
}

/** Replaces a filter's writable fields. */
export function updateFilter(sql: Sql, f: FilterRecord, now: string): void {
  sql.exec(
    `UPDATE filters SET expression = ?, canonical = ?, uses_matches = ?, paused = ?, description = ?, ref = ?, modified_on = ?
     WHERE id = ?`,
    f.expression, f.canonical, f.usesMatches ? 1 : 0, f.paused ? 1 : 0, f.description, f.ref, now, f.id,
  );
  noteWrite(sql, 'filters', f.id);
}

/** Deletes a filter by id. */
export function deleteFilter(sql: Sql, id: string): void {
  sql.exec('DELETE FROM filters WHERE id = ?', id);
  noteWrite(sql, 'filters', id);
}

/** Query filters of the list operation (api-facts.md §2). */
export interface FilterListQuery {
  paused?: boolean;
  /** Case-insensitive substring. */
  expression?: string;
  /** Case-insensitive substring. */
  description?: string;
  /** Exact. */
  ref?: string;
  /** Exact. */
  id?: string;
}

/** One page of filters in creation order, as API objects, and the total matching the query. */
export function listFilters(sql: Sql, q: FilterListQuery, limit: number, offset: number): { items: FilterJson[]; total: number } {
  const { clause, args } = whereClause([
    { column: 'paused', op: 'flag', value: q.paused },
    { column: 'expression', op: 'contains', value: q.expression },
    { column: 'description', op: 'contains', value: q.description },
    { column: 'ref', op: 'exact', value: q.ref },
    { column: 'id', op: 'exact', value: q.id },
  ]);
  const total = sql.exec<{ n: number }>(`SELECT count(*) AS n FROM filters ${clause}`, ...args).one().n;
  if (total <= offset) return { items: [], total };
  const rows = sql.exec(`${SELECT_LISTED} ${clause} ORDER BY seq LIMIT ? OFFSET ?`, ...args, limit, offset).raw().toArray();
  return { items: rows.map((row) => filterJsonAt(row, 0)), total };
}

/** The columns of a listed filter (`filterJsonAt`), then its `seq` (index 6). */
const SELECT_LISTED = 'SELECT id, paused, description, ref, expression, locked, seq FROM filters';

/**
 * The API object of a filter from the columns `id, paused, description, ref, expression, locked`
 * of `row`, from index `at` on (a rule's row joined to its filter has them after the rule's), like
 * `filterToJson`.
 */
export function filterJsonAt(row: SqlValue[], at: number): FilterJson {
  const id = row[at] as string;
  const paused = row[at + 1] === 1;
  const description = row[at + 2] as string;
  const ref = row[at + 3] as string;
  const expression = row[at + 4] as string;
  // One object literal per shape of a filter not locked (the lists keep thousands of them): every
  // field sits in the object itself, where fields added one by one would need a property array too.
  if (row[at + 5] !== 1) {
    if (description === '') return ref === '' ? { id, paused, expression } : { id, paused, ref, expression };
    return ref === '' ? { id, paused, description, expression } : { id, paused, description, ref, expression };
  }
  const out = { id, paused } as FilterJson;
  if (description !== '') out.description = description;
  if (ref !== '') out.ref = ref;
  out.expression = expression;
  out.locked = true;
  return out;
}

/** A filter of the in-memory list (`list-view.ts`), in creation order: its API object. */
export type FilterListEntry = Readonly<FilterJson>;

/** Frozen: in-process answers share it (`Engine.dispatch` copies only what is not frozen). */
const listEntry = (row: SqlValue[]): FilterListEntry => Object.freeze(filterJsonAt(row, 0));

/** The whole filter list in creation order, for the view that answers unfiltered list pages. */
export const filterListSource: ListSource<FilterListEntry> = {
  table: 'filters',
  all: (sql) => {
    const entries: FilterListEntry[] = [];
    const seqs: number[] = [];
    // Each entry made as its row is stepped: the row arrays die young instead of all living until the last.
    for (const row of sql.exec(`${SELECT_LISTED} ORDER BY seq`).raw()) {
      entries.push(listEntry(row));
      seqs.push(row[6] as number);
    }
    return { entries, seqs };
  },
  one: (sql, id) => {
    const rows = sql.exec(`${SELECT_LISTED} WHERE id = ?`, id).raw().toArray();
    return rows.length > 0 ? { entry: listEntry(rows[0]!), seq: rows[0]![6] as number } : undefined;
  },
  compare: (_a, aSeq, _b, bSeq) => aSeq - bSeq,
};
