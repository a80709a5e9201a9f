/**
 * The rows a statement reads and writes, as the reference counts them (`rowsRead`, `rowsWritten`
 * on the cursor) for what the statement's plan (`sql-plan.ts`) cannot say alone: the entries of a
 * b-tree now, the entry that ends an index range, the counts of a schema change. One `RowCounts`
 * per `SqlStorage`: its prepared `count(*)` statements and index probes are for the schema it has
 * now, so `sql.ts` clears them when the schema changes or a rollback undoes it.
 */
import type Database from 'better-sqlite3';
import type { CursorSource } from './cursor.js';
import type { Binding } from './sql-binding.js';
import type { Operand } from './sql-full-scan.js';
import type { IndexRange, SchemaChange } from './sql-plan.js';
import type { StorageSession } from './session.js';

/** The counting queries of one `SqlStorage`, prepared once per schema. */
export class RowCounts {
  /** `count(*)` statements by b-tree root page, for this schema (`entries`). */
  #counts = new Map<number, { stmt: Database.Statement | null; seq: number; n: number }>();
  /** The index probes of `rangeEndReads`, by root, bound and key width, for this schema. */
  #probes = new Map<string, Database.Statement | null>();

  /** Forgets every prepared count and probe (the schema changed, or a rollback may have undone a change). */
  clear(): void {
    this.#counts.clear();
    this.#probes.clear();
  }

  /**
   * Entries in the b-tree with root page `root` (the rows of its table), by a `count(*)` prepared
   * once per schema; the answer is kept until the session's next write (`writeSeq`) or rollback.
   */
  entries(session: StorageSession, root: number): number {
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

  /** The counts of a schema change (`sql-plan.ts`, `SchemaChange`), once it has run; `schemaRows`: sqlite_schema's rows before it. */
  countSchemaChange(session: StorageSession, source: CursorSource, change: SchemaChange, schemaRows: number): void {
    if (change.kind === 'scanSchema') {
      source.rowsRead = Math.max(1, schemaRows) + change.extraReads;
      source.rowsWritten = change.writes;
      return;
    }
    const rows = this.entries(session, change.tableRoot);
    const entries = this.#indexEntries(session, change.index);
    source.rowsRead = Math.max(1, rows) + Math.max(1, entries) + Math.min(2, entries);
    source.rowsWritten = entries + change.schemaInserts;
  }

  /**
   * The read an index range makes past its rows (`sql-index-range.ts`): after `fetched` rows, the
   * entry beyond its upper bound, if the index has one; with none, the entry its seek landed on, if any.
   */
  rangeEndReads(session: StorageSession, range: IndexRange, values: Binding[], fetched: number): number {
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
  schemaRows(session: StorageSession): number {
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
}

/** The integer an `Operand` (`sql-plan.ts`) holds for these bindings (a LIMIT of -1 is no limit). */
export function operandValue(operand: Operand, values: Binding[]): number {
  if ('value' in operand) return operand.value;
  const value = Number(values[operand.parameter - 1]);
  return Number.isInteger(value) ? value : -1;
}
