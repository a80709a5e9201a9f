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
 * "One full scan" (`fullScan`): the only counted moves are one `Rewind`/`Last` + `Next`/`Prev` loop
 * over a table or index (and a sorter read back once), with no subquery, trigger or early exit; a
 * temporary b-tree only probed (`DISTINCT`, `IN` list) filters it, an `INSERT ... SELECT`
 * coroutine takes all its rows, and a LIMIT/OFFSET is allowed on an unfiltered stream. What stays different (before its end a filtered scan has read
 * every row it passed in the reference, the rows it returned here; seeks, joins, LIMIT over a
 * filter, ranges under RETURNING, ALTER RENAME and DROP COLUMN) is recorded in the differential
 * suite's cases and in docs/library-storage.md.
 */
import type Database from 'better-sqlite3';
import { COUNTED, JUMPS, UNCOUNTABLE, WRITES_P2, WRITES_P3, type Op } from './sql-opcodes.js';
import { indexRange, lookupJoin, type IndexRange, type LookupJoin } from './sql-index-range.js';
import { schemaChange, type SchemaChange } from './sql-schema-change.js';

export type { SchemaChange } from './sql-schema-change.js';
export type { IndexRange, KeyValue, LookupJoin, RangeBound } from './sql-index-range.js';

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

/**
 * A write with `RETURNING`: SQLite buffers the rows to return in a temporary b-tree read back at the
 * end (one read per row, one for an empty buffer), walks the rows it changes out of another buffer
 * (a multi-row `VALUES` list, the rowids an `UPDATE` collected) and re-seeks each changed row; the
 * reference counts each of those moves. `scan`/`lookup` of the plan then describe the write's own part.
 */
export interface ReturningPlan {
  /** Reads per changed row: buffer walks and re-seeks. */
  perChange: number;
}

/**
 * A program whose only counted move is one `SeekRowid`/`NotExists`, outside any loop: the reference
 * counts one read whether the row is there or not, none when the key is not an integer (SQLite then
 * skips the seek).
 */
export interface RowidLookup {
  /** The parameter (1-based) holding the key; null: the key is an integer constant. */
  parameter: number | null;
}

/**
 * A program whose only counted b-tree moves are one full scan (`Rewind`/`Last` then `Next`/`Prev`
 * over a table or index), optionally fed to a sorter read back once. The reference counts the
 * scan's first move even on an empty b-tree, and each move that lands on a row: `max(N, 1)` for N
 * entries, whatever the filter keeps; a sorter's read-back counts `max(rows, 1)`.
 */
export interface FullScan {
  /** Root page of the b-tree scanned. */
  root: number;
  /**
   * `before`: every read happens before the first row or the end (an aggregate, a write);
   * `stream`: rows come out as the scan passes them (the total is known at the end);
   * `sorted`: the scan fills a sorter before the first row, whose rows are then read back.
   */
  shape: 'before' | 'stream' | 'sorted';
  /** The loop may skip rows (a `WHERE`): the rows fetched do not tell how many the scan passed. */
  filtered: boolean;
  /**
   * An unfiltered `stream` scan cut by `LIMIT` (and `OFFSET`): the reference reads the skipped rows
   * before the first, then one per row, and stops without a further move once the limit is reached.
   */
  limit?: ScanLimit;
}

/** A value a program takes from a constant or a bound parameter (1-based). */
export type Operand = { value: number } | { parameter: number };

/** The `LIMIT` and `OFFSET` of a full scan. */
export interface ScanLimit {
  limit: Operand;
  /** null: no `OFFSET`. */
  offset: Operand | null;
}

// Ops that land a cursor on existing rows. Uniqueness probes (NoConflict, Found) are not among them:
// the reference counts 0 rows read for an insert into a WITHOUT ROWID table, which probes its key.
const SEEKS = new Set(['Rewind', 'Last', 'SeekGE', 'SeekGT', 'SeekLE', 'SeekLT', 'SeekRowid', 'NotExists']);

// Ops of a `LIMIT`/`OFFSET` (`OffsetLimit` sets up the offset, `IfPos` skips it, `DecrJumpZero` ends at the limit).
const LIMIT_OPS = new Set(['OffsetLimit', 'IfPos', 'DecrJumpZero']);
// Ops of a coroutine feeding an `INSERT ... SELECT`: its consumer takes every row the scan yields.
const COROUTINE_OPS = new Set(['InitCoroutine', 'Yield']);

/** The constant or parameter register `reg` holds before `before`, or null when it is computed. */
function operand(ops: Op[], reg: number, before: number): Operand | null {
  let found: Operand | null = null;
  for (let addr = 1; addr < before; addr++) {
    const op = ops[addr] as Op;
    if (op.opcode === 'Integer' && op.p2 === reg) found = { value: op.p1 };
    else if (op.opcode === 'Variable' && op.p2 === reg) found = { parameter: op.p1 };
    else if (op.opcode === 'MustBeInt' || op.opcode === 'OffsetLimit') continue;
    else if ((WRITES_P2.has(op.opcode) && op.p2 === reg) || (WRITES_P3.has(op.opcode) && op.p3 === reg)) return null;
  }
  return found;
}

/** The program's full scan, when the reads of `ops` are one (see `FullScan`), else null. */
function fullScan(ops: Op[], opened: Map<number, number>): FullScan | null {
  // An `INSERT ... SELECT` runs its SELECT as a coroutine, every row of which is inserted.
  const insertsAll = !ops.some((op) => op.opcode === 'ResultRow') && ops.some((op) => op.opcode === 'Insert' && opened.has(op.p1));
  const limitOps: number[] = [];
  let start = -1;
  let end = -1;
  let cursor = -1;
  let sortStart = -1;
  let sortEnd = -1;
  let sorter = -1;
  let result = -1;
  let aggregate = false;
  for (let addr = 0; addr < ops.length; addr++) {
    const op = ops[addr] as Op;
    if (LIMIT_OPS.has(op.opcode)) limitOps.push(addr);
    else if (insertsAll && COROUTINE_OPS.has(op.opcode)) continue;
    // A temporary b-tree only probed (`DISTINCT`, an `IN` list: `Found`, never a counted move) filters the scan.
    else if (op.opcode === 'OpenEphemeral') continue;
    else if (UNCOUNTABLE.has(op.opcode)) return null;
    if (op.opcode === 'AggStep') aggregate = true;
    if (op.opcode === 'ResultRow') {
      if (result >= 0) return null;
      result = addr;
    }
    if (!COUNTED.has(op.opcode)) continue;
    if ((op.opcode === 'Rewind' || op.opcode === 'Last') && start < 0 && opened.has(op.p1)) {
      start = addr;
      cursor = op.p1;
    } else if ((op.opcode === 'Next' || op.opcode === 'Prev') && end < 0 && op.p1 === cursor && op.p2 > start && op.p2 <= addr) {
      end = addr;
    } else if (op.opcode === 'SorterSort' && sortStart < 0) {
      sortStart = addr;
      sorter = op.p1;
    } else if (op.opcode === 'SorterNext' && sortEnd < 0 && op.p1 === sorter) {
      sortEnd = addr;
    } else {
      return null;
    }
  }
  if (start < 0 || end < 0) return null;
  const limit = limitOps.length > 0 ? scanLimit(ops, limitOps, start, end, result) : undefined;
  if (limit === null) return null;
  // A jump over the loop before it (`WHERE 0`, a constant condition on a parameter) may skip the scan;
  // `LIMIT 0` (`IfNot` on the limit) skips it too, which the limit's count knows.
  const limitRegister = limit === undefined ? -1 : (ops[limitOps[limitOps.length - 1] as number] as Op).p1;
  for (let addr = 1; addr < start; addr++) {
    const op = ops[addr] as Op;
    if (JUMPS.has(op.opcode) && op.p2 > end && !(op.opcode === 'IfNot' && op.p1 === limitRegister)) return null;
  }
  let filtered = false;
  for (let addr = start + 1; addr < end; addr++) {
    const op = ops[addr] as Op;
    if (!JUMPS.has(op.opcode)) continue;
    filtered = true;
    // Only the rowid guard of a write (`IsNull` on the rowid, never taken) may leave the loop.
    if ((op.p2 < start || op.p2 > end) && op.opcode !== 'IsNull') return null;
  }
  const root = opened.get(cursor) as number;
  if (sortStart >= 0) {
    const readBack = sortEnd > sortStart && sortStart > end && result > sortStart && result < sortEnd;
    return readBack && !aggregate ? { root, shape: 'sorted', filtered } : null;
  }
  if (sortEnd >= 0) return null;
  if (limit !== undefined) return !filtered && !aggregate && result > start ? { root, shape: 'stream', filtered, limit } : null;
  if (result < 0 || result > end) return { root, shape: 'before', filtered };
  return result > start && !aggregate ? { root, shape: 'stream', filtered } : null;
}

/**
 * The `LIMIT`/`OFFSET` of a stream over the loop `start`..`end` whose row is `result`: one
 * `DecrJumpZero` after the row leaving the loop, an optional `OffsetLimit` before the loop with its
 * `IfPos` inside it skipping to `Next`, each register a constant or parameter; else null.
 */
function scanLimit(ops: Op[], limitOps: number[], start: number, end: number, result: number): ScanLimit | null {
  const decr = limitOps.filter((addr) => (ops[addr] as Op).opcode === 'DecrJumpZero');
  const setup = limitOps.filter((addr) => (ops[addr] as Op).opcode === 'OffsetLimit');
  const skip = limitOps.filter((addr) => (ops[addr] as Op).opcode === 'IfPos');
  if (decr.length !== 1 || setup.length > 1 || skip.length !== setup.length) return null;
  const at = decr[0] as number;
  if (at <= result || at >= end || (ops[at] as Op).p2 <= end) return null;
  const limit = operand(ops, (ops[at] as Op).p1, start);
  if (limit === null) return null;
  if (setup.length === 0) return { limit, offset: null };
  const offsetLimit = ops[setup[0] as number] as Op;
  const ifPos = ops[skip[0] as number] as Op;
  if ((setup[0] as number) > start || (skip[0] as number) <= start || (skip[0] as number) >= result) return null;
  if (ifPos.p1 !== offsetLimit.p3 || ifPos.p2 !== end || offsetLimit.p1 !== (ops[at] as Op).p1) return null;
  const offset = operand(ops, offsetLimit.p3, start);
  return offset === null ? null : { limit, offset };
}

/** The program's rowid lookup, when its only counted move is one (see `RowidLookup`), else null. */
function rowidLookup(ops: Op[], opened: Map<number, number>): RowidLookup | null {
  let seek = -1;
  for (let addr = 0; addr < ops.length; addr++) {
    const op = ops[addr] as Op;
    if (UNCOUNTABLE.has(op.opcode)) return null;
    if (!COUNTED.has(op.opcode)) continue;
    if (seek >= 0 || (op.opcode !== 'SeekRowid' && op.opcode !== 'NotExists') || !opened.has(op.p1)) return null;
    seek = addr;
  }
  if (seek < 0) return null;
  const key = (ops[seek] as Op).p3;
  let parameter: number | null | undefined;
  for (let addr = 1; addr < seek; addr++) {
    const op = ops[addr] as Op;
    // A jump over the seek may skip it.
    if (JUMPS.has(op.opcode) && op.p2 > seek) return null;
    if (op.opcode === 'Variable' && op.p2 === key) parameter = op.p1;
    // An integer constant, or a new rowid (the row a CREATE statement adds to sqlite_schema, then updates).
    else if ((op.opcode === 'Integer' || op.opcode === 'NewRowid') && op.p2 === key) parameter = null;
    else if ((WRITES_P2.has(op.opcode) && op.p2 === key) || (WRITES_P3.has(op.opcode) && op.p3 === key)) parameter = undefined;
  }
  return parameter === undefined ? null : { parameter };
}

const LOOPS = new Set(['Next', 'Prev', 'SorterNext', 'VNext']);

/** The table and index inserts of a schema statement (`ParseSchema`) with no loop, else 0. */
function schemaWrites(ops: Op[]): number {
  if (!ops.some((op) => op.opcode === 'ParseSchema') || ops.some((op) => LOOPS.has(op.opcode) || UNCOUNTABLE.has(op.opcode))) return 0;
  // Code a forward `Goto` passes over never runs here (a WITHOUT ROWID table's key index entry).
  const skipped = ops.flatMap((op, addr) => (op.opcode === 'Goto' && op.p2 > addr + 1 ? [[addr, op.p2] as const] : []));
  return ops.filter((op, addr) =>
    (op.opcode === 'Insert' || op.opcode === 'IdxInsert') && !skipped.some(([from, to]) => addr > from && addr < to)).length;
}

const NOOP: Op = { opcode: 'Noop', p1: 0, p2: 0, p3: 0 };

/**
 * The program of a `RETURNING` write without its buffer moves (see `ReturningPlan`), and the reads
 * per changed row those moves make; null when `ops` is no such program.
 */
function returningProgram(ops: Op[], opened: Map<number, number>): { ops: Op[]; perChange: number } | null {
  const ephemeral = new Set(ops.filter((op) => op.opcode === 'OpenEphemeral').map((op) => op.p1));
  const results = ops.flatMap((op, addr) => (op.opcode === 'ResultRow' ? [addr] : []));
  if (results.length !== 1 || ephemeral.size === 0) return null;
  const result = results[0] as number;
  // Loops over a temporary b-tree: `Rewind E` ... `Next E` (jumping back into the loop).
  const loops: Array<[number, number]> = [];
  for (let addr = 0; addr < ops.length; addr++) {
    const op = ops[addr] as Op;
    if (op.opcode !== 'Next' || !ephemeral.has(op.p1)) continue;
    const rewind = ops.findIndex((o, at) => at < op.p2 && o.opcode === 'Rewind' && o.p1 === op.p1);
    if (rewind < 0) return null;
    loops.push([rewind, addr]);
  }
  const readBack = loops.find(([from, to]) => from < result && result < to);
  if (readBack === undefined || readBack[1] !== ops.length - 1 - [...ops].reverse().findIndex((op) => op.opcode === 'Next')) return null;
  const walks = loops.filter((loop) => loop !== readBack);
  // Buffers of changed rows: the walks and `RowSetRead` loops (up to the `Goto` back to them).
  const buffers: Array<[number, number]> = [...walks];
  ops.forEach((op, addr) => {
    if (op.opcode !== 'RowSetRead') return;
    const back = ops.findIndex((o, at) => at > addr && o.opcode === 'Goto' && o.p2 === addr);
    if (back > 0) buffers.push([addr, back]);
  });
  const rest = ops.slice();
  let perChange = walks.length;
  for (const [from, to] of loops) {
    rest[from] = NOOP;
    rest[to] = NOOP;
  }
  for (let addr = readBack[0]; addr <= readBack[1]; addr++) rest[addr] = NOOP;
  ops.forEach((op, addr) => {
    if (['InitCoroutine', 'Yield', 'EndCoroutine', 'OpenEphemeral'].includes(op.opcode)) rest[addr] = NOOP;
    // The re-seek of each buffered row: it exists, so the seek lands.
    if ((op.opcode === 'NotExists' || op.opcode === 'SeekRowid') && opened.has(op.p1) && buffers.some(([from, to]) => from < addr && addr < to)) {
      rest[addr] = NOOP;
      perChange++;
    }
  });
  return { ops: rest, perChange };
}

/** Whether SQLite's numeric affinity makes `value` (a binding) an integer, as a rowid seek needs. */
export function isIntegerKey(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  if (typeof value !== 'string' || value.trim() === '') return false;
  return Number.isInteger(Number(value));
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
