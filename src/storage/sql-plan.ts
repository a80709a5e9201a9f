/**
 * What a statement's bytecode (`EXPLAIN`) tells the cursor counters. The reference runtime counts
 * `rowsRead` and `rowsWritten` inside a patched SQLite (workerd's `patches/sqlite/0001-row-counts`,
 * from libSQL, read with `sqlite3_stmt_status(LIBSQL_STMTSTATUS_ROWS_READ / _WRITTEN)`): a read is
 * each `Rewind`, `Last`, `SorterSort` (even on an empty b-tree), each seek that lands, each `Next`,
 * `Prev`, `SorterNext`, `VNext` that lands on a row, and the entries `count(*)` counts; a write is
 * each table or index insert or delete outside temporary b-trees. Stock SQLite, as better-sqlite3
 * ships it, has no such counters (nor `sqlite3_stmt_status`, `stmt_scanstatus` or the `bytecode`
 * table), so zonewall reads the compiled program once per statement and counts from outside:
 *
 * | program                                          | rowsRead                              | rowsWritten                      |
 * |--------------------------------------------------|---------------------------------------|----------------------------------|
 * | one full scan, then the rows (aggregate), or a   | max(entries, 1) before the first row  |                                  |
 * |   write that scans (`UPDATE`/`DELETE ... WHERE`) |   (entries counted before a write)    |                                  |
 * | one full scan, rows as it passes them            | +1 per row fetched; max(entries, 1)   |                                  |
 * |                                                  |   once the rows run out               |                                  |
 * | one full scan into a sorter (`ORDER BY`)         | max(entries, 1), +1 per row fetched,  |                                  |
 * |                                                  |   +1 for an empty sorter              |                                  |
 * | one full scan cut by LIMIT/OFFSET (no filter)    | offset before the first row, +1 per   |                                  |
 * |                                                  |   row; max(entries, 1) if it runs out |                                  |
 * | a RETURNING write whose own part is counted here | + per changed row: buffer walks and   |                                  |
 * |   (full scan, rowid lookup, no move)             |   re-seeks; read-back +1 per row      |                                  |
 * | one rowid lookup (`WHERE rowid = ?`), no loop    | 1, found or not; 0 for a key that is  |                                  |
 * |                                                  |   no integer (SQLite skips the seek)  |                                  |
 * | any other program reading a table or index       | +1 per row fetched                    |                                  |
 * | reads no table (`SELECT 1`, `json_each`)         | 0                                     |                                  |
 * | `count(*)` answered from a b-tree (`Count`)      | + the rows of that table              |                                  |
 * | other write that locates rows (seek)             | rows changed (a lower bound)          |                                  |
 * | write                                            |                                       | rows changed (`total_changes()`) |
 * | insert into indexed table (`IdxInsert`)          |                                       | + one per index entry per row    |
 * | CREATE TABLE/VIEW/TRIGGER (no loop)              | 1 (the sqlite_schema row's update)    | + its sqlite_schema inserts      |
 * | CREATE INDEX, DROP, ALTER ADD COLUMN             | see `SchemaChange`                    | see `SchemaChange`               |
 * | one index range streamed (`IndexRange`)          | +1 per row fetched; +1 for the entry  |                                  |
 * |                                                  |   that ends it (or the seek's landing)|                                  |
 * | a full scan joined to a rowid lookup (`LookupJoin`)| +2 per row fetched; 2 × N at the end  |                                  |
 * | a cross join of two whole scans (`LookupJoin`)   | 1, +1 per row; No + No × Ni at the end|                                  |
 *
 * "One full scan" (`fullScan`, `sql-full-scan.ts`): the only counted moves are one `Rewind`/`Last` + `Next`/`Prev` loop
 * over a table or index (and a sorter read back once), with no subquery, trigger or early exit; a
 * temporary b-tree only probed (`DISTINCT`, `IN` list) filters it, an `INSERT ... SELECT`
 * coroutine takes all its rows, and a LIMIT/OFFSET is allowed on an unfiltered stream. What stays different (before its end a filtered scan has read
 * every row it passed in the reference, the rows it returned here; seeks, joins, LIMIT over a
 * filter, ranges under RETURNING, ALTER RENAME and DROP COLUMN) is recorded in the differential
 * suite's cases and in docs/library-storage.md.
 */
import type Database from 'better-sqlite3';
import { COUNTED, UNCOUNTABLE, type Op } from './sql-opcodes.js';
import { fullScan, type FullScan } from './sql-full-scan.js';
import { indexRange, lookupJoin, type IndexRange, type LookupJoin } from './sql-index-range.js';
import { returningProgram, type ReturningPlan } from './sql-returning.js';
import { rowidLookup, type RowidLookup } from './sql-rowid-lookup.js';
import { schemaChange, type SchemaChange } from './sql-schema-change.js';

export type { SchemaChange } from './sql-schema-change.js';
export type { IndexRange, KeyValue, LookupJoin, RangeBound } from './sql-index-range.js';
export type { FullScan, Operand, ScanLimit } from './sql-full-scan.js';
export type { ReturningPlan } from './sql-returning.js';
export type { RowidLookup } from './sql-rowid-lookup.js';

/** The counting facts of one compiled statement. */
export interface StatementPlan {
  /** Each fetched row counts as one read (false when the program opens no table or index). */
  readsPerRow: boolean;
  /** Root pages of b-trees whose size `count(*)` reads whole. */
  countRoots: number[];
  /** The program locates existing rows (seek or scan) before writing them. */
  seeks: boolean;
  /** Index entries written per changed row, beyond the row itself. */
  indexWritesPerRow: number;
  /** The statement's only b-tree loop, when it is a full scan whose reads can be counted whole. */
  scan: FullScan | null;
  /** The statement's only counted move, when it is one rowid lookup (`WHERE rowid = ?`). */
  lookup: RowidLookup | null;
  /**
   * Rows a schema statement without a loop writes (CREATE TABLE, VIEW, TRIGGER: its sqlite_schema
   * rows, each insert counted), which `total_changes()` does not count; 0 for other statements.
   */
  schemaWrites: number;
  /** A write with `RETURNING` whose reads are known (see `ReturningPlan`), else null. */
  returning: ReturningPlan | null;
  /** A schema change whose counts are known (see `SchemaChange`), else null: its counts replace the others. */
  schemaChange: SchemaChange | null;
  /** The statement's only counted moves, when they are one index range (see `IndexRange`), else null. */
  range: IndexRange | null;
  /** The statement's only counted moves, when they are a scan joined to a rowid lookup (see `LookupJoin`), else null. */
  join: LookupJoin | null;
}

// Ops that land a cursor on existing rows. Uniqueness probes (NoConflict, Found) are not among them:
// the reference counts 0 rows read for an insert into a WITHOUT ROWID table, which probes its key.
const SEEKS = new Set(['Rewind', 'Last', 'SeekGE', 'SeekGT', 'SeekLE', 'SeekLT', 'SeekRowid', 'NotExists']);

const LOOPS = new Set(['Next', 'Prev', 'SorterNext', 'VNext']);

/** The table and index inserts of a schema statement (`ParseSchema`) with no loop, else 0. */
function schemaWrites(ops: Op[]): number {
  if (!ops.some((op) => op.opcode === 'ParseSchema') || ops.some((op) => LOOPS.has(op.opcode) || UNCOUNTABLE.has(op.opcode))) return 0;
  // Code a forward `Goto` passes over never runs here (a WITHOUT ROWID table's key index entry).
  const skipped = ops.flatMap((op, addr) => (op.opcode === 'Goto' && op.p2 > addr + 1 ? [[addr, op.p2] as const] : []));
  return ops.filter((op, addr) =>
    (op.opcode === 'Insert' || op.opcode === 'IdxInsert') && !skipped.some(([from, to]) => addr > from && addr < to)).length;
}

/** Reads the program of `sql` (parameters bound to NULL, nothing runs) and derives its counting facts. */
export function planStatement(db: Database.Database, sql: string, nullBindings: unknown[]): StatementPlan {
  const ops = db.prepare(`EXPLAIN ${sql}`).all(...nullBindings) as Op[];
  const opened = new Map<number, number>();
  const countCursors = new Set<number>();
  const indexes = new Map<number, boolean>();
  let idxInserts = 0;
  let inserts = 0;
  let seeks = false;
  for (const op of ops) {
    if (op.opcode === 'OpenRead' || op.opcode === 'OpenWrite') opened.set(op.p1, op.p2);
    // An index cursor's P4 is its key description (`k(2,,)`); P5 bit 2 is OPFLAG_SEEKEQ (an equality range).
    if (op.opcode === 'OpenRead' && typeof op.p4 === 'string' && op.p4.startsWith('k(')) indexes.set(op.p1, ((op.p5 ?? 0) & 2) !== 0);
    else if (op.opcode === 'Count') countCursors.add(op.p1);
    // Inserts into temporary b-trees (`INSERT INTO t SELECT * FROM t` copies through one) are not written rows.
    else if (op.opcode === 'IdxInsert' && opened.has(op.p1)) idxInserts++;
    else if (op.opcode === 'Insert' && opened.has(op.p1)) inserts++;
    if (SEEKS.has(op.opcode)) seeks = true;
  }
  const countRoots = [...countCursors].map((cursor) => opened.get(cursor)).filter((root): root is number => root !== undefined);
  // A RETURNING write: its own part counted as any write, when it is one the counts know.
  const returning = returningProgram(ops, opened);
  if (returning !== null) {
    const scan = fullScan(returning.ops, opened);
    const lookup = rowidLookup(returning.ops, opened);
    if (scan !== null || lookup !== null || !returning.ops.some((op) => COUNTED.has(op.opcode))) {
      return {
        readsPerRow: true, countRoots, seeks, indexWritesPerRow: indexWritesPerRow(inserts, idxInserts),
        scan, lookup, schemaWrites: 0, returning: { perChange: returning.perChange }, schemaChange: null, range: null, join: null,
      };
    }
  }
  return {
    readsPerRow: [...opened.keys()].some((cursor) => !countCursors.has(cursor)),
    countRoots,
    seeks,
    indexWritesPerRow: indexWritesPerRow(inserts, idxInserts),
    scan: fullScan(ops, opened),
    lookup: rowidLookup(ops, opened),
    schemaWrites: schemaWrites(ops),
    returning: null,
    schemaChange: schemaChange(ops, opened),
    range: indexRange(ops, opened, indexes),
    join: lookupJoin(ops, opened),
  };
}

// A WITHOUT ROWID table is itself an index b-tree: its row is the first IdxInsert, not an Insert.
// An upsert has two paths that write the row (insert, or DO UPDATE), of which one runs.
function indexWritesPerRow(inserts: number, idxInserts: number): number {
  return inserts > 1 ? Math.round(idxInserts / inserts) : Math.max(0, idxInserts - (inserts > 0 ? 0 : 1));
}
