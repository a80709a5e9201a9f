/**
 * The lazily stepped SQL cursor on zonewall's side of things the differential suite cannot reach:
 * an unfinished cursor across a WAL checkpoint (which SQLite refuses under a running statement),
 * across events, and at namespace close. Each would break the object if the cursor were not parked.
 */
import { describe, expect, it } from 'vitest';
import type { SqlStorageCursor } from '../../src/storage/index.js';
import { openNamespace, Probe, probe, tempDir } from './helpers.js';

type Cursor = SqlStorageCursor<{ a: number }>;

describe('an unfinished SQL cursor', () => {
  it('survives a WAL checkpoint: its remaining rows are buffered and the writes commit', async () => {
    const ns = openNamespace(Probe, { backend: 'sqlite' });
    const run = probe(ns);
    let cursor: Cursor | undefined;
    await run(({ storage: { sql } }) => {
      sql.exec('CREATE TABLE t (a); CREATE TABLE big (b BLOB)');
      for (let i = 0; i < 5; i++) sql.exec('INSERT INTO t VALUES (?)', i);
    });
    const first = await run(({ storage: { sql } }) => {
      cursor = sql.exec<{ a: number }>('SELECT a FROM t ORDER BY a');
      const row = cursor.next().value;
      // Over 1,000 WAL frames in one commit: the PITR recorder checkpoints right after it.
      for (let i = 0; i < 1200; i++) sql.exec('INSERT INTO big VALUES (zeroblob(4000))');
      return row;
    });
    const after = await run(({ storage: { sql } }) => ({
      rest: (cursor as Cursor).toArray().map((r) => r.a),
      big: sql.exec<{ n: number }>('SELECT count(*) AS n FROM big').one().n,
    }));
    expect({ first, ...after }).toEqual({ first: { a: 0 }, rest: [1, 2, 3, 4], big: 1200 });
  });

  it('goes on in a later event and sees rows written meanwhile', async () => {
    const run = probe(openNamespace(Probe, { backend: 'sqlite' }));
    let cursor: Cursor | undefined;
    await run(({ storage: { sql } }) => {
      sql.exec('CREATE TABLE t (a); INSERT INTO t VALUES (1), (2)');
      cursor = sql.exec<{ a: number }>('SELECT a FROM t');
      cursor.next();
    });
    await run(({ storage: { sql } }) => sql.exec('INSERT INTO t VALUES (3)'));
    expect(await run(() => (cursor as Cursor).toArray().map((r) => r.a))).toEqual([2, 3]);
  });

  it('does not stop the namespace from closing, and the data is kept', async () => {
    const dir = tempDir();
    const ns = openNamespace(Probe, { backend: 'sqlite', dir });
    let cursor: Cursor | undefined;
    await probe(ns)(({ storage: { sql } }) => {
      sql.exec('CREATE TABLE t (a); INSERT INTO t VALUES (1), (2), (3)');
      cursor = sql.exec<{ a: number }>('SELECT a FROM t');
    });
    await ns.close();
    const reopened = openNamespace(Probe, { backend: 'sqlite', dir });
    const count = await probe(reopened)(({ storage: { sql } }) => sql.exec<{ n: number }>('SELECT count(*) AS n FROM t').one().n);
    expect({ count, rest: (cursor as Cursor).toArray().map((r) => r.a) }).toEqual({ count: 3, rest: [1, 2, 3] });
  });

  it('runs the same query again while the first cursor is unfinished (a one-off statement)', async () => {
    const run = probe(openNamespace(Probe, { backend: 'sqlite' }));
    const result = await run(({ storage: { sql } }) => {
      sql.exec('CREATE TABLE t (a); INSERT INTO t VALUES (1), (2)');
      const one = sql.exec<{ a: number }>('SELECT a FROM t');
      const two = sql.exec<{ a: number }>('SELECT a FROM t');
      const three = sql.exec<{ a: number }>('SELECT a FROM t');
      return [one.next().value, two.toArray(), three.toArray(), one.toArray()];
    });
    expect(result).toEqual([{ a: 1 }, [{ a: 1 }, { a: 2 }], [{ a: 1 }, { a: 2 }], [{ a: 2 }]]);
  });

  it('many left unfinished: the oldest are parked and still read on', async () => {
    const run = probe(openNamespace(Probe, { backend: 'sqlite' }));
    const result = await run(({ storage: { sql } }) => {
      sql.exec('CREATE TABLE t (a); INSERT INTO t VALUES (1), (2), (3)');
      const cursors = Array.from({ length: 100 }, () => sql.exec<{ a: number }>('SELECT a FROM t'));
      sql.exec('INSERT INTO t VALUES (4)');
      // The first cursors were parked (their rows buffered) before the insert; the last still run.
      return { first: cursors[0]?.toArray().length, last: cursors[99]?.toArray().length };
    });
    expect(result).toEqual({ first: 3, last: 4 });
  });

  it('parked, keeps an error met in its rest for when the reader reaches it', async () => {
    const run = probe(openNamespace(Probe, { backend: 'sqlite' }));
    const result = await run(({ storage: { sql } }) => {
      const failing = sql.exec("SELECT abs(CASE WHEN value = 3 THEN -9223372036854775808 ELSE value END) AS a FROM json_each('[1,2,3]')");
      // Enough unfinished cursors after it that it is parked (its rest read, the error met).
      const others = Array.from({ length: 70 }, () => sql.exec('SELECT 1 AS x UNION ALL SELECT 2'));
      const rows = [failing.next().value];
      let error = '';
      try {
        // Takes row 2 and fetches row 3 ahead, as an unparked cursor would: that fetch fails.
        failing.next();
      } catch (err) {
        error = (err as Error).message;
      }
      return { rows, error, others: others.length };
    });
    expect(result).toEqual({ rows: [{ a: 1 }], error: 'integer overflow: SQLITE_ERROR', others: 70 });
  });
});
