/**
 * SQL cursors of a read-only session (`sql.ts`): their rows are read in one call at `exec()`, which
 * must show nothing a lazily stepped cursor would not: the same rows, `rowsRead` growing as rows are
 * taken, and an error SQLite meets at a row thrown when the cursor steps to that row, not at `exec()`. Each
 * step of a cursor is compared with the same step over the same file opened for writing.
 */
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ObjectState } from '../../src/storage/index.js';
import { openNamespace, Probe, probe, tempDir } from './helpers.js';

/** What each step of a cursor gave: a row (and `rowsRead` after it), the end, or an error. */
function steps(ctx: ObjectState, query: string): unknown[] {
  const out: unknown[] = [];
  let cursor;
  try {
    cursor = ctx.storage.sql.exec(query);
  } catch (err) {
    return [`exec: ${(err as Error).message}`];
  }
  out.push(cursor.rowsRead);
  for (;;) {
    try {
      const next = cursor.next();
      if (next.done === true) return [...out, 'done'];
      out.push(next.value, cursor.rowsRead);
    } catch (err) {
      return [...out, `next: ${(err as Error).message}`];
    }
  }
}

const Statement = new Database(':memory:').prepare('SELECT 1').constructor as { prototype: { all: () => unknown[] } };

/** The queries, of `queries`, whose rows were read in one call since the spy was set. */
function readWhole(all: { mock: { contexts: unknown[] } }, queries: string[]): string[] {
  return all.mock.contexts.map((stmt) => (stmt as { source: string }).source).filter((q) => queries.includes(q));
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a cursor of a read-only session', () => {
  it('steps as a lazy cursor does: rows, rowsRead, and an error at its own row', async () => {
    const dir = tempDir();
    const writer = openNamespace(Probe, { dir });
    await probe(writer)(({ storage: { sql } }) => {
      sql.exec('CREATE TABLE t (a INTEGER)');
      for (let a = 1; a <= 5; a++) sql.exec('INSERT INTO t VALUES (?)', a);
    });
    await writer.close();
    const queries = [
      'SELECT a FROM t',
      'SELECT a, a * 2 AS b FROM t WHERE a > 2 ORDER BY a DESC',
      // json('{') fails when its row is stepped: the third.
      "SELECT CASE WHEN a = 3 THEN json('{') ELSE a END AS v FROM t",
      'SELECT count(*) AS n FROM t',
    ];
    const all = vi.spyOn(Statement.prototype, 'all');
    const reader = openNamespace(Probe, { dir, readOnly: true });
    const read = await probe(reader)((ctx) => queries.map((q) => steps(ctx, q)));
    await reader.close();
    // The fast path ran (the failing query too, before it fell back to stepping).
    expect(readWhole(all, queries)).toEqual(queries);
    all.mockClear();
    const lazy = await probe(openNamespace(Probe, { dir }))((ctx) => queries.map((q) => steps(ctx, q)));
    expect(readWhole(all, queries)).toEqual([]);
    expect(read).toEqual(lazy);
    // One row of look-ahead: taking the second row steps the third, which fails.
    expect(read[2]).toEqual([1, { v: 1 }, 2, expect.stringMatching(/^next: malformed JSON/)]);
  });
});
