/**
 * `ctx.storage.sql` (SQLite backend): `exec(query, ...bindings)` and `databaseSize`. A query string is
 * split, authorized and checked against the reference's limits once per process (`sql-parse.ts`); each statement
 * is prepared once and its counting facts read once (`sql-plan.ts`); all are cached per SQL string
 * (LRU, like the reference's 1 MiB statement cache: `sql-statements.ts`; the process-wide caches are `sql-cache.ts`). The leading statements of a multi-statement
 * query run to completion; the last one becomes a lazily stepped cursor (`cursor.ts` says how that
 * coexists with other statements). Writes join the implicit transaction and are always confirmed.
 *
 * Bindings follow the reference's conversions (`sql-binding.ts`). The i-th binding goes to
 * parameter number i, whatever the parameter's form (`?`, `?NNN`, `:name`), as the reference binds
 * them. The rows a statement reads and writes are counted as the reference counts them, from its
 * plan's facts and the queries of `sql-row-counts.ts`.
 */
import type Database from 'better-sqlite3';
import { notSqliteBackend, SqlError, StorageTypeError } from './errors.js';
import { toBinding, type Binding } from './sql-binding.js';
import { CursorSource, SqlStorageCursor, type SqlStorageValue } from './cursor.js';
import { sqlError } from './sql-errors.js';
import { bindArguments } from './sql-limits.js';
import { KvTableError, parseQuery, type ParsedStatement } from './sql-parse.js';
import { KV_TABLE } from './kv.js';
import { isIntegerKey } from './sql-rowid-lookup.js';
import { operandValue, RowCounts } from './sql-row-counts.js';
import { PreparedStatements, type Prepared } from './sql-statements.js';
import type { StorageSession } from './session.js';
import { parsedQueries } from './sql-cache.js';

/** The SQL API of one session (`ctx.storage.sql`). */
export class SqlStorage {
  readonly #session: StorageSession | null;
  #totalChanges: Database.Statement | null = null;
  #sizeStatement: Database.Statement | null = null;
  #lastTotal = 0;
  #lastWriteSeq = -2;
  /** The counting queries of rows read and written, for this schema (`sql-row-counts.ts`). */
  readonly #rowCounts = new RowCounts();
  /** Prepared statements and their counting facts, for this schema (`sql-statements.ts`). */
  readonly #statements = new PreparedStatements(this.#rowCounts);
  /** Rows changed by the last statement run to completion (better-sqlite3's `changes`). */
  #lastChanges = 0;

  /** @internal built by the storage; `null` on the `kv` backend, where every call throws. */
  constructor(session: StorageSession | null) {
    this.#session = session;
    // A rollback can undo DDL (an added column or index): cached column names and counting facts go.
    session?.onRollback(() => {
      this.#statements.clear();
    });
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
      try {
        plan = parseQuery(query);
      } catch (err) {
        if (err instanceof KvTableError && err.ifMissing !== undefined && !this.#kvTableExists(session.db)) {
          throw new SqlError(err.ifMissing, 'SQLITE_ERROR');
        }
        throw err;
      }
      parsedQueries.set(query, plan);
    }
    for (let i = 0; i < plan.length - 1; i++) this.#run(session, plan[i] as ParsedStatement, [], []).close();
    const last = plan[plan.length - 1] as ParsedStatement;
    const source = this.#run(session, last, bindArguments(last.parameters, values), values);
    return new SqlStorageCursor<T>(source.columns, source);
  }

  /** Bytes in use by the database: (page_count - freelist_count) * page_size. */
  get databaseSize(): number {
    const session = this.#usable('sql.databaseSize');
    this.#sizeStatement ??= session.db.prepare(
      'SELECT (p.page_count - f.freelist_count) * s.page_size FROM pragma_page_count() p, pragma_freelist_count() f, pragma_page_size() s',
    ).pluck();
    return this.#sizeStatement.get() as number;
  }

  /** Whether the key-value table exists yet (the reference's `_cf_KV` is made by the first KV write too). */
  #kvTableExists(db: Database.Database): boolean {
    return db.prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = ?").get(KV_TABLE) !== undefined;
  }

  #usable(what: string): StorageSession {
    if (this.#session === null) throw notSqliteBackend(what);
    this.#session.requireUsable();
    return this.#session;
  }

  /** Maps an error from SQLite while stepping: a critical one breaks the session first. */
  readonly #onError = (err: unknown): Error => {
    this.#session?.checkStatementError(err);
    return sqlError(err);
  };

  /** Runs one statement: a reader as a lazily stepped source, a plain write to completion. */
  #run(session: StorageSession, statement: ParsedStatement, args: unknown[], values: Binding[]): CursorSource {
    const source = this.#runStatement(session, statement, args, values);
    if (statement.schemaChange) {
      this.#statements.clear();
    }
    return source;
  }

  /** `args`: the bindings as better-sqlite3 takes them; `values`: the same by parameter number. */
  #runStatement(session: StorageSession, statement: ParsedStatement, args: unknown[], values: Binding[]): CursorSource {
    let prepared: Prepared;
    try {
      prepared = this.#statements.prepare(session.db, statement);
    } catch (err) {
      session.checkStatementError(err);
      throw sqlError(err, session.db, statement);
    }
    const { stmt, plan, columns } = prepared;
    const counts = this.#rowCounts;
    let read = 0;
    for (const root of plan.countRoots) read += counts.entries(session, root);
    let readsPerRow = plan.readsPerRow ? 1 : 0;
    // A full scan (`sql-plan.ts`): its reads are its b-tree's entries, at least one.
    const scan = plan.scan;
    let atEnd: ((rowsRead: number, fetched: number) => number) | null = null;
    if (scan !== null) {
      if (scan.shape === 'before') {
        read += Math.max(1, counts.entries(session, scan.root));
        readsPerRow = 0;
      } else if (scan.shape === 'sorted') {
        read += Math.max(1, counts.entries(session, scan.root));
        // The sorter's first move counts even when it holds nothing.
        atEnd = (rowsRead, fetched) => (fetched === 0 ? rowsRead + 1 : rowsRead);
      } else if (scan.limit !== undefined) {
        // LIMIT/OFFSET: the skipped rows are read before the first; at the limit no further move.
        const limit = operandValue(scan.limit.limit, values);
        const offset = scan.limit.offset === null ? 0 : Math.max(0, operandValue(scan.limit.offset, values));
        if (limit === 0) {
          readsPerRow = 0;
        } else {
          const entries = offset > 0 ? counts.entries(session, scan.root) : 0;
          read += offset > 0 && entries <= offset ? Math.max(1, entries) : offset;
          atEnd = (rowsRead, fetched) => (fetched === limit ? rowsRead : Math.max(1, counts.entries(session, scan.root)));
        }
      } else if (scan.filtered) {
        atEnd = () => Math.max(1, counts.entries(session, scan.root));
      } else {
        atEnd = (rowsRead) => Math.max(1, rowsRead);
      }
    }
    // A rowid lookup reads one row, found or not, unless its key is no integer (`sql-plan.ts`).
    const lookup = plan.lookup;
    if (lookup !== null) {
      readsPerRow = 0;
      if (lookup.parameter === null || isIntegerKey(values[lookup.parameter - 1])) read += 1;
    }
    // A scan joined to a rowid lookup (`sql-index-range.ts`): two reads per outer row, found or not.
    const join = plan.join;
    if (join !== null && stmt.reader && join.inner === undefined) {
      readsPerRow = 2;
      atEnd = () => Math.max(1, 2 * counts.entries(session, join.outer));
    } else if (join?.inner !== undefined && stmt.reader) {
      // A cross join: the outer first move, then one read per row; the total once the rows run out.
      const inner = join.inner;
      read += 1;
      atEnd = () => {
        const outer = counts.entries(session, join.outer);
        const rows = counts.entries(session, inner);
        return outer === 0 ? 1 : rows === 0 ? 2 : outer + outer * rows;
      };
    }
    // One index range (`sql-index-range.ts`): the entry that ends it is read too, found when the rows run out.
    const range = plan.range;
    if (range !== null && stmt.reader) atEnd = (rowsRead, fetched) => rowsRead + counts.rangeEndReads(session, range, values, fetched);
    // RETURNING (`sql-plan.ts`): its buffer is read back one row at a time, an empty one read once.
    if (plan.returning !== null) {
      readsPerRow = 1;
      atEnd = (rowsRead, fetched) => (fetched === 0 ? rowsRead + 1 : rowsRead);
    }
    if (stmt.readonly) {
      if (!stmt.reader) return this.#complete(session, stmt, args, columns, read);
      // Nothing can change what a read-only session reads (`session.ts`; `exec` refuses TEMP and
      // ATTACH), so stepping lazily shows nothing: the rows are read in one call, which costs
      // ~0.5 µs a row less than stepping them one by one (a 50-zone plan reads 100,000).
      const rows = session.readOnly ? this.#allOrNull(stmt, args) : null;
      if (rows !== null) return new CursorSource(session.db, null, columns, readsPerRow, read, this.#onError, rows, atEnd);
      return new CursorSource(session.db, this.#iterate(stmt, args), columns, readsPerRow, read, this.#onError, undefined, atEnd);
    }
    session.write(true);
    // A schema change counts sqlite_schema as it was before it (`sql-plan.ts`, `SchemaChange`).
    const schemaRows = plan.schemaChange?.kind === 'scanSchema' ? counts.schemaRows(session) : 0;
    this.#totalChanges ??= session.db.prepare('SELECT total_changes()').pluck();
    // total_changes() only moves on writes: when nothing but this statement wrote since the last
    // reading, that reading is still the "before" value (saves a query per statement in a batch).
    const before = session.writeSeq === this.#lastWriteSeq + 1 ? this.#lastTotal : (this.#totalChanges.get() as number);
    let source: CursorSource;
    if (stmt.reader) {
      source = new CursorSource(session.db, this.#iterate(stmt, args), columns, readsPerRow, read, this.#onError, undefined, atEnd);
      // A write with RETURNING has done all its writes at the first step (SQLite buffers the rows),
      // but while it is unfinished SQLite refuses to COMMIT: read its rows out now.
      source.park();
    } else {
      source = this.#complete(session, stmt, args, columns, read);
    }
    this.#lastTotal = this.#totalChanges.get() as number;
    this.#lastWriteSeq = session.writeSeq;
    const changed = this.#lastTotal - before;
    // A RETURNING statement did all its writes at the first step; its own changes are not reported apart.
    const rows = stmt.reader ? changed : this.#lastChanges;
    source.rowsWritten = changed + rows * plan.indexWritesPerRow + plan.schemaWrites;
    if (!stmt.reader && plan.seeks && scan === null && lookup === null) source.rowsRead += rows;
    if (plan.returning !== null) source.rowsRead += rows * plan.returning.perChange;
    if (plan.schemaChange !== null) counts.countSchemaChange(session, source, plan.schemaChange, schemaRows);
    return source;
  }

  /** Every row of a reader, or null when SQLite fails on one: stepped lazily then, the error comes at its row, as it would have. */
  #allOrNull(stmt: Database.Statement, args: unknown[]): unknown[][] | null {
    try {
      return stmt.all(...args) as unknown[][];
    } catch {
      return null;
    }
  }

  #iterate(stmt: Database.Statement, args: unknown[]): Iterator<unknown[]> {
    try {
      return stmt.iterate(...args) as Iterator<unknown[]>;
    } catch (err) {
      throw this.#onError(err);
    }
  }

  /** Runs a statement that returns no rows; its source is already at its end. */
  #complete(session: StorageSession, stmt: Database.Statement, args: unknown[], columns: string[], read: number): CursorSource {
    try {
      this.#lastChanges = stmt.run(...args).changes;
    } catch (err) {
      throw this.#onError(err);
    }
    return new CursorSource(session.db, null, columns, 0, read, this.#onError);
  }
}
