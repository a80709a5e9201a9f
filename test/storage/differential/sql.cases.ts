/** Differential cases of `ctx.storage.sql`: exec, bindings, results, restrictions, limits and messages. */
import type { SqlStorage } from '../../../src/storage/index.js';
import { defineCases } from './case.js';
import { attempt } from './observe.js';

/** The rows of `query`, or its error. */
function rows(sql: SqlStorage, query: string, ...bindings: unknown[]): unknown {
  return attempt(() => sql.exec(query, ...bindings).toArray());
}

export const sqlCases = defineCases('sql', {
  'create, insert, select; result types': ({ sql }) => {
    sql.exec('CREATE TABLE t (i INTEGER, r REAL, s TEXT, b BLOB, n)');
    sql.exec('INSERT INTO t VALUES (?, ?, ?, ?, ?)', 7, 1.5, 'x', new Uint8Array([1, 2]), null);
    return rows(sql, 'SELECT *, typeof(i) AS ti, typeof(b) AS tb FROM t');
  },
  'bindings: booleans, undefined, views, bigint, objects': ({ sql }) => ({
    bool: rows(sql, 'SELECT ? AS t, ? AS f', true, false),
    undef: rows(sql, 'SELECT ? AS u', undefined),
    view: rows(sql, 'SELECT hex(?) AS h', new Uint8Array([9, 8, 7, 6]).subarray(1, 3)),
    int: rows(sql, 'SELECT ? AS n, typeof(?) AS t', 3, 3),
    big: rows(sql, 'SELECT ? AS n', 1n),
    obj: rows(sql, 'SELECT ? AS o', { a: 1 }),
  }),
  'numbered parameters bind by number': ({ sql }) => ({
    swapped: rows(sql, 'SELECT ?2 AS b, ?1 AS a', 'x', 'y'),
    repeated: rows(sql, 'SELECT ?1 AS a, ?1 AS b, ? AS c', 'x', 'y'),
    gap: rows(sql, 'SELECT ?3 AS c', 'x', 'y', 'z'),
    tooFew: rows(sql, 'SELECT ?3 AS c', 'x'),
  }),
  'named parameters bind positionally, in order of first use': ({ sql }) => ({
    named: rows(sql, 'SELECT :a AS a, :b AS b', 'x', 'y'),
    reversed: rows(sql, 'SELECT :b AS b, :a AS a', 'x', 'y'),
    mixed: rows(sql, 'SELECT :a AS a, ? AS q, :a AS a2', 'x', 'y'),
    prefixes: rows(sql, 'SELECT @a AS at, $b AS dollar', 1, 2),
    afterNumbered: rows(sql, 'SELECT ?2 AS two, :n AS n', 'x', 'y', 'z'),
  }),
  'wrong number of bindings': ({ sql }) => ({
    tooMany: rows(sql, 'SELECT ? AS a', 1, 2),
    tooFew: rows(sql, 'SELECT ? AS a, ? AS b', 1),
    none: rows(sql, 'SELECT 1 AS a', 1),
  }),
  'more than 100 bound parameters': ({ sql }) => ({
    hundred: attempt(() => sql.exec(`SELECT ${Array(100).fill('?').join(', ')}`, ...Array(100).fill(1)).raw().toArray()[0]?.length),
    over: rows(sql, `SELECT ${Array(101).fill('?').join(', ')}`, ...Array(101).fill(1)),
    numbered: rows(sql, 'SELECT ?101 AS x', ...Array(101).fill(1)),
  }),
  'compound SELECT of more than 5 terms': ({ sql }) => ({
    five: rows(sql, 'SELECT 1 UNION SELECT 2 UNION ALL SELECT 3 INTERSECT SELECT 3 EXCEPT SELECT 4'),
    six: rows(sql, 'SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 UNION SELECT 6'),
    values: rows(sql, 'VALUES (1), (2), (3), (4), (5), (6), (7)'),
  }),
  'syntax errors say at which offset': ({ sql }) => ({
    semicolon: rows(sql, 'SELECT ;'),
    start: rows(sql, 'SELEC 1'),
    middle: rows(sql, 'SELECT 1 FROM t WHERE WHERE'),
    repeated: rows(sql, "SELECT 'WHERE', 1 WHERE WHERE"),
    incomplete: rows(sql, 'SELECT 1 FROM'),
    second: rows(sql, 'SELECT 1; SELEC 2'),
  }),
  'multiple statements: the cursor covers the last; parameters only there': ({ sql }) => ({
    last: rows(sql, 'CREATE TABLE t (a); INSERT INTO t VALUES (1); SELECT a FROM t WHERE a = ?', 1),
    early: rows(sql, 'SELECT ?; SELECT 2', 1),
    trailingComment: rows(sql, 'SELECT 1; -- done'),
    empty: rows(sql, ''),
    onlySemicolon: rows(sql, ';'),
  }),
  'errors from SQLite carry the result code': ({ sql }) => {
    sql.exec("CREATE TABLE c (id INTEGER PRIMARY KEY, k TEXT NOT NULL UNIQUE, v TEXT CHECK (v IN ('A', 'B')))");
    return {
      noTable: rows(sql, 'SELECT * FROM misspelled'),
      noColumn: rows(sql, 'SELECT nope FROM c'),
      qualified: rows(sql, 'SELECT 1, c.nope FROM c'),
      noFunction: rows(sql, 'SELECT 1, nofn(2)'),
      arguments: rows(sql, 'SELECT 1, abs(1, 2)'),
      mismatch: rows(sql, "INSERT INTO c (id, k) VALUES ('x', 'three')"),
    };
  },
  'constraint errors name the extended result code': {
    run: ({ sql }) => {
      sql.exec("CREATE TABLE c (id INTEGER PRIMARY KEY, k TEXT NOT NULL UNIQUE, v TEXT CHECK (v IN ('A', 'B')))");
      sql.exec("INSERT INTO c (k, v) VALUES ('one', 'A')");
      return {
        unique: rows(sql, "INSERT INTO c (k, v) VALUES ('one', 'B')"),
        check: rows(sql, "INSERT INTO c (k, v) VALUES ('two', 'C')"),
      };
    },
    differs: {
      reason: "zonewall follows current workerd (the reference), which appends the extended code; Miniflare 3's workerd predates that",
      workerd: {
        unique: { error: 'Error', message: 'UNIQUE constraint failed: c.k: SQLITE_CONSTRAINT' },
        check: { error: 'Error', message: "CHECK constraint failed: v IN ('A', 'B'): SQLITE_CONSTRAINT" },
      },
      zonewall: {
        unique: { error: 'Error', message: 'UNIQUE constraint failed: c.k: SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_UNIQUE)' },
        check: { error: 'Error', message: "CHECK constraint failed: v IN ('A', 'B'): SQLITE_CONSTRAINT (extended: SQLITE_CONSTRAINT_CHECK)" },
      },
    },
  },
  'restricted statements, names, pragmas and functions': ({ sql }) => ({
    begin: rows(sql, 'BEGIN TRANSACTION'),
    savepoint: rows(sql, 'SAVEPOINT x'),
    cfTable: rows(sql, 'CREATE TABLE _cf_mine (a)'),
    temp: rows(sql, 'CREATE TEMP TABLE t (a)'),
    attach: rows(sql, "ATTACH DATABASE 'x.db' AS x"),
    pragmaBad: rows(sql, 'PRAGMA max_page_count = 10'),
    pragmaGood: rows(sql, 'PRAGMA foreign_keys'),
    fn: rows(sql, 'SELECT sqlite_version()'),
    vtabBad: rows(sql, 'CREATE VIRTUAL TABLE v USING fts4(a)'),
    vtabGood: rows(sql, 'CREATE VIRTUAL TABLE v USING fts5(a)'),
  }),
  'the KV table cannot be read through SQL': async (s) => {
    await s.put('a', 1);
    return rows(s.sql, 'SELECT * FROM _cf_KV');
  },
  'statements on the KV table, before and after the first KV write': async (s) => {
    const statements = [
      'SELECT * FROM _cf_KV', 'SELECT value FROM _cf_KV', 'SELECT 1 FROM _cf_KV WHERE value = 1', 'SELECT "KEY" FROM _CF_KV',
      'SELECT t.* FROM _cf_KV t', 'SELECT * FROM (SELECT value FROM _cf_KV)', 'SELECT a.value, a.key FROM _cf_KV a',
      'SELECT count(*) FROM _cf_KV', "INSERT INTO _cf_KV VALUES ('x', 1)", 'UPDATE _cf_KV SET value = 1', 'DELETE FROM _cf_KV',
      'DROP TABLE _cf_KV', 'PRAGMA table_info(_cf_KV)', "SELECT * FROM pragma_table_info('_cf_KV')",
      'CREATE INDEX i ON _cf_KV (value)',
    ];
    const before = statements.map((q) => rows(s.sql, q));
    await s.put('a', 1);
    return { before, after: statements.map((q) => rows(s.sql, q)) };
  },
  'cursor: next, iteration, toArray, one, raw share one position': ({ sql }) => {
    sql.exec('CREATE TABLE t (a, b)');
    for (let i = 1; i <= 4; i++) sql.exec('INSERT INTO t VALUES (?, ?)', i, i * 10);
    const c = sql.exec('SELECT a, b FROM t ORDER BY a');
    const first = c.next();
    const raw = c.raw();
    const second = raw.next();
    const rest = c.toArray();
    return {
      first, second, rest, end: c.next(), rawEnd: raw.next(), rawToArray: raw.toArray(),
      columnNames: c.columnNames, rawColumnNames: (raw as unknown as Record<string, unknown>).columnNames,
      spread: [...sql.exec('SELECT a FROM t WHERE a > 2 ORDER BY a')],
      rawArrays: sql.exec('SELECT a, b FROM t WHERE a < 3 ORDER BY a').raw().toArray(),
    };
  },
  'one(): exactly one remaining row': ({ sql }) => {
    const two = sql.exec('SELECT 1 AS x UNION ALL SELECT 2');
    return {
      one: attempt(() => sql.exec('SELECT 1 AS x').one()),
      none: attempt(() => sql.exec('SELECT 1 AS x WHERE 0').one()),
      many: attempt(() => two.one()),
      afterMany: two.toArray(),
      afterNext: attempt(() => {
        const c = sql.exec('SELECT 1 AS x UNION ALL SELECT 2');
        c.next();
        return c.one();
      }),
    };
  },
  'raw().one()': {
    run: ({ sql }) => attempt(() => sql.exec('SELECT 1 AS x, 2 AS y').raw().one()),
    differs: {
      reason: 'seed 001 says raw() supports next, toArray and one; Miniflare 3\'s workerd has no raw().one',
      workerd: { error: 'TypeError', message: "sql.exec(...).raw(...).one is not a function" },
      zonewall: [1, 2],
    },
  },
  'columnNames: duplicates kept, later column wins in objects, none for writes': ({ sql }) => {
    sql.exec('CREATE TABLE abc (a, b, c); CREATE TABLE cde (c, d, e)');
    sql.exec('INSERT INTO abc VALUES (1, 2, 3); INSERT INTO cde VALUES (4, 5, 6)');
    const joined = sql.exec('SELECT * FROM abc, cde');
    return {
      names: joined.columnNames, rows: joined.toArray(), namesAfter: joined.columnNames,
      insert: sql.exec('INSERT INTO abc VALUES (7, 8, 9)').columnNames,
    };
  },
  'databaseSize grows with a table and shrinks when it is dropped': ({ sql }) => {
    const fresh = sql.databaseSize;
    sql.exec('CREATE TABLE t (a)');
    const created = sql.databaseSize;
    sql.exec('DROP TABLE t');
    return { fresh, created, dropped: sql.databaseSize };
  },
  'KV data is in the same database but not visible to SQL': async (s) => {
    await s.put('a', 1);
    return { tables: rows(s.sql, "SELECT name FROM sqlite_master WHERE name NOT LIKE '\\_%' ESCAPE '\\'") };
  },
  'integers beyond 2^53 lose precision, no BigInt': ({ sql }) => rows(sql, 'SELECT 9007199254740993 AS n, -9007199254740993 AS m'),
  'deleteAll() drops SQL tables too, and databaseSize is a fresh one': async (s) => {
    const fresh = s.sql.databaseSize;
    s.sql.exec('CREATE TABLE t (a); INSERT INTO t VALUES (1)');
    await s.put('k', 1);
    await s.deleteAll();
    return { tables: rows(s.sql, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 't'"), same: s.sql.databaseSize === fresh };
  },
  'deleteAll() while a cursor is still open': async (s) => {
    s.sql.exec('CREATE TABLE t (a); INSERT INTO t VALUES (1), (2), (3)');
    const c = s.sql.exec('SELECT a FROM t');
    const first = c.next().value;
    const result = await s.deleteAll().then(() => 'done', (err: unknown) => String(err));
    return { first, result, rest: attempt(() => c.toArray()) };
  },
  'SQL writes in a rolled-back transaction are undone': async (s) => {
    s.sql.exec('CREATE TABLE t (a)');
    await s.transaction(async (txn) => {
      s.sql.exec('INSERT INTO t VALUES (1)');
      await txn.put('k', 1);
      txn.rollback();
    });
    return { rows: rows(s.sql, 'SELECT * FROM t'), k: await s.get('k') };
  },
  'a runtime error while stepping surfaces from the cursor': ({ sql }) => {
    const c = sql.exec("SELECT value, abs(CASE WHEN value = 2 THEN -9223372036854775808 ELSE value END) AS x FROM json_each('[1,2,3]')");
    return { first: c.next(), then: attempt(() => c.next()) };
  },
  'blobs come back as ArrayBuffers; views bind their own bytes': ({ sql }) => {
    sql.exec('CREATE TABLE b (v BLOB)');
    const bytes = new Uint8Array([0, 1, 2, 3, 4, 5]);
    sql.exec('INSERT INTO b VALUES (?), (?)', bytes.subarray(2, 4), bytes.buffer);
    return sql.exec('SELECT v, length(v) AS n FROM b').toArray();
  },
  'SELECT * follows the schema: ALTER, and ALTER rolled back': async (s) => {
    s.sql.exec('CREATE TABLE t (a); INSERT INTO t VALUES (1)');
    const before = s.sql.exec('SELECT * FROM t').toArray();
    s.sql.exec('ALTER TABLE t ADD COLUMN b DEFAULT 2');
    const altered = s.sql.exec('SELECT * FROM t').toArray();
    await s.transaction(async (txn) => {
      s.sql.exec('ALTER TABLE t ADD COLUMN c DEFAULT 3');
      s.sql.exec('SELECT * FROM t').toArray();
      txn.rollback();
    });
    return { before, altered, rolledBack: s.sql.exec('SELECT * FROM t').toArray() };
  },
});
