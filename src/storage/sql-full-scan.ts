/**
 * The full scan (`FullScan`): a program whose only counted b-tree moves are one `Rewind`/`Last` +
 * `Next`/`Prev` loop over a table or index (and a sorter read back once), with no subquery, trigger
 * or early exit, optionally cut by a constant or bound `LIMIT`/`OFFSET`. Its reads follow from its
 * b-tree's entries (the table of `sql-plan.ts`), which `sql.ts` counts when it runs it.
 */
import { COUNTED, JUMPS, UNCOUNTABLE, WRITES_P2, WRITES_P3, type Op } from './sql-opcodes.js';

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
export function fullScan(ops: Op[], opened: Map<number, number>): FullScan | null {
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
