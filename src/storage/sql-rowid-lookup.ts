/**
 * The rowid lookup (`RowidLookup`, `WHERE rowid = ?`): a program whose only counted move is one
 * seek by rowid, which the reference counts as one read, found or not, unless the key is no integer
 * (`isIntegerKey`, asked by `sql.ts` with the statement's bindings).
 */
import { COUNTED, JUMPS, UNCOUNTABLE, WRITES_P2, WRITES_P3, type Op } from './sql-opcodes.js';

/**
 * A program whose only counted move is one `SeekRowid`/`NotExists`, outside any loop: the reference
 * counts one read whether the row is there or not, none when the key is not an integer (SQLite then
 * skips the seek).
 */
export interface RowidLookup {
  /** The parameter (1-based) holding the key; null: the key is an integer constant. */
  parameter: number | null;
}

/** The program's rowid lookup, when its only counted move is one (see `RowidLookup`), else null. */
export function rowidLookup(ops: Op[], opened: Map<number, number>): RowidLookup | null {
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

/** Whether SQLite's numeric affinity makes `value` (a binding) an integer, as a rowid seek needs. */
export function isIntegerKey(value: unknown): boolean {
  if (typeof value === 'number') return Number.isInteger(value);
  if (typeof value !== 'string' || value.trim() === '') return false;
  return Number.isInteger(Number(value));
}
