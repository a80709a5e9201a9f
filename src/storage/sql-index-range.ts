/**
 * Two program shapes whose reads are known from the b-trees' sizes (`sql.ts` asks them): a stream
 * over one index range, and a full scan joined to a rowid lookup.
 *
 * A stream over one index range (`WHERE b = 'x'`, `BETWEEN`, `>`; a seek then `Next` until the
 * bound): the reference (workerd) counts the seek when it lands, each `Next` that lands, so the
 * entry that ends the range is read too (`b = 'v3'` over v0..v9: 2 reads, 1 row); at the index's
 * end there is no such entry (`b = 'v9'`: 1). The program tells the bounds (constants or bound
 * parameters); whether an entry lies past the end is a question to the index (`sql.ts` asks it
 * once, when the rows run out). The read per row fetched is counted as for any stream.
 */
import { COUNTED, JUMPS, UNCOUNTABLE, WRITES_P2, WRITES_P3, type Op } from './sql-opcodes.js';

/** A value of a bound's key: a constant, or a bound parameter (1-based). */
export type KeyValue = { value: string | number | null } | { parameter: number };

/** One bound of an index range: the entries `op` its key (a prefix of the index's columns). */
export interface RangeBound {
  op: '>' | '>=';
  key: KeyValue[];
}

/** The index range a program streams (see the file's comment). */
export interface IndexRange {
  /** Root page of the index. */
  root: number;
  /** Where the seek lands: the first entry `op` this key. */
  lower: RangeBound;
  /** The entries that end the range (`IdxGT`: `>`, `IdxGE`: `>=` the key); null: it runs to the index's end. */
  upper: RangeBound | null;
  /** Parameters whose NULL skips the seek (SQLite's `IsNull` before it): no read at all then. */
  nullSkips: number[];
  /**
   * An equality range (the cursor's `OPFLAG_SEEKEQ`): a seek that finds no equal entry is not a
   * landing, so an empty range reads nothing.
   */
  equal: boolean;
}

/** The constant or parameter register `reg` holds at `before`, or null when it is computed. */
function keyValue(ops: Op[], reg: number, before: number): KeyValue | null {
  let found: KeyValue | null = null;
  for (let addr = 1; addr < before; addr++) {
    const op = ops[addr] as Op;
    if (op.opcode === 'String8' && op.p2 === reg) found = { value: String(op.p4) };
    else if (op.opcode === 'Integer' && op.p2 === reg) found = { value: op.p1 };
    else if ((op.opcode === 'Int64' || op.opcode === 'Real') && op.p2 === reg) found = { value: Number(op.p4) };
    else if (op.opcode === 'Variable' && op.p2 === reg) found = { parameter: op.p1 };
    else if (op.opcode === 'Null' && reg >= op.p2 && reg <= Math.max(op.p2, op.p3)) found = { value: null };
    else if ((op.opcode === 'SCopy' || op.opcode === 'Copy') && op.p2 === reg) found = keyValue(ops, op.p1, addr);
    else if ((WRITES_P2.has(op.opcode) && op.p2 === reg) || (WRITES_P3.has(op.opcode) && op.p3 === reg)) found = null;
  }
  return found;
}

/** The key of `count` registers from `first`, as they are at `at`, or null when one is computed. */
function keyAt(ops: Op[], first: number, count: number, at: number): KeyValue[] | null {
  const key: KeyValue[] = [];
  for (let i = 0; i < count; i++) {
    const v = keyValue(ops, first + i, at);
    if (v === null) return null;
    key.push(v);
  }
  return key;
}

/** The program's index range, when its only counted moves are one (see `IndexRange`), else null. */
export function indexRange(ops: Op[], opened: Map<number, number>, indexes: ReadonlyMap<number, boolean>): IndexRange | null {
  let seek = -1;
  let next = -1;
  for (let addr = 0; addr < ops.length; addr++) {
    const op = ops[addr] as Op;
    if (UNCOUNTABLE.has(op.opcode)) return null;
    if (!COUNTED.has(op.opcode)) continue;
    if ((op.opcode === 'SeekGE' || op.opcode === 'SeekGT') && seek < 0 && indexes.has(op.p1)) seek = addr;
    else if (op.opcode === 'Next' && seek >= 0 && next < 0 && op.p1 === (ops[seek] as Op).p1 && op.p2 > seek && op.p2 <= addr) next = addr;
    else return null;
  }
  if (seek < 0 || next < 0) return null;
  const s = ops[seek] as Op;
  const exit = s.p2;
  const results = ops.flatMap((op, addr) => (op.opcode === 'ResultRow' ? [addr] : []));
  if (results.length !== 1 || (results[0] as number) < seek || (results[0] as number) > next) return null;
  const lowerKey = keyAt(ops, s.p3, Number(s.p4), seek);
  if (lowerKey === null) return null;
  // Before the seek: only a NULL key may skip it (an `IsNull` on a key register, to the exit).
  const nullSkips: number[] = [];
  for (let addr = 1; addr < seek; addr++) {
    const op = ops[addr] as Op;
    if (!JUMPS.has(op.opcode) || (op.opcode === 'Goto' && op.p2 <= seek)) continue;
    const value = op.opcode === 'IsNull' && op.p2 === exit ? keyValue(ops, op.p1, addr) : null;
    if (value === null || !('parameter' in value)) return null;
    nullSkips.push(value.parameter);
  }
  // In the loop: nothing skips a row; only the bound at its top ends it.
  let upper: RangeBound | null = null;
  for (let addr = seek + 1; addr < next; addr++) {
    const op = ops[addr] as Op;
    if (!JUMPS.has(op.opcode)) continue;
    if ((op.opcode !== 'IdxGT' && op.opcode !== 'IdxGE') || addr !== (ops[next] as Op).p2 || op.p1 !== s.p1 || op.p2 !== exit || upper !== null) return null;
    const key = keyAt(ops, op.p3, Number(op.p4), addr);
    if (key === null) return null;
    upper = { op: op.opcode === 'IdxGT' ? '>' : '>=', key };
  }
  const root = opened.get(s.p1);
  return root === undefined ? null : { root, lower: { op: s.opcode === 'SeekGE' ? '>=' : '>', key: lowerKey }, upper, nullSkips, equal: indexes.get(s.p1) === true };
}

/**
 * A join of a full scan with a rowid lookup per row (`FROM t x JOIN u y ON y.rowid = x.k`, the
 * lookup unconditional): the reference reads each outer row and each lookup, found or not, so
 * `2 × N` for N outer rows (1 for none: the first move of an empty scan). Rows come out as the
 * loop passes them: two reads each until the end, where the total is known.
 */
export interface LookupJoin {
  /** Root page of the scanned (outer) b-tree. */
  outer: number;
  /**
   * Root page of the inner b-tree when it is scanned whole for each outer row (a cross join: one
   * read per row, plus each outer move and inner first move; an empty inner b-tree ends the program
   * at its first move), undefined for a rowid lookup.
   */
  inner?: number;
}

/** The program's cross join of two whole scans (see `LookupJoin.inner`), else null. */
function crossJoin(ops: Op[], opened: Map<number, number>): LookupJoin | null {
  const counted = ops.flatMap((op, addr) => (COUNTED.has(op.opcode) ? [addr] : []));
  if (counted.length !== 4 || ops.some((op) => UNCOUNTABLE.has(op.opcode))) return null;
  const [r1, r2, n2, n1] = counted.map((addr) => ops[addr] as Op) as [Op, Op, Op, Op];
  const [a1, a2, a3, a4] = counted as [number, number, number, number];
  if (r1.opcode !== 'Rewind' || r2.opcode !== 'Rewind' || n2.opcode !== 'Next' || n1.opcode !== 'Next') return null;
  if (!opened.has(r1.p1) || !opened.has(r2.p1) || r1.p1 === r2.p1 || n2.p1 !== r2.p1 || n1.p1 !== r1.p1) return null;
  if (n1.p2 !== a2 || n2.p2 <= a2 || n2.p2 > a3 || a4 !== a3 + 1) return null;
  const results = ops.flatMap((op, addr) => (op.opcode === 'ResultRow' ? [addr] : []));
  if (results.length !== 1 || (results[0] as number) < a2 || (results[0] as number) > a3) return null;
  for (let addr = 1; addr < a4; addr++) {
    const op = ops[addr] as Op;
    if (JUMPS.has(op.opcode) && !(op.opcode === 'Goto' && op.p2 <= a1)) return null;
  }
  return { outer: opened.get(r1.p1) as number, inner: opened.get(r2.p1) as number };
}

/** The program's lookup join (see `LookupJoin`), when its counted moves are one, else null. */
export function lookupJoin(ops: Op[], opened: Map<number, number>): LookupJoin | null {
  const cross = crossJoin(ops, opened);
  if (cross !== null) return cross;
  let rewind = -1;
  let seek = -1;
  let next = -1;
  for (let addr = 0; addr < ops.length; addr++) {
    const op = ops[addr] as Op;
    if (UNCOUNTABLE.has(op.opcode) || op.opcode === 'MustBeInt') return null;
    if (!COUNTED.has(op.opcode)) continue;
    if (op.opcode === 'Rewind' && rewind < 0 && opened.has(op.p1)) rewind = addr;
    else if ((op.opcode === 'SeekRowid' || op.opcode === 'NotExists') && rewind >= 0 && seek < 0 && opened.has(op.p1) && op.p1 !== (ops[rewind] as Op).p1) seek = addr;
    else if (op.opcode === 'Next' && seek >= 0 && next < 0 && op.p1 === (ops[rewind] as Op).p1 && op.p2 > rewind && op.p2 < seek) next = addr;
    else return null;
  }
  if (next < 0 || (ops[seek] as Op).p2 !== next) return null;
  const results = ops.flatMap((op, addr) => (op.opcode === 'ResultRow' ? [addr] : []));
  if (results.length !== 1 || (results[0] as number) < seek || (results[0] as number) > next) return null;
  // Every outer row reaches the lookup: nothing in the loop, nor before it, jumps.
  for (let addr = 1; addr < next; addr++) {
    const op = ops[addr] as Op;
    if (JUMPS.has(op.opcode) && !(op.opcode === 'Goto' && op.p2 <= rewind)) return null;
  }
  return { outer: opened.get((ops[rewind] as Op).p1) as number };
}
