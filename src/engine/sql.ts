/**
 * The SQL API the engine's handlers use: `ctx.storage.sql` of seed 001, re-exported under short
 * names so resource modules import it from one engine file.
 */
import type { SqlRow as StorageSqlRow, SqlStorage, SqlStorageValue } from '../storage/index.js';

/** `ctx.storage.sql`: `exec(query, ...bindings)` returning a cursor. */
export type Sql = SqlStorage;

/** A row as an object of column values. */
export type SqlRow = StorageSqlRow;

/** A value SQLite stores and returns. */
export type SqlValue = SqlStorageValue;

/** One condition of a list operation's query filters: how the column compares, and the value. */
export type ListCondition =
  | { column: string; op: 'exact'; value: string | undefined }
  | { column: string; op: 'contains'; value: string | undefined }
  | { column: string; op: 'flag'; value: boolean | undefined };

/**
 * The WHERE clause and bindings of a list operation's query filters (the real API's: exact,
 * case-insensitive substring, boolean); conditions whose value is absent are left out.
 */
export function whereClause(conditions: readonly ListCondition[]): { clause: string; args: unknown[] } {
  const where: string[] = [];
  const args: unknown[] = [];
  for (const c of conditions) {
    if (c.value === undefined) continue;
    if (c.op === 'contains') where.push(`instr(lower(${c.column}), lower(?)) > 0`);
    else where.push(`${c.column} = ?`);
    args.push(c.op === 'flag' ? (c.value ? 1 : 0) : c.value);
  }
  return { clause: where.length > 0 ? `WHERE ${where.join(' AND ')}` : '', args };
}
