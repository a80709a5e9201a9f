/**
 * What a statement's bytecode (`EXPLAIN`) tells the cursor counters. The reference runtime counts
 * `rowsRead` and `rowsWritten` inside a patched SQLite (every b-tree seek or step that lands on a
 * row; every table and index insert). Stock SQLite, as better-sqlite3 ships it, counts neither, so
 * zonewall reads the compiled program once per statement and counts what it can see from outside:
 *
 * | program                                         | rowsRead                     | rowsWritten                        |
 * |-------------------------------------------------|------------------------------|------------------------------------|
 * | reads a table or index (OpenRead/OpenWrite)      | +1 per row fetched           |                                    |
 * | reads no table (`SELECT 1`, `json_each`)         | 0                            |                                    |
 * | `count(*)` answered from a b-tree (`Count`)      | + the rows of that table     |                                    |
 * | write that locates rows (seek, rewind)           | rows changed (a lower bound) |                                    |
 * | write                                            |                              | rows changed (`total_changes()`)   |
 * | insert into indexed table (`IdxInsert`)          |                              | + one per index entry per row      |
 *
 * What stays different (a filtered scan reads every row it passes in the reference, only the rows
 * it returns here) is recorded in the differential suite's cases and in the README.
 */
import type Database from 'better-sqlite3';

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
}

interface Op {
  opcode: string;
  p1: number;
  p2: number;
}

// Ops that land a cursor on existing rows. Uniqueness probes (NoConflict, Found) are not among them:
// the reference counts 0 rows read for an insert into a WITHOUT ROWID table, which probes its key.
const SEEKS = new Set(['Rewind', 'Last', 'SeekGE', 'SeekGT', 'SeekLE', 'SeekLT', 'SeekRowid', 'NotExists']);

/** Reads the program of `sql` (parameters bound to NULL, nothing runs) and derives its counting facts. */
export function planStatement(db: Database.Database, sql: string, nullBindings: unknown[]): StatementPlan {
  const ops = db.prepare(`EXPLAIN ${sql}`).all(...nullBindings) as Op[];
  const opened = new Map<number, number>();
  const countCursors = new Set<number>();
  let idxInserts = 0;
  let inserts = 0;
  let seeks = false;
  for (const op of ops) {
    if (op.opcode === 'OpenRead' || op.opcode === 'OpenWrite') opened.set(op.p1, op.p2);
    else if (op.opcode === 'Count') countCursors.add(op.p1);
    else if (op.opcode === 'IdxInsert') idxInserts++;
    else if (op.opcode === 'Insert') inserts++;
    if (SEEKS.has(op.opcode)) seeks = true;
  }
  const countRoots = [...countCursors].map((cursor) => opened.get(cursor)).filter((root): root is number => root !== undefined);
  return {
    readsPerRow: [...opened.keys()].some((cursor) => !countCursors.has(cursor)),
    countRoots,
    seeks,
    // A WITHOUT ROWID table is itself an index b-tree: its row is the first IdxInsert, not an Insert.
    indexWritesPerRow: Math.max(0, idxInserts - (inserts > 0 ? 0 : 1)),
  };
}

/** The rows in the tables whose b-trees (tables or indexes) have the given root pages. */
export function rowsUnder(db: Database.Database, roots: number[]): number {
  let rows = 0;
  for (const root of roots) {
    const table = db.prepare('SELECT tbl_name FROM sqlite_schema WHERE rootpage = ?').pluck().get(root) as string | undefined;
    if (table !== undefined) rows += db.prepare(`SELECT count(*) FROM "${table.replace(/"/g, '""')}"`).pluck().get() as number;
  }
  return rows;
}
