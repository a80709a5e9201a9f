/**
 * `ctx.storage.sql` (SQLite backend): `exec(query, ...bindings)` and `databaseSize`. A query string is
 * split, authorized and checked against the reference's limits once per process (`sql-parse.ts`); each statement
 * is prepared once and its counting facts read once (`sql-plan.ts`); all are cached per SQL string
 * (LRU, like the reference's 1 MiB statement cache; the process-wide caches are `sql-cache.ts`). The leading statements of a multi-statement
 * query run to completion; the last one becomes a lazily stepped cursor (`cursor.ts` says how that
 * coexists with other statements). Writes join the implicit transaction and are always confirmed.
 *
 * Bindings follow the reference's conversions: `undefined`/`null` are NULL, numbers bind as REAL,
 * booleans as the strings "true"/"false", ArrayBuffer and views as BLOBs, other objects as their
 * string form, and BigInt is a `TypeError`. The i-th binding goes to parameter number i, whatever
 * the parameter's form (`?`, `?NNN`, `:name`), as the reference binds them.
 */
import type Database from 'better-sqlite3';
import { notSqliteBackend, SqlError, StorageTypeError } from './errors.js';
import { CursorSource, SqlStorageCursor, type SqlStorageValue } from './cursor.js';
import { sqlError } from './sql-errors.js';
import { bindArguments } from './sql-limits.js';
import { KvTableError, parseQuery, type ParsedStatement } from './sql-parse.js';
import { KV_TABLE } from './kv.js';
import { isIntegerKey, planStatement, type IndexRange, type Operand, type SchemaChange, type StatementPlan } from './sql-plan.js';
import type { StorageSession } from './session.js';
import { parsedQueries, plansBySchema, SCHEMA_ENTRIES, SCHEMA_KEY, TextLru } from './sql-cache.js';

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

/** A prepared statement with its counting facts. */
interface Prepared {
  stmt: Database.Statement;
  plan: StatementPlan;
  columns: string[];
}


/** The SQL API of one session (`ctx.storage.sql`). */
export class SqlStorage {
  readonly #session: StorageSession | null;
  readonly #statements = new TextLru<Prepared>();
  #totalChanges: Database.Statement | null = null;
  #sizeStatement: Database.Statement | null = null;
  #schemaVersion: Database.Statement | null = null;
  /** The counting facts of this database's schema (`plansBySchema`), and the `schema_version` they are for. */
  #schema: { version: number; plans: TextLru<StatementPlan> } | null = null;
  #lastTotal = 0;
  #lastWriteSeq = -2;
  /** `count(*)` statements by b-tree root page, for this schema (`#entries`). */
  #counts = new Map<number, { stmt: Database.Statement | null; seq: number; n: number }>();
  /** The index probes of `#rangeEndReads`, by root, bound and key width, for this schema. */
  #probes = new Map<string, Database.Statement | null>();
  /** Rows changed by the last statement run to completion (better-sqlite3's `changes`). */
  #lastChanges = 0;

  /** @internal built by the storage; `null` on the `kv` backend, where every call throws. */
  constructor(session: StorageSession | null) {
    this.#session = session;
    // A rollback can undo DDL (an added column or index): cached column names and counting facts go.
    session?.onRollback(() => {
      this.#statements.clear();
      this.#schema = null;
      this.#counts.clear();
      this.#probes.clear();
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

  #prepare(db: Database.Database, statement: ParsedStatement): Prepared {
    let prepared = this.#statements.get(statement.sql);
    if (prepared === undefined) {
      const stmt = db.prepare(statement.sql);
      if (stmt.reader) stmt.raw(true);
      const columns = stmt.reader ? stmt.columns().map((c) => c.name) : [];
      const plans = this.#plans(db);
      let plan = plans.get(statement.sql);
      if (plan === undefined) {
        plan = planStatement(db, statement.sql, bindArguments(statement.parameters, Array(statement.parameters.count).fill(null)));
        plans.set(statement.sql, plan);
      }
      prepared = { stmt, plan, columns };
      this.#statements.set(statement.sql, prepared);
    }
    // A statement still stepped by an earlier cursor cannot be run again: compile a one-off copy.
    if (prepared.stmt.busy) {
      const stmt = db.prepare(statement.sql);
      if (stmt.reader) stmt.raw(true);
      return { ...prepared, stmt };
    }
    return prepared;
  }

  /**
   * The counting facts of the schema the database has now. `schema_version` moves with every
   * schema change, whoever makes it (the key-value table is created outside `exec`), and a
   * rollback, which can move it back, drops what this session knew (`onRollback`).
   */
  #plans(db: Database.Database): TextLru<StatementPlan> {
    this.#schemaVersion ??= db.prepare('PRAGMA schema_version').pluck();
    const version = this.#schemaVersion.get() as number;
    if (this.#schema?.version === version) return this.#schema.plans;
    this.#counts.clear();
    this.#probes.clear();
    // The key made by SQLite as one text: no row arrays, nor texts joined from them, per object opened.
    const key = (db.prepare(SCHEMA_KEY).pluck().get() as string | null) ?? '';
    let plans = plansBySchema.get(key);
    if (plans === undefined) {
      if (plansBySchema.size >= SCHEMA_ENTRIES) plansBySchema.clear();
      plansBySchema.set(key, (plans = new TextLru<StatementPlan>()));
    }
    this.#schema = { version, plans };
    return plans;
  }

  /**
   * Entries in the b-tree with root page `root` (the rows of its table), by a `count(*)` prepared
   * once per schema; the answer is kept until the session's next write (`writeSeq`) or rollback.
   */
  #entries(session: StorageSession, root: number): number {
    let count = this.#counts.get(root);
    if (count === undefined) {
      const db = session.db;
      const table = db.prepare('SELECT tbl_name FROM sqlite_schema WHERE rootpage = ?').pluck().get(root) as string | undefined;
      count = { stmt: table === undefined ? null : db.prepare(`SELECT count(*) FROM "${table.replace(/"/g, '""')}"`).pluck(), seq: -1, n: 0 };
      this.#counts.set(root, count);
    }
    if (count.seq === session.writeSeq) return count.n;
    try {
      count.n = count.stmt === null ? 0 : (count.stmt.get() as number);
      count.seq = session.writeSeq;
      return count.n;
    } catch {
      // The table went with a schema change made outside `exec` (deleteAll): counted afresh next time.
      this.#counts.delete(root);
      return 0;
    }
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
      this.#schema = null;
      this.#counts.clear();
      this.#probes.clear();
    }
    return source;
  }

  /** `args`: the bindings as better-sqlite3 takes them; `values`: the same by parameter number. */
  #runStatement(session: StorageSession, statement: ParsedStatement, args: unknown[], values: Binding[]): CursorSource {
    let prepared: Prepared;
    try {
      prepared = this.#prepare(session.db, statement);
    } catch (err) {
      session.checkStatementError(err);
      throw sqlError(err, session.db, statement);
    }
    const { stmt, plan, columns } = prepared;
    let read = 0;
    for (const root of plan.countRoots) read += this.#entries(session, root);
    let readsPerRow = plan.readsPerRow ? 1 : 0;
    // A full scan (`sql-plan.ts`): its reads are its b-tree's entries, at least one.
    const scan = plan.scan;
    let atEnd: ((rowsRead: number, fetched: number) => number) | null = null;
    if (scan !== null) {
      if (scan.shape === 'before') {
        read += Math.max(1, this.#entries(session, scan.root));
        readsPerRow = 0;
      } else if (scan.shape === 'sorted') {
        read += Math.max(1, this.#entries(session, scan.root));
        // The sorter's first move counts even when it holds nothing.
        atEnd = (rowsRead, fetched) => (fetched === 0 ? rowsRead + 1 : rowsRead);
      } else if (scan.limit !== undefined) {
        // LIMIT/OFFSET: the skipped rows are read before the first; at the limit no further move.
        const limit = operandValue(scan.limit.limit, values);
        const offset = scan.limit.offset === null ? 0 : Math.max(0, operandValue(scan.limit.offset, values));
        if (limit === 0) {
          readsPerRow = 0;
        } else {
          const entries = offset > 0 ? this.#entries(session, scan.root) : 0;
          read += offset > 0 && entries <= offset ? Math.max(1, entries) : offset;
          atEnd = (rowsRead, fetched) => (fetched === limit ? rowsRead : Math.max(1, this.#entries(session, scan.root)));
        }
      } else if (scan.filtered) {
        atEnd = () => Math.max(1, this.#entries(session, scan.root));
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
      atEnd = () => Math.max(1, 2 * this.#entries(session, join.outer));
    } else if (join?.inner !== undefined && stmt.reader) {
      // A cross join: the outer first move, then one read per row; the total once the rows run out.
      const inner = join.inner;
      read += 1;
      atEnd = () => {
        const outer = this.#entries(session, join.outer);
        const rows = this.#entries(session, inner);
        return outer === 0 ? 1 : rows === 0 ? 2 : outer + outer * rows;
      };
    }
    // One index range (`sql-index-range.ts`): the entry that ends it is read too, found when the rows run out.
    const range = plan.range;
    if (range !== null && stmt.reader) atEnd = (rowsRead, fetched) => rowsRead + this.#rangeEndReads(session, range, values, fetched);
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
    const schemaRows = plan.schemaChange?.kind === 'scanSchema' ? this.#schemaRows(session) : 0;
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
    if (plan.schemaChange !== null) this.#countSchemaChange(session, source, plan.schemaChange, schemaRows);
    return source;
  }

  /** The counts of a schema change (`sql-plan.ts`, `SchemaChange`), once it has run; `schemaRows`: sqlite_schema's rows before it. */
  #countSchemaChange(session: StorageSession, source: CursorSource, change: SchemaChange, schemaRows: number): void {
    if (change.kind === 'scanSchema') {
      source.rowsRead = Math.max(1, schemaRows) + change.extraReads;
      source.rowsWritten = change.writes;
      return;
    }
    const rows = this.#entries(session, change.tableRoot);
    const entries = this.#indexEntries(session, change.index);
    source.rowsRead = Math.max(1, rows) + Math.max(1, entries) + Math.min(2, entries);
    source.rowsWritten = entries + change.schemaInserts;
  }

  /**
   * The read an index range makes past its rows (`sql-index-range.ts`): after `fetched` rows, the
   * entry beyond its upper bound, if the index has one; with none, the entry its seek landed on, if any.
   */
  #rangeEndReads(session: StorageSession, range: IndexRange, values: Binding[], fetched: number): number {
    if (range.nullSkips.some((p) => values[p - 1] === null || values[p - 1] === undefined)) return 0;
    if (fetched === 0 && range.equal) return 0;
    const bound = fetched > 0 ? range.upper : range.lower;
    if (bound === null) return 0;
    const args = bound.key.map((k) => ('value' in k ? k.value : (values[k.parameter - 1] ?? null)));
    // A NULL key (`b < 'x'` seeks past the NULLs): NULL sorts first in an index.
    const nullKey = args.length === 1 && args[0] === null;
    if (!nullKey && args.includes(null)) return 0;
    const key = `${range.root} ${bound.op} ${args.length} ${nullKey}`;
    let probe = this.#probes.get(key);
    if (probe === undefined) this.#probes.set(key, (probe = this.#rangeProbe(session.db, range.root, bound.op, args.length, nullKey)));
    if (probe === null) return 0;
    return probe.get(...(nullKey ? [] : args)) === undefined ? 0 : 1;
  }

  /** The `LIMIT 1` query of whether index `root` has an entry `op` a key of `n` columns; null when not asked (see below). */
  #rangeProbe(db: Database.Database, root: number, op: string, n: number, nullKey: boolean): Database.Statement | null {
    const index = db.prepare("SELECT name, tbl_name AS t FROM sqlite_schema WHERE type = 'index' AND rootpage = ?").get(root) as { name: string; t: string } | undefined;
    if (index === undefined) return null;
    const quote = (id: string) => `"${id.replace(/"/g, '""')}"`;
    const columns = (db.prepare(`PRAGMA index_xinfo(${quote(index.name)})`).all() as { name: string | null; desc: number; coll: string }[]).slice(0, n);
    // A key over an expression, the rowid or a descending column: not asked (no read counted).
    if (columns.length < n || columns.some((c) => c.name === null || c.desc !== 0)) return null;
    const column = (c: { name: string | null; coll: string }) => `${quote(c.name as string)} COLLATE ${quote(c.coll)}`;
    const where = nullKey ? (op === '>' ? `${column(columns[0]!)} IS NOT NULL` : '1')
      : `(${columns.map(column).join(', ')}) ${op} (${columns.map(() => '?').join(', ')})`;
    return db.prepare(`SELECT 1 FROM ${quote(index.t)} WHERE ${where} LIMIT 1`);
  }

  /** The rows of sqlite_schema. */
  #schemaRows(session: StorageSession): number {
    return session.db.prepare('SELECT count(*) FROM sqlite_schema').pluck().get() as number;
  }

  /** The entries of index `name`: its table's rows, or those its WHERE keeps (a partial index). */
  #indexEntries(session: StorageSession, name: string): number {
    const db = session.db;
    const row = db.prepare("SELECT tbl_name AS t, sql FROM sqlite_schema WHERE type = 'index' AND name = ?").get(name) as { t: string; sql: string | null } | undefined;
    if (row === undefined) return 0;
    const where = /\bWHERE\b([\s\S]*)$/i.exec(row.sql ?? '');
    return db.prepare(`SELECT count(*) FROM "${row.t.replace(/"/g, '""')}"${where === null ? '' : ` WHERE ${where[1] as string}`}`).pluck().get() as number;
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

/** The integer an `Operand` (`sql-plan.ts`) holds for these bindings (a LIMIT of -1 is no limit). */
function operandValue(operand: Operand, values: Binding[]): number {
  if ('value' in operand) return operand.value;
  const value = Number(values[operand.parameter - 1]);
  return Number.isInteger(value) ? value : -1;
}
