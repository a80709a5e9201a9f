/**
 * The VDBE opcodes the counting of `sql-plan.ts` looks at (names as `EXPLAIN` prints them), and the
 * shape of one row of `EXPLAIN`, shared by the program readers (`sql-plan.ts`, `sql-schema-change.ts`,
 * `sql-index-range.ts`).
 */

/** One instruction of a compiled program, as `EXPLAIN` lists it. */
export interface Op {
  opcode: string;
  p1: number;
  p2: number;
  p3: number;
  p4?: string | number | null;
  p5?: number;
}

// Ops the reference counts as reads (row-count patch of its SQLite: b-tree moves, `count(*)`, virtual table steps).
export const COUNTED = new Set([
  'Rewind', 'Last', 'Next', 'Prev', 'SeekGE', 'SeekGT', 'SeekLE', 'SeekLT', 'SeekRowid', 'NotExists',
  'SorterSort', 'Sort', 'SorterNext', 'VNext', 'Count',
]);
// Ops after which a full scan's reads are not its b-tree's size: subroutines and coroutines (subqueries),
// temporary b-trees (DISTINCT, IN lists, RETURNING), LIMIT and OFFSET, triggers, window functions.
export const UNCOUNTABLE = new Set([
  'Gosub', 'Yield', 'InitCoroutine', 'OpenEphemeral', 'OpenAutoindex', 'OpenDup', 'VOpen', 'VFilter', 'Program',
  'DecrJumpZero', 'IfPos', 'IfNotZero', 'OffsetLimit', 'AggInverse', 'AggValue',
]);
// Ops that jump to P2: inside a scan's loop, a jump to its `Next` skips a row; one out of the loop ends it early.
export const JUMPS = new Set([
  'Goto', 'If', 'IfNot', 'IsNull', 'NotNull', 'Eq', 'Ne', 'Lt', 'Le', 'Gt', 'Ge', 'ElseEq', 'IsType', 'IsTrue',
  'Found', 'NotFound', 'NoConflict', 'IfNullRow', 'Once', 'Jump', 'IdxGT', 'IdxGE', 'IdxLT', 'IdxLE',
]);

// Ops that write register P2 or P3: after one of them, a key register holds a computed value.
export const WRITES_P2 = new Set(['Copy', 'SCopy', 'IntCopy', 'Rowid', 'String8', 'Real', 'Int64', 'Blob', 'Null']);
export const WRITES_P3 = new Set([
  'Column', 'Add', 'Subtract', 'Multiply', 'Divide', 'Remainder', 'Concat', 'Function', 'PureFunc', 'BitAnd', 'BitOr',
  'ShiftLeft', 'ShiftRight',
]);
