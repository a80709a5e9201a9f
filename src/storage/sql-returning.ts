/**
 * A write with `RETURNING` (`ReturningPlan`): its buffer moves, which the reference counts per
 * changed row and per returned row, taken out of its program so that what remains (the write's own
 * part) is counted as any write's (`sql-plan.ts`).
 */
import type { Op } from './sql-opcodes.js';

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

const NOOP: Op = { opcode: 'Noop', p1: 0, p2: 0, p3: 0 };

/**
 * The program of a `RETURNING` write without its buffer moves (see `ReturningPlan`), and the reads
 * per changed row those moves make; null when `ops` is no such program.
 */
export function returningProgram(ops: Op[], opened: Map<number, number>): { ops: Op[]; perChange: number } | null {
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
