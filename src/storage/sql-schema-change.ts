/**
 * Schema changes whose counts are known (`SchemaChange`): what `CREATE INDEX`, `DROP` and `ALTER
 * TABLE ... ADD COLUMN` programs read and write, from the sizes of sqlite_schema and of the b-trees
 * they read (the cursor counters of `sql-plan.ts`).
 */
import { COUNTED, type Op } from './sql-opcodes.js';

/**
 * A schema change whose counts follow from the sizes of sqlite_schema and of the b-trees it reads
 * (measured in the reference, workerd, case by case: test/storage/differential/counters.cases.ts):
 *
 * | statement (program shape)                          | rowsRead                                   | rowsWritten        |
 * |----------------------------------------------------|--------------------------------------------|--------------------|
 * | CREATE INDEX (scan into a sorter, then IdxInsert)  | max(N, 1) + max(E, 1) + min(E, 2)          | E + its schema row |
 * | DROP TABLE / INDEX / VIEW (scan of sqlite_schema,  | max(S, 1) + 1 per `Destroy` (the root-move  | 0                  |
 * |   `Destroy` of each b-tree)                        |   loop's first move, on an empty buffer)   |                    |
 * | ALTER TABLE ADD COLUMN (sqlite_schema scan into a  | max(S, 1) + 2 (the buffered row, its       | 1                  |
 * |   buffer, the table's row rewritten)               |   re-seek)                                 |                    |
 *
 * N: the table's rows; E: the index's entries (a partial index: the rows its WHERE keeps); S: the
 * rows of sqlite_schema before the statement. `min(E, 2)`: the index cursor's `SeekEnd` moves at
 * the first insert and again at the second. The other ALTERs (RENAME, DROP COLUMN) re-parse every
 * schema row through SQL functions and stay uncounted (0).
 */
export type SchemaChange =
  | { kind: 'createIndex'; tableRoot: number; index: string; schemaInserts: number }
  | { kind: 'scanSchema'; extraReads: number; writes: number };

/** The index a CREATE INDEX program builds (its `ParseSchema` names it), else null. */
function createdIndex(ops: Op[]): string | null {
  const parse = ops.find((op) => op.opcode === 'ParseSchema');
  const m = typeof parse?.p4 === 'string' ? /^name='((?:[^']|'')*)' AND type='index'$/.exec(parse.p4) : null;
  return m === null ? null : (m[1] as string).replace(/''/g, "'");
}

/** The schema change `ops` is, when its counts are known (see `SchemaChange`), else null. */
export function schemaChange(ops: Op[], opened: Map<number, number>): SchemaChange | null {
  const drops = ops.some((op) => op.opcode === 'DropTable' || op.opcode === 'DropIndex' || op.opcode === 'DropTrigger');
  if (!drops && !ops.some((op) => op.opcode === 'ParseSchema')) return null;
  // RENAME and DROP COLUMN rewrite every schema row through SQL functions: not modelled.
  if (ops.some((op) => (op.opcode === 'Function' || op.opcode === 'PureFunc') && typeof op.p4 === 'string' && /sqlite_(rename|drop_column)/.test(op.p4))) return null;
  const ephemeral = new Set(ops.filter((op) => op.opcode === 'OpenEphemeral').map((op) => op.p1));
  const onSchema = (cursor: number) => opened.get(cursor) === 1;
  // The root-move loops after each `Destroy` (`IfNot` over them) never run: no page moves here.
  const skipped: Array<[number, number]> = [];
  ops.forEach((op, addr) => {
    if (op.opcode !== 'Destroy') return;
    const guard = ops.findIndex((o, at) => at > addr && at <= addr + 4 && o.opcode === 'IfNot');
    if (guard > 0) skipped.push([guard, (ops[guard] as Op).p2]);
  });
  const buffers = ops.flatMap((op, addr) => (op.opcode === 'Rewind' && ephemeral.has(op.p1) ? [[addr, op.p2] as [number, number]] : []));
  const index = createdIndex(ops);
  let schemaScans = 0;
  let emptyBuffers = 0;
  let tableRoot = -1;
  let reseeks = 0;
  for (let addr = 0; addr < ops.length; addr++) {
    const op = ops[addr] as Op;
    if (skipped.some(([from, to]) => addr > from && addr < to) || !COUNTED.has(op.opcode)) continue;
    // A DROP's root-move buffer is empty: nothing inside its loop runs.
    if (drops && buffers.some(([from, to]) => addr > from && addr < to)) continue;
    if (op.opcode === 'Rewind' && onSchema(op.p1)) schemaScans++;
    else if (op.opcode === 'Next' && (onSchema(op.p1) || ephemeral.has(op.p1))) continue;
    else if (op.opcode === 'Rewind' && ephemeral.has(op.p1)) emptyBuffers++;
    else if (op.opcode === 'NotExists' && onSchema(op.p1)) reseeks++;
    else if (index !== null && (op.opcode === 'Rewind' || op.opcode === 'Next') && opened.has(op.p1) && (tableRoot < 0 || opened.get(op.p1) === tableRoot)) tableRoot = opened.get(op.p1) as number;
    else if (index !== null && (op.opcode === 'SorterSort' || op.opcode === 'SorterNext')) continue;
    else return null;
  }
  if (index !== null) {
    if (tableRoot < 0 || schemaScans > 0 || emptyBuffers > 0 || reseeks > 0) return null;
    const schemaInserts = ops.filter((op) => op.opcode === 'Insert' && onSchema(op.p1)).length;
    return { kind: 'createIndex', tableRoot, index, schemaInserts };
  }
  if (schemaScans !== 1) return null;
  if (drops) return reseeks === 0 ? { kind: 'scanSchema', extraReads: emptyBuffers, writes: 0 } : null;
  // ADD COLUMN: the table's own schema row is buffered, re-sought and rewritten.
  return emptyBuffers === 1 && reseeks === 1 ? { kind: 'scanSchema', extraReads: 2, writes: 1 } : null;
}
