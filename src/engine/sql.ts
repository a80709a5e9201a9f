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
