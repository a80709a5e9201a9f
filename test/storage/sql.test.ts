/**
 * The SQL API of seed 001 ("SQL operation", SqlStorageCursor properties and methods,
 * `databaseSize`, the hidden KV table) and the reference's restrictions and messages.
 */
import Database from 'better-sqlite3';
import { describe, it, expect, vi } from 'vitest';
import { SqlError, SqlStorageCursor, StorageUnsupportedError, TransactionError, type ObjectState } from '../../src/storage/index.js';
import { openNamespace, Probe, probe } from './helpers.js';

const open = () => probe(openNamespace(Probe, { backend: 'sqlite' }));

function sqlErrorOf(fn: () => unknown): SqlError {
  try {
    fn();
  } catch (err) {
    return err as SqlError;
  }
  throw new Error('expected an error');
}

describe('sql.exec and the cursor', () => {
  it('binds ? placeholders and returns row objects, iterable with for-of and spread', async () => {
    const run = open();
    const result = await run(({ storage: { sql } }) => {
      sql.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, name TEXT, score REAL)');
      sql.exec('INSERT INTO t (name, score) VALUES (?, ?), (?, ?), (?, ?)', 'a', 1.5, 'b', 2, 'c', null);
      const names: string[] = [];
      for (const row of sql.exec<{ name: string }>('SELECT name FROM t ORDER BY id')) names.push(row.name);
      return {
        names,
        spread: [...sql.exec('SELECT id FROM t WHERE score IS NULL')],
        from: Array.from(sql.exec('SELECT count(*) AS n FROM t')),
        cursorType: sql.exec('SELECT 1') instanceof SqlStorageCursor,
      };
    });
    expect(result).toEqual({ names: ['a', 'b', 'c'], spread: [{ id: 3 }], from: [{ n: 3 }], cursorType: true });
  });

  it('next() yields {done:false,value} then {done:true} with no value', async () => {
    const run = open();
    const steps = await run(({ storage: { sql } }) => {
      const cursor = sql.exec('SELECT 1 AS x UNION ALL SELECT 2');
      return [cursor.next(), cursor.next(), cursor.next(), cursor.next()];
    });
    expect(steps).toEqual([{ done: false, value: { x: 1 } }, { done: false, value: { x: 2 } }, { done: true }, { done: true }]);
    expect('value' in steps[2]!).toBe(false);
  });

  it('toArray() consumes the remaining rows; raw() shares the position', async () => {
    const run = open();
    const result = await run(({ storage: { sql } }) => {
      const cursor = sql.exec('SELECT value AS v, value * 10 AS w FROM json_each(?)', '[1,2,3,4]');
      const first = cursor.next().value;
      const raw = cursor.raw();
      const second = raw.next().value;
      return { first, second, rest: cursor.toArray(), after: raw.toArray(), names: cursor.columnNames, rawHasNames: 'columnNames' in raw };
    });
    expect(result).toEqual({
      first: { v: 1, w: 10 }, second: [2, 20], rest: [{ v: 3, w: 30 }, { v: 4, w: 40 }], after: [],
      // The reference's raw() iterator has no columnNames; the cursor's apply to its arrays.
      names: ['v', 'w'], rawHasNames: false,
    });
  });

  it('one() returns the only row, and throws for zero rows or several', async () => {
    const run = open();
    const result = await run(({ storage: { sql } }) => ({
      one: sql.exec('SELECT 42 AS answer').one(),
      rawOne: sql.exec('SELECT 1, 2').raw().one(),
      none: sqlErrorOf(() => sql.exec('SELECT 1 WHERE 0').one()).message,
      many: sqlErrorOf(() => sql.exec('SELECT 1 UNION ALL SELECT 2').one()).message,
    }));
    expect(result.one).toEqual({ answer: 42 });
    expect(result.rawOne).toEqual([1, 2]);
    expect(result.none).toBe('Expected exactly one result from SQL query, but got no results.');
    expect(result.many).toBe('Expected exactly one result from SQL query, but got multiple results.');
  });

  it('columnNames keeps duplicates (row objects keep the later column) and is [] without columns', async () => {
    const run = open();
    const result = await run(({ storage: { sql } }) => {
      sql.exec('CREATE TABLE a (x, y); CREATE TABLE b (y, z); INSERT INTO a VALUES (1, 2); INSERT INTO b VALUES (3, 4)');
      const cursor = sql.exec('SELECT * FROM a, b');
      return { names: cursor.columnNames, row: cursor.one(), ddl: sql.exec('CREATE TABLE c (q)').columnNames };
    });
    expect(result).toEqual({ names: ['x', 'y', 'y', 'z'], row: { x: 1, y: 3, z: 4 }, ddl: [] });
  });

  it('rowsRead and rowsWritten count the rows of each query (triggers included)', async () => {
    const run = open();
    const result = await run(({ storage: { sql } }) => {
      sql.exec('CREATE TABLE t (v); CREATE TABLE log (v)');
      sql.exec('CREATE TRIGGER tr AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.v); END');
      const insert = sql.exec('INSERT INTO t VALUES (1), (2)');
      const select = sql.exec('SELECT * FROM t');
      const consumedBefore = select.rowsRead;
      select.toArray();
      const update = sql.exec('UPDATE t SET v = v + 1 WHERE v = 2');
      const missing = sql.exec('DELETE FROM t WHERE v = 99');
      return {
        insertWritten: insert.rowsWritten, selectRead: select.rowsRead, selectWritten: select.rowsWritten,
        consumedBefore, updateWritten: update.rowsWritten, missingWritten: missing.rowsWritten,
      };
    });
    expect(result).toEqual({
      // rowsRead grows as rows are fetched: exec() fetches the first (the reference's look-ahead).
      insertWritten: 4, selectRead: 2, selectWritten: 0, consumedBefore: 1, updateWritten: 1, missingWritten: 0,
    });
  });

  it('reads a statement\'s program once for every object of the same schema, and apart for another schema', async () => {
    const ns = openNamespace(Probe, { backend: 'sqlite' });
    const query = 'SELECT v AS shared_plan FROM t';
    const explain = vi.spyOn(Database.prototype, 'prepare');
    const explained = () => explain.mock.calls.filter(([sql]) => sql === `EXPLAIN ${query}`).length;
    try {
      const read = (name: string, schema: string) => probe(ns, name)(({ storage: { sql } }) => {
        sql.exec(schema);
        const cursor = sql.exec(query);
        return { rows: cursor.toArray().length, read: cursor.rowsRead };
      });
      const table = 'CREATE TABLE t (v); INSERT INTO t VALUES (1), (2)';
      expect(await read('a', table)).toEqual({ rows: 2, read: 2 });
      expect(await read('b', table)).toEqual({ rows: 2, read: 2 });
      expect(explained()).toBe(1);
      // The same text over a view of constants opens no table: nothing is read.
      expect(await read('c', 'CREATE VIEW t AS SELECT 1 AS v UNION ALL SELECT 2')).toEqual({ rows: 2, read: 0 });
      expect(explained()).toBe(2);
    } finally {
      explain.mockRestore();
    }
  });

  it('runs several statements; bindings apply to the last, and the cursor covers only it', async () => {
    const run = open();
    const rows = await run(({ storage: { sql } }) =>
      sql.exec("CREATE TABLE t (v); INSERT INTO t VALUES ('x'); SELECT v, ? AS p FROM t", 'bound').toArray());
    expect(rows).toEqual([{ v: 'x', p: 'bound' }]);
  });

  it('keeps semicolons inside strings, comments and trigger bodies', async () => {
    const run = open();
    const rows = await run(({ storage: { sql } }) => {
      sql.exec(`CREATE TABLE t (v TEXT); CREATE TABLE audit (n INTEGER);
        CREATE TRIGGER t_ins AFTER INSERT ON t BEGIN
          INSERT INTO audit VALUES (CASE WHEN new.v = 'a;b' THEN 1 ELSE 0 END);
          INSERT INTO audit VALUES (2);
        END; -- a comment; with a semicolon
        INSERT INTO t VALUES ('a;b') /* ; */`);
      return sql.exec('SELECT n FROM audit ORDER BY n').raw().toArray().flat();
    });
    expect(rows).toEqual([1, 2]);
  });

  it('converts bindings and results as the reference does', async () => {
    const run = open();
    const result = await run(({ storage: { sql } }) => {
      const row = sql.exec(
        'SELECT ? AS t, ? AS f, ? AS n, ? AS u, typeof(?) AS numType, ? AS blob, ? AS view',
        true, false, null, undefined, 1, new Uint8Array([1, 2, 3]).buffer, new Uint8Array([9, 8, 7, 6]).subarray(1, 3),
      ).one();
      const bigint = (() => {
        try {
          sql.exec('SELECT ?', 1n);
          return 'accepted';
        } catch (err) {
          return (err as Error).constructor.name;
        }
      })();
      return { ...row, blob: [...new Uint8Array(row.blob as ArrayBuffer)], view: [...new Uint8Array(row.view as ArrayBuffer)], isAb: row.blob instanceof ArrayBuffer, bigint };
    });
    expect(result).toEqual({
      t: 'true', f: 'false', n: null, u: null, numType: 'real', blob: [1, 2, 3], view: [8, 7], isAb: true, bigint: 'StorageTypeError',
    });
  });

  it('writes take effect even when the cursor is never read', async () => {
    const run = open();
    const n = await run(({ storage: { sql } }) => {
      sql.exec('CREATE TABLE t (v)');
      sql.exec('INSERT INTO t VALUES (1) RETURNING v');
      return sql.exec('SELECT count(*) AS n FROM t').one().n;
    });
    expect(n).toBe(1);
  });

  it('SQL writes join the implicit transaction and the same transaction() as KV writes', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      storage.sql.exec('CREATE TABLE t (v)');
      await storage.transaction(async () => {
        storage.sql.exec('INSERT INTO t VALUES (1)');
        await storage.put('k', 1);
        throw new Error('undo both');
      }).catch(() => undefined);
      return { rows: storage.sql.exec('SELECT count(*) AS n FROM t').one().n, k: await storage.get('k') };
    });
    expect(result).toEqual({ rows: 0, k: undefined });
  });
});

describe('sql errors and restrictions', () => {
  const cases: Array<[string, string, RegExp | string]> = [
    ['syntax error', 'SELECT ;', /syntax error.*: SQLITE_ERROR$/],
    ['unknown table', 'SELECT * FROM misspelled_table_name', 'no such table: misspelled_table_name: SQLITE_ERROR'],
    ['empty query', '', 'SQL code did not contain a statement.'],
    ['only a semicolon', ';', 'SQL code did not contain a statement.'],
    ['trailing comment after the last statement', 'SELECT 1; -- trailing', 'SQL code did not contain a statement.'],
    ['BEGIN', 'BEGIN TRANSACTION', /^To execute a transaction, please use the state\.storage\.transaction\(\)/],
    ['SAVEPOINT', 'SAVEPOINT x', /^To execute a transaction/],
    ['COMMIT', 'COMMIT', /^To execute a transaction/],
    ['ROLLBACK', 'ROLLBACK', /^To execute a transaction/],
    ['RELEASE', 'RELEASE x', /^To execute a transaction/],
    ['hidden KV table', 'SELECT * FROM _zw_kv', 'not authorized: SQLITE_AUTH'],
    ['hidden table, other case and quoted', 'SELECT * FROM "_ZW_kv"', 'not authorized: SQLITE_AUTH'],
    ['dropping the hidden table', 'DROP TABLE _zw_kv', 'not authorized: SQLITE_AUTH'],
    ['creating a reserved name', 'CREATE TABLE _zw_mine (x)', 'not authorized: SQLITE_AUTH'],
    ["the reference's reserved prefix", 'CREATE TABLE _cf_mine (x)', 'not authorized: SQLITE_AUTH'],
    ["the reference's reserved prefix, other case", 'CREATE TABLE "_CF_KV" (x)', 'not authorized: SQLITE_AUTH'],
    ["pragma function on the reference's prefix", "SELECT * FROM pragma_table_info('_cf_KV')", 'not authorized: SQLITE_AUTH'],
    ['table_info of a hidden table', 'PRAGMA table_info(_zw_kv)', 'not authorized: SQLITE_AUTH'],
    ['pragma function on a hidden table', "SELECT * FROM pragma_table_info('_zw_kv')", 'not authorized: SQLITE_AUTH'],
    ['disallowed pragma', 'PRAGMA journal_mode = DELETE', 'not authorized: SQLITE_AUTH'],
    ['setting page_size', 'PRAGMA page_size = 8192', 'not authorized: SQLITE_AUTH'],
    ['ATTACH', "ATTACH DATABASE 'x.db' AS x", 'not authorized: SQLITE_AUTH'],
    ['TEMP table', 'CREATE TEMP TABLE x (y)', 'not authorized: SQLITE_AUTH'],
    ['virtual table module', 'CREATE VIRTUAL TABLE v USING csv(x)', 'not authorized: SQLITE_AUTH'],
    ['sqlite_ function', 'SELECT sqlite_version()', 'not authorized to use function: sqlite_version at offset 7: SQLITE_ERROR'],
    ['parameters outside the last statement', 'SELECT ?; SELECT 1', /only the last statement can have parameters/],
    ['wrong binding count', 'SELECT ?, ?', 'Wrong number of parameter bindings for SQL query.'],
  ];
  it.each(cases)('%s', async (_name, query, expected) => {
    const run = open();
    const err = await run(({ storage: { sql } }) => sqlErrorOf(() => sql.exec(query, ...(query === 'SELECT ?, ?' ? [1] : []))));
    expect(err).toBeInstanceOf(SqlError);
    expect(err.code).toBe('ERR_STORAGE_SQL');
    if (typeof expected === 'string') expect(err.message).toBe(expected);
    else expect(err.message).toMatch(expected);
  });

  it('reports constraint failures with the extended code', async () => {
    const run = open();
    const err = await run(({ storage: { sql } }) => {
      sql.exec("CREATE TABLE c (checked_col TEXT CHECK (checked_col IN ('A','B')))");
      return sqlErrorOf(() => sql.exec("INSERT INTO c VALUES ('C')"));
    });
    expect(err.message).toMatch(/^CHECK constraint failed: .*: SQLITE_CONSTRAINT \(extended: SQLITE_CONSTRAINT_CHECK\)$/);
    expect(err.sqliteCode).toBe('SQLITE_CONSTRAINT_CHECK');
  });

  it('allows the reference pragmas and fts5', async () => {
    const run = open();
    const result = await run(({ storage: { sql } }) => {
      sql.exec('CREATE TABLE t (a INTEGER PRIMARY KEY)');
      sql.exec('CREATE VIRTUAL TABLE docs USING fts5(body)');
      sql.exec("INSERT INTO docs VALUES ('hello world')");
      return {
        fk: sql.exec('PRAGMA foreign_keys').one(),
        info: sql.exec('PRAGMA table_info(t)').toArray().length,
        pageSize: sql.exec('PRAGMA page_size').one(),
        fts: sql.exec("SELECT count(*) AS n FROM docs WHERE docs MATCH 'hello'").one().n,
      };
    });
    expect(result).toEqual({ fk: { foreign_keys: 1 }, info: 1, pageSize: { page_size: 4096 }, fts: 1 });
  });
});

describe('sql.databaseSize and the hidden KV table', () => {
  it('is one page for a fresh object and grows and shrinks with tables', async () => {
    const run = open();
    const sizes = await run(({ storage: { sql } }) => {
      const fresh = sql.databaseSize;
      sql.exec('CREATE TABLE t (x)');
      const created = sql.databaseSize;
      sql.exec('DROP TABLE t');
      return { fresh, created, dropped: sql.databaseSize };
    });
    expect(sizes).toEqual({ fresh: 4096, created: 8192, dropped: 4096 });
  });

  it('KV data lives in SQLite but SQL users cannot read or drop it; deleteAll resets both', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      await storage.put('k', 'v');
      storage.sql.exec('CREATE TABLE user_table (x); INSERT INTO user_table VALUES (1)');
      const denied = sqlErrorOf(() => storage.sql.exec('DELETE FROM _zw_kv')).message;
      const grown = storage.sql.databaseSize;
      await storage.deleteAll();
      const tables = storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_zw\\_%' ESCAPE '\\'").toArray();
      const reset = storage.sql.databaseSize;
      await storage.put('again', 1); // the KV table comes back on the next write
      return { denied, grown, tables, k: await storage.get('k'), reset, again: await storage.get('again') };
    });
    expect(result.denied).toBe('not authorized: SQLITE_AUTH');
    expect(result.grown).toBeGreaterThan(4096);
    expect(result.reset).toBe(4096); // the size of a fresh object: the whole database was reset
    expect(result.again).toBe(1);
    expect(result.tables).toEqual([]);
    expect(result.k).toBeUndefined();
  });

  it('deleteAll inside transactionSync is refused', async () => {
    const run = open();
    const err = await run(({ storage }) => storage.transactionSync(() => storage.deleteAll()).catch((e: Error) => e));
    expect(err).toBeInstanceOf(TransactionError);
  });
});

describe('sql on the kv backend', () => {
  it('reading storage.sql works but exec() and databaseSize throw a clear error', async () => {
    class K {
      constructor(readonly ctx: ObjectState) {}
      check(): string[] {
        const sql = this.ctx.storage.sql;
        const out: string[] = [];
        for (const fn of [() => sql.exec('SELECT 1'), () => sql.databaseSize]) {
          try {
            fn();
          } catch (err) {
            out.push(`${(err as Error).constructor.name}: ${(err as Error).message}`);
          }
        }
        return out;
      }
    }
    const messages = await openNamespace(K, { backend: 'kv' }).get('k').check();
    expect(messages).toHaveLength(2);
    for (const m of messages) expect(m).toMatch(/^StorageUnsupportedError: .*'kv' backend.*backend: 'sqlite'/);
    expect(StorageUnsupportedError.name).toBe('StorageUnsupportedError');
  });
});
