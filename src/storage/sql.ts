/**
 * `ctx.storage.sql` (SQLite backend): `exec(query, ...bindings)` and `databaseSize`. A query string is
 * split and authorized once per process (`sql-parse.ts`) and each statement is prepared once per
 * session; both are cached per SQL string (LRU, like the reference's 1 MiB statement cache). Statements run eagerly at
 * `exec()` time and to completion: better-sqlite3 refuses any write on a connection while a read
 * iterator is open, so a lazily streamed cursor would block the object's other writes. Writes join
 * the implicit transaction and are always confirmed, as in the reference.
 *
 * Bindings follow the reference's conversions: `undefined`/`null` are NULL, numbers bind as REAL,
 * booleans as the strings "true"/"false", ArrayBuffer and views as BLOBs, other objects as their
 * string form, and BigInt is a `TypeError`.
 */
import type Database from 'better-sqlite3';
import { notSqliteBackend, SqlError, StorageTypeError } from './errors.js';
import { SqlStorageCursor, type SqlStorageValue } from './cursor.js';
import { parseQuery, type ParsedStatement } from './sql-parse.js';
import type { StorageSession } from './session.js';

/** Total SQL text the statement caches may hold, in UTF-16 units (reference: 1 MiB). */
const CACHE_MAX_CHARS = 1024 * 1024;

/** A small LRU map bounded by the total length of its string keys. */
class TextLru<V> {
  readonly #map = new Map<string, V>();
  #chars = 0;

  get(key: string): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  set(key: string, value: V): void {
    if (this.#map.has(key)) return;
    this.#map.set(key, value);
    this.#chars += key.length;
    for (const old of this.#map.keys()) {
      if (this.#chars <= CACHE_MAX_CHARS) break;
      this.#map.delete(old);
      this.#chars -= old.length;
    }
  }
}

/**
 * Split and authorized query strings, shared by every session of the process: `parseQuery` is a
 * pure function of the text, and each object of a namespace runs the same schema and queries, so a
 * run over many objects parses each text once, not once per object.
 */
const parsedQueries = new TextLru<ParsedStatement[]>();

/** A binding as better-sqlite3 accepts it. */
type Binding = string | number | Buffer | null;

function toBinding(value: unknown): Binding {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'number':
      return value;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new StorageTypeError('Cannot convert a BigInt value to a number');
    case 'symbol':
      throw new StorageTypeError('Cannot convert a Symbol value to a string');
    default:
      break;
  }
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return String(value);
}

/** Formats a better-sqlite3 error the way the reference does: `message: SQLITE_X (extended: ...)`. */
export function sqlError(err: unknown): Error {
  if (err instanceof SqlError || !(err instanceof Error)) return err as Error;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) {
    const primary = code.split('_').slice(0, 2).join('_');
    const extended = primary === code ? '' : ` (extended: ${code})`;
    return new SqlError(`${err.message}: ${primary}${extended}`, code, { cause: err });
  }
  if (err instanceof RangeError && /parameter/.test(err.message)) {
    return new SqlError('Wrong number of parameter bindings for SQL query.', 'SQLITE_RANGE', { cause: err });
  }
  return err;
}

/** The SQL API of one session (`ctx.storage.sql`). */
export class SqlStorage {
  readonly #session: StorageSession | null;
  readonly #statements = new TextLru<Database.Statement>();
  #totalChanges: Database.Statement | null = null;
  #sizeStatement: Database.Statement | null = null;
  #lastTotal = 0;
  #lastWriteSeq = -2;

  /** @internal built by the storage; `null` on the `kv` backend, where every call throws. */
  constructor(session: StorageSession | null) {
    this.#session = session;
  }

  /**
   * Runs `query` (one or more `;`-separated statements; bindings apply to the last) and returns a
   * cursor over the last statement's rows.
   * @example
   * const { n } = ctx.storage.sql.exec<{ n: number }>('SELECT count(*) AS n FROM rules WHERE zone = ?', zone).one();
   */
  exec<T extends Record<string, SqlStorageValue> = Record<string, SqlStorageValue>>(
    query: string,
    ...bindings: unknown[]
  ): SqlStorageCursor<T> {
    const session = this.#usable('sql.exec()');
    if (typeof query !== 'string') throw new StorageTypeError('sql.exec() query must be a string.');
    const values = bindings.map(toBinding);
    let plan = parsedQueries.get(query);
    if (plan === undefined) {
      plan = parseQuery(query);
      parsedQueries.set(query, plan);
    }
    try {
      for (let i = 0; i < plan.length - 1; i++) this.#run(session, (plan[i] as ParsedStatement).sql, []);
      return this.#run(session, (plan[plan.length - 1] as ParsedStatement).sql, values) as SqlStorageCursor<T>;
    } catch (err) {
      session.checkStatementError(err);
      throw sqlError(err);
    }
  }

  /** Bytes in use by the database: (page_count - freelist_count) * page_size. */
  get databaseSize(): number {
    const session = this.#usable('sql.databaseSize');
    this.#sizeStatement ??= session.db.prepare(
      'SELECT (p.page_count - f.freelist_count) * s.page_size FROM pragma_page_count() p, pragma_freelist_count() f, pragma_page_size() s',
    ).pluck();
    return this.#sizeStatement.get() as number;
  }

  #usable(what: string): StorageSession {
    if (this.#session === null) throw notSqliteBackend(what);
    this.#session.requireUsable();
    return this.#session;
  }

  #prepare(db: Database.Database, sql: string): Database.Statement {
    let stmt = this.#statements.get(sql);
    if (stmt === undefined) {
      stmt = db.prepare(sql);
      if (stmt.reader) stmt.raw(true);
      this.#statements.set(sql, stmt);
    }
    return stmt;
  }

  #run(session: StorageSession, sql: string, values: Binding[]): SqlStorageCursor {
    const stmt = this.#prepare(session.db, sql);
    if (stmt.readonly) {
      const rows = stmt.reader ? (stmt.all(...values) as unknown[][]) : (stmt.run(...values), []);
      return new SqlStorageCursor(stmt.reader ? stmt.columns().map((c) => c.name) : [], rows, rows.length, 0);
    }
    session.write(true);
    this.#totalChanges ??= session.db.prepare('SELECT total_changes()').pluck();
    // total_changes() only moves on writes: when nothing but this statement wrote since the last
    // reading, that reading is still the "before" value (saves a query per statement in a batch).
    const before = session.writeSeq === this.#lastWriteSeq + 1 ? this.#lastTotal : (this.#totalChanges.get() as number);
    const rows = stmt.reader ? (stmt.all(...values) as unknown[][]) : (stmt.run(...values), []);
    this.#lastTotal = this.#totalChanges.get() as number;
    this.#lastWriteSeq = session.writeSeq;
    const written = this.#lastTotal - before;
    const columns = stmt.reader ? stmt.columns().map((c) => c.name) : [];
    return new SqlStorageCursor(columns, rows, Math.max(rows.length, written), written);
  }
}
