/**
 * The statement splitter and authorizer emulation (`sql-parse.ts`), table-driven.
 */
import { describe, it, expect } from 'vitest';
import { parseQuery, tokenize, type ParsedStatement } from '../../src/storage/sql-parse.js';

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

describe('parameter numbering and limits', () => {
  const layout = (sql: string) => {
    const { count, names } = (parseQuery(sql)[0] as ParsedStatement).parameters;
    return { count, names: Object.fromEntries(names) };
  };

  it('numbers parameters as SQLite does: ? next, ?NNN its own, a name on first use', () => {
    expect(layout('SELECT ?, ?, ?')).toEqual({ count: 3, names: {} });
    expect(layout('SELECT ?2, ?1')).toEqual({ count: 2, names: { 1: '?1', 2: '?2' } });
    expect(layout('SELECT :a, ?, :a, @b')).toEqual({ count: 3, names: { 1: ':a', 3: '@b' } });
    expect(layout('SELECT ?3, :n')).toEqual({ count: 4, names: { 3: '?3', 4: ':n' } });
  });

  it('refuses more than 100 parameters and a compound SELECT of more than 5 terms, with SQLite messages', () => {
    const many = `SELECT ${Array(101).fill('?').join(',')}`;
    expect(() => parseQuery(many)).toThrow('too many SQL variables at offset 207: SQLITE_ERROR');
    expect(() => parseQuery('SELECT ?101')).toThrow('variable number must be between ?1 and ?100 at offset 7: SQLITE_ERROR');
    expect(() => parseQuery('SELECT 1 UNION SELECT 2 UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 UNION SELECT 6'))
      .toThrow('too many terms in compound SELECT: SQLITE_ERROR');
    expect(() => parseQuery('SELECT (SELECT 1 UNION SELECT 2) UNION SELECT 3 UNION SELECT 4 UNION SELECT 5 UNION SELECT 6')).not.toThrow();
  });

  it('refuses two names that differ only in their prefix (better-sqlite3 would bind them alike)', () => {
    expect(() => parseQuery('SELECT :a, @a')).toThrow(/Parameters :a and @a differ only in their prefix/);
  });
});
