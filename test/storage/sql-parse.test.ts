/**
 * The statement splitter and authorizer emulation (`sql-parse.ts`), table-driven.
 */
import { describe, it, expect } from 'vitest';
import { parseQuery, tokenize } from '../../src/storage/sql-parse.js';

describe('parseQuery splitting', () => {
  const cases: Array<[string, string[]]> = [
    ['SELECT 1', ['SELECT 1']],
    ['SELECT 1;', ['SELECT 1;']],
    ['SELECT 1; SELECT 2', ['SELECT 1;', 'SELECT 2']],
    ["SELECT 'a;b'; SELECT \"c;d\"", ["SELECT 'a;b';", 'SELECT "c;d"']],
    ['SELECT 1 /* ; */ + 1; SELECT [x;y] FROM t', ['SELECT 1 /* ; */ + 1;', 'SELECT [x;y] FROM t']],
    ['SELECT 1;; SELECT 2', ['SELECT 1;', 'SELECT 2']],
    ["SELECT x'0a3b'; SELECT 2", ["SELECT x'0a3b';", 'SELECT 2']],
    ['SELECT 1 -- trailing comment', ['SELECT 1']],
    [
      'CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT CASE WHEN 1 THEN 2 END; DELETE FROM b; END; SELECT 3',
      ['CREATE TRIGGER t AFTER INSERT ON a BEGIN SELECT CASE WHEN 1 THEN 2 END; DELETE FROM b; END;', 'SELECT 3'],
    ],
  ];
  it.each(cases)('%s', (query, statements) => {
    expect(parseQuery(query).map((s) => s.sql)).toEqual(statements);
  });

  it('marks statements with parameters', () => {
    expect(parseQuery('SELECT 1; SELECT ?, :name').map((s) => s.parameters.count)).toEqual([0, 2]);
  });

  it('tokenizes every character exactly once', () => {
    const query = "SELECT 'it''s', \"q\"\"x\", [a b], `c`, ?1, :n, @m, $o -- c\n/* d */;";
    expect(tokenize(query).map((t) => t.text).join('')).toBe(query);
  });
});

describe('parseQuery authorization', () => {
  const allowed = [
    'PRAGMA foreign_keys = ON;',
    'PRAGMA main.table_info(t)',
    'PRAGMA defer_foreign_keys = true',
    'PRAGMA table_list',
    'PRAGMA quick_check',
    'PRAGMA optimize',
    "SELECT name FROM sqlite_master WHERE name = '_zw_kv'",
    'EXPLAIN QUERY PLAN SELECT 1',
    'CREATE VIRTUAL TABLE v USING rtree(id, a, b)',
    "SELECT json_extract(?, '$.a')",
  ];
  it.each(allowed)('allows %s', (query) => {
    expect(() => parseQuery(query)).not.toThrow();
  });

  const refused = [
    'PRAGMA foreign_keys = maybe',
    'PRAGMA temp.table_info(t)',
    'PRAGMA writable_schema = 1',
    'PRAGMA data_version = 5',
    'END TRANSACTION',
    'EXPLAIN BEGIN',
    'DETACH x',
    'CREATE TEMPORARY VIEW v AS SELECT 1',
    'ALTER TABLE t RENAME TO _zw_x',
    'SELECT load_extension(\'x\')',
    'CREATE TRIGGER x AFTER INSERT ON t BEGIN DELETE FROM _zw_kv; END',
  ];
  it.each(refused)('refuses %s', (query) => {
    expect(() => parseQuery(query)).toThrow(/not authorized|To execute a transaction/);
  });

  it('refuses a query over the SQL length limit', () => {
    expect(() => parseQuery(`SELECT '${'x'.repeat(100_001)}'`)).toThrow(/exceeds the limit of 100000/);
  });
});
