/** Differential cases of the cursor counters `rowsRead` and `rowsWritten`, and of lazily stepped cursors. */
import type { ObjectStorage, SqlStorage } from '../../../src/storage/index.js';
import { defineCases } from './case.js';

/** A table `t (a, b)` of `n` rows. */
function table(sql: SqlStorage, n: number): void {
  sql.exec('CREATE TABLE t (a, b)');
  for (let i = 0; i < n; i++) sql.exec('INSERT INTO t VALUES (?, ?)', i, `v${i}`);
}

/** `[rowsRead, rowsWritten]` of a cursor after `exec()` and after reading it to the end. */
function counts(sql: SqlStorage, query: string, ...bindings: unknown[]): unknown {
  const c = sql.exec(query, ...bindings);
  const atExec = [c.rowsRead, c.rowsWritten];
  c.toArray();
  return { atExec, atEnd: [c.rowsRead, c.rowsWritten] };
}

/** A case body: the counts of `query` over a table of `n` rows. */
function countsOver(n: number, query: string): (storage: ObjectStorage) => unknown {
  return ({ sql }) => {
    table(sql, n);
    return counts(sql, query);
  };
}

export const counterCases = defineCases('counters', {
  'rowsRead grows as rows are read': ({ sql }) => {
    table(sql, 10);
    const c = sql.exec('SELECT * FROM t');
    const seen = [c.rowsRead];
    for (const _row of c) seen.push(c.rowsRead);
    return seen;
  },
  'writes: insert, without and with an index': ({ sql }) => {
    table(sql, 3);
    sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX uv ON u (v)');
    sql.exec('CREATE TABLE w (k TEXT PRIMARY KEY, v) WITHOUT ROWID; CREATE INDEX wv ON w (v)');
    return {
      insert: counts(sql, 'INSERT INTO t VALUES (1, 2)'),
      insertMany: counts(sql, 'INSERT INTO t VALUES (1, 2), (3, 4)'),
      indexedInsert: counts(sql, 'INSERT INTO u (v) VALUES (?)', 'x'),
      withoutRowid: counts(sql, "INSERT INTO w VALUES ('a', 1), ('b', 2)"),
    };
  },
  'writes that scan the table': ({ sql }) => {
    table(sql, 6);
    return { update: counts(sql, 'UPDATE t SET b = 0 WHERE a < 3'), deleteMissing: counts(sql, 'DELETE FROM t WHERE a = 99') };
  },
  'a DELETE of a missing row reads every row it passes': countsOver(3, 'DELETE FROM t WHERE a = 99'),
  'writes over a whole table: UPDATE all, DELETE some, INSERT from a SELECT': ({ sql }) => {
    table(sql, 5);
    sql.exec('CREATE TABLE c (a, b)');
    return {
      updateAll: counts(sql, 'UPDATE t SET b = 1'),
      deleteSome: counts(sql, 'DELETE FROM t WHERE a > 2'),
      copy: counts(sql, 'INSERT INTO c SELECT * FROM t'),
      deleteAll: counts(sql, 'DELETE FROM t'),
    };
  },
  'aggregates over a full-table scan read every row': ({ sql }) => {
    table(sql, 10);
    return {
      sum: counts(sql, 'SELECT sum(a) AS s FROM t'),
      max: counts(sql, 'SELECT max(a) AS m FROM t'),
      countColumn: counts(sql, 'SELECT count(a) AS n FROM t'),
      filtered: counts(sql, 'SELECT sum(a) AS s FROM t WHERE a > 6'),
    };
  },
  'scans of an empty table read once': ({ sql }) => {
    table(sql, 0);
    return {
      all: counts(sql, 'SELECT * FROM t'),
      filtered: counts(sql, 'SELECT * FROM t WHERE a = 1'),
      sum: counts(sql, 'SELECT sum(a) AS s FROM t'),
      sorted: counts(sql, 'SELECT * FROM t ORDER BY b'),
      update: counts(sql, 'UPDATE t SET b = 1'),
      delete: counts(sql, 'DELETE FROM t WHERE a = 1'),
    };
  },
  'full scans read every row: backwards, by a covering index, LIMIT past the end': ({ sql }) => {
    table(sql, 7);
    sql.exec('CREATE INDEX tb ON t (b)');
    return {
      backwards: counts(sql, 'SELECT * FROM t ORDER BY rowid DESC'),
      byIndex: counts(sql, 'SELECT b FROM t ORDER BY b'),
      limitPastEnd: counts(sql, 'SELECT * FROM t LIMIT 20'),
    };
  },
  'a filtered scan, read to its end, read every row': ({ sql }) => {
    table(sql, 10);
    const c = sql.exec('SELECT * FROM t WHERE a > 7');
    c.toArray();
    const none = sql.exec('SELECT * FROM t WHERE a = 99');
    return { some: c.rowsRead, none: none.rowsRead };
  },
  'rows read through a filtered sort': ({ sql }) => {
    table(sql, 6);
    return { some: counts(sql, 'SELECT a FROM t WHERE a > 2 ORDER BY b DESC'), none: counts(sql, 'SELECT a FROM t WHERE a > 9 ORDER BY b') };
  },
  'reads: count(*), filtered scans, LIMIT, constant selects': ({ sql }) => {
    table(sql, 10);
    return {
      all: counts(sql, 'SELECT * FROM t'),
      limit: counts(sql, 'SELECT * FROM t LIMIT 3'),
      constant: counts(sql, 'SELECT 1'),
      empty: counts(sql, 'SELECT * FROM t WHERE 0'),
    };
  },
  'count(*) reads the whole table': countsOver(10, 'SELECT count(*) AS n FROM t'),
  'a filtered scan reads every row it passes over': {
    run: countsOver(10, 'SELECT * FROM t WHERE a = 3'),
    differs: {
      reason: 'stock SQLite counts no b-tree steps: before its end, a filtered scan has read the rows it returned here, every row it passed in workerd',
      workerd: { atExec: [4, 0], atEnd: [10, 0] },
      zonewall: { atExec: [1, 0], atEnd: [10, 0] },
    },
  },
  'key lookups read one row': ({ sql }) => {
    sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX uv ON u (v)');
    sql.exec("INSERT INTO u (v) VALUES ('a'), ('b'), ('c')");
    return {
      byKey: counts(sql, 'SELECT * FROM u WHERE id = 2'),
      insertWithKey: counts(sql, "INSERT INTO u (id, v) VALUES (5, 'y')"),
      updateByKey: counts(sql, "UPDATE u SET v = 'z' WHERE id = 5"),
      deleteByKey: counts(sql, 'DELETE FROM u WHERE id = 5'),
    };
  },
  'rowid lookups read one row, found or not, none for a key that is no integer': ({ sql }) => {
    table(sql, 3);
    sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX uv ON u (v)');
    sql.exec("INSERT INTO u (v) VALUES ('a'), ('b')");
    return {
      found: counts(sql, 'SELECT * FROM t WHERE rowid = ?', 2),
      missing: counts(sql, 'SELECT * FROM t WHERE rowid = ?', 99),
      missingConstant: counts(sql, 'SELECT * FROM t WHERE rowid = 99'),
      text: counts(sql, 'SELECT * FROM t WHERE rowid = ?', 'x'),
      numericText: counts(sql, 'SELECT * FROM t WHERE rowid = ?', '2'),
      fraction: counts(sql, 'SELECT * FROM t WHERE rowid = ?', 2.5),
      nullKey: counts(sql, 'SELECT * FROM t WHERE rowid = ?', null),
      deleteMissing: counts(sql, 'DELETE FROM t WHERE rowid = ?', 99),
      updateMissing: counts(sql, 'UPDATE t SET b = 1 WHERE rowid = ?', 99),
      updateFound: counts(sql, 'UPDATE t SET b = 1 WHERE rowid = ?', 1),
      indexedMissing: counts(sql, 'DELETE FROM u WHERE id = ?', 99),
      indexedUpdate: counts(sql, "UPDATE u SET v = 'q' WHERE id = ?", 1),
    };
  },
  'unique key lookups read the row found, none when missing': ({ sql }) => {
    sql.exec('CREATE TABLE w (k TEXT PRIMARY KEY, v) WITHOUT ROWID');
    sql.exec("INSERT INTO w VALUES ('a', 1), ('b', 2), ('c', 3)");
    return {
      found: counts(sql, 'SELECT * FROM w WHERE k = ?', 'b'),
      last: counts(sql, 'SELECT * FROM w WHERE k = ?', 'c'),
      between: counts(sql, 'SELECT * FROM w WHERE k = ?', 'bb'),
      deleteMissing: counts(sql, 'DELETE FROM w WHERE k = ?', 'zz'),
      deleteFound: counts(sql, 'DELETE FROM w WHERE k = ?', 'a'),
    };
  },
  'scan counts follow writes and rollbacks between reads': (storage) => {
    const { sql } = storage;
    table(sql, 5);
    const seen = [counts(sql, 'SELECT sum(a) AS s FROM t'), counts(sql, 'SELECT count(*) AS n FROM t')];
    sql.exec('INSERT INTO t VALUES (5, 5)');
    seen.push(counts(sql, 'SELECT sum(a) AS s FROM t'));
    sql.exec('DELETE FROM t WHERE a < 2');
    seen.push(counts(sql, 'SELECT count(*) AS n FROM t'), counts(sql, 'SELECT * FROM t WHERE a > 100'));
    try {
      storage.transactionSync(() => {
        sql.exec('INSERT INTO t VALUES (9, 9), (10, 10)');
        seen.push(counts(sql, 'SELECT sum(a) AS s FROM t'));
        throw new Error('roll back');
      });
    } catch {
      // rolled back
    }
    seen.push(counts(sql, 'SELECT sum(a) AS s FROM t'), counts(sql, 'SELECT a FROM t ORDER BY b'));
    return seen;
  },
  'an index range scan also reads the entry past its end': ({ sql }) => {
    sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX uv ON u (v)');
    sql.exec("INSERT INTO u (v) VALUES ('a'), ('b'), ('c'), ('d')");
    return { equal: counts(sql, "SELECT * FROM u WHERE v = 'b'") };
  },
  'a DELETE over an index range also reads the entry past its end': {
    run: ({ sql }) => {
      sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v TEXT); CREATE INDEX uv ON u (v)');
      sql.exec("INSERT INTO u (v) VALUES ('a'), ('b'), ('c'), ('d')");
      return counts(sql, "DELETE FROM u WHERE v = 'b'");
    },
    differs: {
      reason: 'stock SQLite counts no b-tree steps: a write over an index range here reads the rows it changes, workerd also the entry that ends it',
      workerd: { atExec: [2, 1], atEnd: [2, 1] },
      zonewall: { atExec: [1, 1], atEnd: [1, 1] },
    },
  },
  'index ranges by parameters, below a bound, over two columns, and empty ones between entries': ({ sql }) => {
    table(sql, 10);
    sql.exec('CREATE INDEX tb ON t (b); CREATE INDEX tab ON t (a, b)');
    return {
      parameter: counts(sql, 'SELECT * FROM t WHERE b = ?', 'v4'),
      nullParameter: counts(sql, 'SELECT * FROM t WHERE b = ?', null),
      between: counts(sql, 'SELECT * FROM t WHERE b = ?', 'v45'),
      below: counts(sql, "SELECT * FROM t WHERE b < 'v3'"),
      belowAll: counts(sql, "SELECT * FROM t WHERE b < 'a'"),
      reversed: counts(sql, "SELECT * FROM t WHERE b BETWEEN 'v6' AND 'v2'"),
      twoColumns: counts(sql, "SELECT a FROM t WHERE a = 3 AND b >= 'v3'"),
      prefix: counts(sql, 'SELECT b FROM t WHERE a = ?', 5),
    };
  },
  'GROUP BY reads the scan, then the sorter up to the row that ends each group': {
    run: countsOver(10, 'SELECT a % 3 AS g, count(*) AS n FROM t GROUP BY a % 3'),
    differs: {
      reason: 'stock SQLite counts no b-tree steps: a group comes out when the sorter reads the first row of the next, which depends on the group sizes; zonewall counts the scan\'s first move and the rows it returns',
      workerd: { atExec: [15, 0], atEnd: [20, 0] },
      zonewall: { atExec: [1, 0], atEnd: [3, 0] },
    },
  },
  'a scan joined to a rowid lookup reads each row and each lookup, found or not': ({ sql }) => {
    table(sql, 10);
    sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v)');
    sql.exec('INSERT INTO u (v) VALUES (1), (2), (3)');
    sql.exec('CREATE TABLE e (a, b)');
    return {
      self: counts(sql, 'SELECT x.a FROM t x JOIN t y ON x.rowid = y.rowid'),
      someFound: counts(sql, 'SELECT x.a, y.v FROM t x JOIN u y ON y.rowid = x.rowid'),
      empty: counts(sql, 'SELECT x.a FROM e x JOIN t y ON y.rowid = x.rowid'),
    };
  },
  'a cross join reads each row of the inner scan, each outer move and each inner first move': ({ sql }) => {
    table(sql, 10);
    sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v)');
    sql.exec('INSERT INTO u (v) VALUES (1), (2), (3), (4), (5)');
    sql.exec('CREATE TABLE e (a, b)');
    return {
      cross: counts(sql, 'SELECT x.a FROM t x, u y'),
      columns: counts(sql, 'SELECT x.a, y.v FROM t x CROSS JOIN u y'),
      emptyInner: counts(sql, 'SELECT x.a FROM t x CROSS JOIN e y'),
      emptyOuter: counts(sql, 'SELECT x.a FROM e x CROSS JOIN t y'),
    };
  },
  'CREATE TABLE, VIEW and TRIGGER count their sqlite_schema rows': ({ sql }) => ({
    table: counts(sql, 'CREATE TABLE e (a)'),
    again: counts(sql, 'CREATE TABLE IF NOT EXISTS e (a)'),
    unique: counts(sql, 'CREATE TABLE f (id INTEGER PRIMARY KEY, v TEXT UNIQUE)'),
    withoutRowid: counts(sql, 'CREATE TABLE g (k TEXT PRIMARY KEY, v) WITHOUT ROWID'),
    view: counts(sql, 'CREATE VIEW vv AS SELECT * FROM e'),
    trigger: counts(sql, 'CREATE TRIGGER tr AFTER INSERT ON f BEGIN SELECT 1; END'),
  }),
  'CREATE INDEX, ALTER and DROP scan sqlite_schema and the table': ({ sql }) => {
    table(sql, 3);
    return {
      index: counts(sql, 'CREATE INDEX tb ON t (b)'),
      alter: counts(sql, 'ALTER TABLE t ADD COLUMN c'),
      dropIndex: counts(sql, 'DROP INDEX tb'),
      dropTable: counts(sql, 'DROP TABLE t'),
    };
  },
  'an upsert writes the row and its index entry once, on whichever path runs': ({ sql }) => {
    sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v TEXT UNIQUE)');
    sql.exec("INSERT INTO u (v) VALUES ('a'), ('b')");
    return {
      update: counts(sql, "INSERT INTO u (id, v) VALUES (2, 'q') ON CONFLICT (id) DO UPDATE SET v = 'q'"),
      insert: counts(sql, "INSERT INTO u (id, v) VALUES (9, 'z') ON CONFLICT (id) DO UPDATE SET v = 'z'"),
    };
  },
  'RETURNING rows are written at exec()': ({ sql }) => {
    table(sql, 0);
    const c = sql.exec('INSERT INTO t VALUES (7, 7), (8, 8) RETURNING a');
    const written = sql.exec('SELECT count(*) AS n FROM t').one();
    return { written, rows: c.toArray(), rowsWritten: c.rowsWritten };
  },
  'rows read by a RETURNING write': ({ sql }) => {
    table(sql, 0);
    const c = sql.exec('INSERT INTO t VALUES (7, 7), (8, 8) RETURNING a');
    c.toArray();
    return c.rowsRead;
  },
  'KV operations are not counted in a cursor': async (s) => {
    await s.put('a', 1);
    return counts(s.sql, 'SELECT 1 AS x');
  },
  'an unfinished cursor sees rows written after it': ({ sql }) => {
    table(sql, 4);
    const c = sql.exec('SELECT a FROM t');
    const first = c.next().value;
    sql.exec('INSERT INTO t VALUES (99, 99)');
    return { first, rest: c.toArray() };
  },
  'writes between steps of an open cursor succeed': async (s) => {
    table(s.sql, 3);
    const c = s.sql.exec('SELECT a FROM t ORDER BY a');
    const seen: unknown[] = [];
    for (const row of c) {
      s.sql.exec('UPDATE t SET b = ? WHERE a = ?', 'seen', row.a);
      await s.put(`k${String(row.a)}`, row.a);
      seen.push(row.a);
    }
    return { seen, updated: s.sql.exec("SELECT count(*) AS n FROM t WHERE b = 'seen'").one(), keys: [...(await s.list()).keys()] };
  },
  'two open cursors over the same query': ({ sql }) => {
    table(sql, 3);
    const one = sql.exec('SELECT a FROM t ORDER BY a');
    const two = sql.exec('SELECT a FROM t ORDER BY a');
    return [one.next().value, two.next().value, one.next().value, two.toArray(), one.toArray()];
  },
  'counters of two interleaved cursors': ({ sql }) => {
    table(sql, 3);
    const one = sql.exec('SELECT a FROM t');
    const two = sql.exec('SELECT a FROM t');
    one.next();
    two.toArray();
    one.toArray();
    return [one.rowsRead, two.rowsRead];
  },
  'rows read through a sort': countsOver(3, 'SELECT a FROM t ORDER BY b DESC'),
  'LIMIT and OFFSET: the skipped rows are read before the first, no move past the limit': ({ sql }) => {
    table(sql, 10);
    return {
      limit: counts(sql, 'SELECT * FROM t LIMIT 3'),
      offset: counts(sql, 'SELECT * FROM t LIMIT 3 OFFSET 2'),
      offsetParameters: counts(sql, 'SELECT * FROM t LIMIT ? OFFSET ?', 2, 7),
      offsetPastEnd: counts(sql, 'SELECT * FROM t LIMIT 3 OFFSET 20'),
      noLimit: counts(sql, 'SELECT * FROM t LIMIT -1 OFFSET 4'),
      limitZero: counts(sql, 'SELECT * FROM t LIMIT ?', 0),
      limitPastEnd: counts(sql, 'SELECT * FROM t LIMIT 12 OFFSET 5'),
    };
  },
  'LIMIT over a filter reads every row it passes': {
    run: countsOver(10, 'SELECT * FROM t WHERE a > 3 LIMIT 2'),
    differs: {
      reason: 'stock SQLite counts no b-tree steps: a filter cut by LIMIT has read the rows it returned here, every row it passed in workerd',
      workerd: { atExec: [5, 0], atEnd: [6, 0] },
      zonewall: { atExec: [1, 0], atEnd: [2, 0] },
    },
  },
  'DISTINCT reads every row of its scan': ({ sql }) => {
    table(sql, 10);
    return { expression: counts(sql, 'SELECT DISTINCT a % 2 AS x FROM t'), column: counts(sql, 'SELECT DISTINCT b FROM t') };
  },
  'INSERT ... SELECT reads the whole source, filtered or not': ({ sql }) => {
    table(sql, 10);
    sql.exec('CREATE TABLE c (a, b)');
    return { all: counts(sql, 'INSERT INTO c SELECT * FROM t'), filtered: counts(sql, 'INSERT INTO c SELECT * FROM t WHERE a > 6') };
  },
  'UPDATE of many rows, with an index: every row read, each row and index entry written': ({ sql }) => {
    table(sql, 10);
    sql.exec('CREATE INDEX tb ON t (b)');
    return { some: counts(sql, 'UPDATE t SET a = a + 100 WHERE a < 5'), indexed: counts(sql, "UPDATE t SET b = b || 'x'") };
  },
  'upserts: DO NOTHING, DO UPDATE with excluded, OR REPLACE': ({ sql }) => {
    sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v)');
    sql.exec('INSERT INTO u (v) VALUES (1), (2), (3)');
    return {
      nothing: counts(sql, 'INSERT INTO u (id, v) VALUES (1, 9) ON CONFLICT DO NOTHING'),
      excluded: counts(sql, 'INSERT INTO u (id, v) VALUES (2, 9) ON CONFLICT (id) DO UPDATE SET v = excluded.v'),
      replace: counts(sql, 'INSERT OR REPLACE INTO u (id, v) VALUES (3, 7)'),
    };
  },
  'joins on an index, subqueries, GROUP BY and sorted DISTINCT read every b-tree move': {
    run: ({ sql }) => {
      table(sql, 10);
      sql.exec('CREATE INDEX tb ON t (b)');
      sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v)');
      sql.exec('INSERT INTO u (v) VALUES (1), (2), (3), (4), (5)');
      return {
        indexJoin: counts(sql, 'SELECT x.a FROM t x JOIN t y ON x.b = y.b'),
        leftJoin: counts(sql, 'SELECT x.a FROM t x LEFT JOIN u y ON x.a = y.id'),
        inSubquery: counts(sql, 'SELECT a FROM t WHERE a IN (SELECT id FROM u)'),
        groupByIndex: counts(sql, 'SELECT b, count(*) AS n FROM t GROUP BY b'),
        sortedDistinct: counts(sql, 'SELECT DISTINCT a % 3 AS x FROM t ORDER BY x'),
      };
    },
    differs: {
      reason: 'stock SQLite counts no b-tree steps: programs of more than one loop read the rows they return here, every b-tree move in workerd',
      workerd: {
        indexJoin: { atExec: [2, 0], atEnd: [29, 0] }, leftJoin: { atExec: [1, 0], atEnd: [10, 0] },
        inSubquery: { atExec: [4, 0], atEnd: [20, 0] },
        groupByIndex: { atExec: [2, 0], atEnd: [10, 0] }, sortedDistinct: { atExec: [15, 0], atEnd: [20, 0] },
      },
      zonewall: {
        indexJoin: { atExec: [1, 0], atEnd: [10, 0] }, leftJoin: { atExec: [1, 0], atEnd: [10, 0] },
        inSubquery: { atExec: [1, 0], atEnd: [5, 0] },
        groupByIndex: { atExec: [1, 0], atEnd: [10, 0] }, sortedDistinct: { atExec: [1, 0], atEnd: [3, 0] },
      },
    },
  },
  'index ranges also read the entry that ends them': ({ sql }) => {
    table(sql, 10);
    sql.exec('CREATE INDEX tb ON t (b)');
    return {
      above: counts(sql, "SELECT * FROM t WHERE b > 'v5'"),
      between: counts(sql, "SELECT * FROM t WHERE b BETWEEN 'v2' AND 'v4'"),
      missing: counts(sql, "SELECT * FROM t WHERE b = 'zz'"),
      last: counts(sql, "SELECT * FROM t WHERE b = 'v9'"),
      middle: counts(sql, "SELECT * FROM t WHERE b = 'v3'"),
    };
  },
  'RETURNING of INSERT, UPDATE and DELETE: the buffers walked and read back': ({ sql }) => {
    table(sql, 6);
    sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v)');
    sql.exec('INSERT INTO u (v) VALUES (1), (2), (3), (4), (5)');
    sql.exec('CREATE TABLE c (a, b)');
    return {
      insert: counts(sql, 'INSERT INTO u (v) VALUES (1), (2) RETURNING id'),
      insertOne: counts(sql, 'INSERT INTO u (v) VALUES (7) RETURNING id'),
      deleteByKey: counts(sql, 'DELETE FROM u WHERE id = 4 RETURNING id'),
      deleteMissing: counts(sql, 'DELETE FROM u WHERE id = 40 RETURNING id'),
      updateScan: counts(sql, 'UPDATE t SET b = 0 WHERE a < 3 RETURNING a'),
      updateAll: counts(sql, 'UPDATE t SET b = 1 RETURNING a'),
      deleteScan: counts(sql, 'DELETE FROM t WHERE a > 3 RETURNING a'),
      deleteNone: counts(sql, 'DELETE FROM t WHERE a > 30 RETURNING a'),
      insertSelect: counts(sql, 'INSERT INTO c SELECT * FROM t WHERE a < 2 RETURNING a'),
    };
  },
  'RETURNING over a rowid range': {
    run: ({ sql }) => {
      sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v)');
      sql.exec('INSERT INTO u (v) VALUES (1), (2), (3), (4), (5)');
      return counts(sql, 'UPDATE u SET v = 0 WHERE id < 3 RETURNING id');
    },
    differs: {
      reason: 'stock SQLite counts no b-tree steps: a rowid range reads the entry that ends it in workerd, which zonewall cannot see',
      workerd: { atExec: [8, 2], atEnd: [9, 2] },
      zonewall: { atExec: [1, 2], atEnd: [2, 2] },
    },
  },
  'schema changes: CREATE INDEX, ALTER ADD COLUMN, DROP over a larger schema': ({ sql }) => {
    table(sql, 10);
    sql.exec('CREATE INDEX tb ON t (b); CREATE TABLE c (a, b)');
    sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v)');
    sql.exec('INSERT INTO u (v) VALUES (1), (2), (3), (4), (5)');
    return {
      createIndex: counts(sql, 'CREATE INDEX uv ON u (v)'),
      addColumn: counts(sql, 'ALTER TABLE u ADD COLUMN z'),
      dropIndex: counts(sql, 'DROP INDEX uv'),
      dropTable: counts(sql, 'DROP TABLE c'),
    };
  },
  'schema changes: empty, partial, unique and two-column indexes, IF (NOT) EXISTS, views, tables with indexes': ({ sql }) => {
    const out: Record<string, unknown> = {};
    sql.exec('CREATE TABLE e0 (a, b)');
    out.emptyTable = counts(sql, 'CREATE INDEX e0b ON e0 (b)');
    table(sql, 1);
    out.oneRow = counts(sql, 'CREATE INDEX tb ON t (b)');
    sql.exec('CREATE TABLE s (a, b)');
    for (let i = 0; i < 7; i++) sql.exec('INSERT INTO s VALUES (?, ?)', i, i % 2);
    out.partial = counts(sql, 'CREATE INDEX sp ON s (b) WHERE a > 3');
    out.unique = counts(sql, 'CREATE UNIQUE INDEX su ON s (a)');
    out.twoColumns = counts(sql, 'CREATE INDEX s2 ON s (a, b)');
    out.ifNotExists = counts(sql, 'CREATE INDEX IF NOT EXISTS s2 ON s (a, b)');
    out.addColumn = counts(sql, 'ALTER TABLE s ADD COLUMN z');
    out.addColumnDefault = counts(sql, "ALTER TABLE s ADD COLUMN y DEFAULT 'q'");
    out.dropIndex = counts(sql, 'DROP INDEX sp');
    out.dropIndexIfExists = counts(sql, 'DROP INDEX IF EXISTS nope');
    out.dropTableWithIndexes = counts(sql, 'DROP TABLE s');
    out.dropTableIfExists = counts(sql, 'DROP TABLE IF EXISTS nope');
    out.createView = counts(sql, 'CREATE VIEW v AS SELECT 1');
    out.dropView = counts(sql, 'DROP VIEW v');
    sql.exec('CREATE TABLE k (id INTEGER PRIMARY KEY, v)');
    sql.exec('INSERT INTO k (v) VALUES (1), (2)');
    out.rowidTableIndex = counts(sql, 'CREATE INDEX kv ON k (v)');
    out.dropRowidTable = counts(sql, 'DROP TABLE k');
    return out;
  },
  'ALTER RENAME and DROP COLUMN re-parse every schema row': {
    run: ({ sql }) => {
      table(sql, 10);
      sql.exec('CREATE INDEX tb ON t (b); CREATE TABLE c (a, b)');
      sql.exec('CREATE TABLE u (id INTEGER PRIMARY KEY, v)');
      sql.exec('CREATE INDEX uv ON u (v); ALTER TABLE u ADD COLUMN z');
      return {
        rename: counts(sql, 'ALTER TABLE c RENAME TO c2'),
        renameColumn: counts(sql, 'ALTER TABLE u RENAME COLUMN z TO zz'),
        dropColumn: counts(sql, 'ALTER TABLE u DROP COLUMN zz'),
      };
    },
    differs: {
      reason: 'stock SQLite counts no b-tree steps: these programs rewrite every sqlite_schema row through SQL functions (sqlite_rename_*, sqlite_drop_column) and nested statements; zonewall counts none of it',
      workerd: {
        rename: { atExec: [26, 4], atEnd: [26, 4] }, renameColumn: { atExec: [44, 9], atEnd: [44, 9] }, dropColumn: { atExec: [37, 6], atEnd: [37, 6] },
      },
      zonewall: {
        rename: { atExec: [0, 0], atEnd: [0, 0] }, renameColumn: { atExec: [0, 0], atEnd: [0, 0] }, dropColumn: { atExec: [0, 0], atEnd: [0, 0] },
      },
    },
  },
});
