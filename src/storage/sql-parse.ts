/**
 * A small SQL tokenizer that does what better-sqlite3 cannot: split a query string into statements
 * (respecting strings, quoted identifiers, comments and trigger bodies, like `sqlite3_complete`) and
 * emulate the reference runtime's authorizer, which better-sqlite3 does not expose. The rules, with
 * the reference's messages:
 *
 * | refused                                                     | message                                |
 * |-------------------------------------------------------------|----------------------------------------|
 * | BEGIN, COMMIT, END, ROLLBACK, SAVEPOINT, RELEASE            | use transaction()/transactionSync()    |
 * | any identifier beginning `_zw_` (hidden tables) or `_cf_`   | not authorized: SQLITE_AUTH            |
 * | ATTACH, DETACH, CREATE TEMP, virtual tables other than fts5 | not authorized: SQLITE_AUTH            |
 * | pragmas outside the reference's allow-list                  | not authorized: SQLITE_AUTH            |
 * | functions named `sqlite_*`, `load_extension`                | not authorized to use function: NAME at offset N: SQLITE_ERROR |
 * | parameters in a statement that is not the last              | only the last statement can have ...   |
 *
 * Each statement then goes through the reference's SQLite limits and has its parameters numbered
 * (`sql-limits.ts`).
 */
import { SqlError, TRANSACTION_STATEMENT_MESSAGE } from './errors.js';
import { StorageLimits } from './limits.js';
import { checkLimits, type ParameterLayout } from './sql-limits.js';
import type { Token, TokenType } from './sql-token.js';

export type { Token } from './sql-token.js';

/** One statement of a query: its SQL text, its tokens and how its parameters are numbered. */
export interface ParsedStatement {
  sql: string;
  tokens: Token[];
  parameters: ParameterLayout;
  /** CREATE, DROP or ALTER: cached facts about other statements (their indexes) may be stale after it. */
  schemaChange: boolean;
}

// `_zw_` names our hidden tables; `_cf_` is the reference runtime's reserved prefix, refused too so
// that SQL written for the reference behaves the same here (it can never use such names there).
const RESERVED_PREFIXES = ['_zw_', '_cf_'];

function isReserved(lowerName: string): boolean {
  return RESERVED_PREFIXES.some((prefix) => lowerName.startsWith(prefix));
}
const TRANSACTION_WORDS = new Set(['BEGIN', 'COMMIT', 'END', 'ROLLBACK', 'SAVEPOINT', 'RELEASE']);
const VIRTUAL_MODULES = new Set(['fts5', 'fts5vocab', 'rtree', 'rtree_i32']);
const PRAGMA_NO_ARG = new Set(['data_version', 'page_size']);
const PRAGMA_BOOLEAN = new Set([
  'case_sensitive_like', 'foreign_keys', 'defer_foreign_keys', 'ignore_check_constraints',
  'legacy_alter_table', 'recursive_triggers', 'reverse_unordered_selects',
]);
const PRAGMA_OBJECT = new Set([
  'foreign_key_check', 'foreign_key_list', 'index_info', 'index_list', 'index_xinfo', 'table_info', 'table_xinfo',
]);
const PRAGMA_OTHER = new Set(['quick_check', 'optimize', 'table_list']);
const BOOLEAN_VALUES = new Set(['0', '1', 'on', 'off', 'true', 'false', 'yes', 'no']);

function notAuthorized(): SqlError {
  return new SqlError('not authorized: SQLITE_AUTH', 'SQLITE_AUTH');
}

/**
 * A statement naming the reference's key-value table `_cf_KV`. The reference answers as SQLite does
 * with its authorizer: "no such table" while the object has no KV pair yet (the table is made by the
 * first write), else the denied column read (`access to _cf_KV.key is prohibited`) for a query that
 * reads one of its columns, else "not authorized". zonewall keeps the pairs in `_zw_kv`, so `sql.ts`
 * picks `message` or `ifMissing` by whether that table exists.
 */
export class KvTableError extends SqlError {
  /** The message while the key-value table does not exist yet; undefined: the same either way. */
  readonly ifMissing: string | undefined;

  constructor(message: string, sqliteCode: string, ifMissing: string | undefined) {
    super(message, sqliteCode);
    this.ifMissing = ifMissing;
  }
}

const KV_TABLE_NAME = '_cf_kv';
const KV_COLUMNS = new Set(['key', 'value']);
const READ_HEADS = new Set(['SELECT', 'WITH', 'VALUES']);
const MISSING_TABLE_HEADS = new Set([...READ_HEADS, 'INSERT', 'REPLACE', 'UPDATE', 'DELETE', 'DROP']);

/**
 * The reference's error for `words` naming `_cf_KV` at `table`. SQLite's authorizer sees the columns
 * as it resolves them, result columns first: the first `*` (not `count(*)`) or `key`/`value` named
 * is the column denied.
 */
function kvTableError(words: Token[], table: Token): KvTableError {
  const head = words[0]?.text.toUpperCase() ?? '';
  let ifMissing: string | undefined;
  if (MISSING_TABLE_HEADS.has(head)) ifMissing = `no such table: ${identifierName(table)}: SQLITE_ERROR`;
  else if (head === 'CREATE' && words.some((w) => w.type === 'word' && w.text.toUpperCase() === 'INDEX')) ifMissing = `no such table: main.${identifierName(table)}: SQLITE_ERROR`;
  if (READ_HEADS.has(head)) {
    // A subquery in FROM is resolved before the query around it: start at the innermost SELECT around the table.
    let from = 0;
    let depth = 0;
    for (let i = words.indexOf(table) - 1; i >= 0; i--) {
      const text = words[i]?.text;
      if (text === ')') depth++;
      else if (text === '(' && depth-- === 0) {
        if (words[i + 1]?.text.toUpperCase() === 'SELECT') { from = i + 1; break; }
        depth = 0;
      }
    }
    for (let i = from; i < words.length; i++) {
      const token = words[i] as Token;
      let column: string | undefined;
      if (token.text === '*' && words[i - 1]?.text !== '(') column = 'key';
      else if (token.type === 'word' || token.type === 'qident') {
        const name = identifierName(token).toLowerCase();
        if (KV_COLUMNS.has(name)) column = name;
      }
      if (column !== undefined) return new KvTableError(`access to _cf_KV.${column} is prohibited: SQLITE_AUTH`, 'SQLITE_AUTH', ifMissing);
    }
  }
  return new KvTableError('not authorized: SQLITE_AUTH', 'SQLITE_AUTH', ifMissing);
}

function scanQuoted(sql: string, i: number, close: string): number {
  for (let j = i + 1; j < sql.length; j++) {
    if (sql[j] !== close) continue;
    if (close !== ']' && sql[j + 1] === close) { j++; continue; }
    return j + 1;
  }
  return sql.length;
}

function scanToken(sql: string, i: number): { type: TokenType; end: number } {
  const c = sql[i] as string;
  if (/\s/.test(c)) { let j = i + 1; while (j < sql.length && /\s/.test(sql[j] as string)) j++; return { type: 'space', end: j }; }
  if (c === '-' && sql[i + 1] === '-') { const nl = sql.indexOf('\n', i); return { type: 'comment', end: nl < 0 ? sql.length : nl + 1 }; }
  if (c === '/' && sql[i + 1] === '*') { const close = sql.indexOf('*/', i + 2); return { type: 'comment', end: close < 0 ? sql.length : close + 2 }; }
  if (c === "'") return { type: 'string', end: scanQuoted(sql, i, "'") };
  if (c === '"' || c === '`') return { type: 'qident', end: scanQuoted(sql, i, c) };
  if (c === '[') return { type: 'qident', end: scanQuoted(sql, i, ']') };
  if (c === ';') return { type: 'semi', end: i + 1 };
  if (c === '?' || c === ':' || c === '@' || c === '$') {
    let j = i + 1;
    while (j < sql.length && /[\w$]/.test(sql[j] as string)) j++;
    if (c === '?' || j > i + 1) return { type: 'param', end: j };
    return { type: 'other', end: j };
  }
  if (/[\w\u0080-\uffff]/.test(c)) {
    let j = i + 1;
    while (j < sql.length && /[\w$\u0080-\uffff]/.test(sql[j] as string)) j++;
    // x'..' is a blob literal, not a word followed by a string.
    if ((c === 'x' || c === 'X') && j === i + 1 && sql[j] === "'") return { type: 'string', end: scanQuoted(sql, j, "'") };
    return { type: 'word', end: j };
  }
  return { type: 'other', end: i + 1 };
}

/** Splits SQL into tokens; every character belongs to exactly one token. */
export function tokenize(sql: string): Token[] {
  const tokens: Token[] = [];
  for (let i = 0; i < sql.length;) {
    const { type, end } = scanToken(sql, i);
    tokens.push({ type, text: sql.slice(i, end), start: i, end });
    i = end;
  }
  return tokens;
}

/** The unquoted name of an identifier or word token. */
function identifierName(token: Token): string {
  if (token.type !== 'qident') return token.text;
  return token.text.slice(1, -1).replace(/""/g, '"').replace(/``/g, '`');
}

function isSignificant(token: Token): boolean {
  return token.type !== 'space' && token.type !== 'comment';
}

/** Groups significant tokens into statements, keeping `;` inside CREATE TRIGGER bodies. */
function groupStatements(tokens: Token[]): { groups: Token[][]; trailingComment: boolean } {
  const groups: Token[][] = [];
  let current: Token[] = [];
  let trailingComment = false;
  let caseDepth = 0;
  let endClosedCase = false;
  for (const token of tokens) {
    if (token.type === 'comment') trailingComment = current.length === 0;
    if (!isSignificant(token)) continue;
    trailingComment = false;
    if (token.type === 'semi') {
      const words = current.filter((t) => t.type === 'word').slice(0, 4).map((t) => t.text.toUpperCase());
      const trigger = words[0] === 'CREATE' && (words[1] === 'TRIGGER' || words[2] === 'TRIGGER');
      const last = current[current.length - 1];
      const triggerEnd = last?.type === 'word' && last.text.toUpperCase() === 'END' && !endClosedCase;
      if (trigger && !triggerEnd) {
        current.push(token);
        continue;
      }
      // The terminating `;` stays in the statement so SQLite's messages match (`SELECT ;`).
      if (current.length > 0) groups.push([...current, token]);
      current = [];
      caseDepth = 0;
      continue;
    }
    endClosedCase = false;
    if (token.type === 'word') {
      const upper = token.text.toUpperCase();
      if (upper === 'CASE') caseDepth++;
      else if (upper === 'END' && caseDepth > 0) {
        caseDepth--;
        endClosedCase = true;
      }
    }
    current.push(token);
  }
  if (current.length > 0) groups.push(current);
  return { groups, trailingComment: trailingComment && groups.length > 0 };
}

function checkPragma(tokens: Token[]): void {
  let i = 1;
  if (tokens[i + 1]?.text === '.') {
    if (identifierName(tokens[i] as Token).toLowerCase() !== 'main') throw notAuthorized();
    i += 2;
  }
  const name = identifierName(tokens[i] ?? { type: 'word', text: '', start: 0, end: 0 }).toLowerCase();
  const args = tokens.slice(i + 1).filter((t) => t.text !== '=' && t.text !== '(' && t.text !== ')');
  const value = args.map((t) => identifierName(t).replace(/^'|'$/g, '')).join('');
  if (PRAGMA_NO_ARG.has(name) && args.length === 0) return;
  if (PRAGMA_BOOLEAN.has(name) && (args.length === 0 || BOOLEAN_VALUES.has(value.toLowerCase()))) return;
  if ((PRAGMA_OBJECT.has(name) || PRAGMA_OTHER.has(name)) && !isReserved(value.toLowerCase())) return;
  throw notAuthorized();
}

function checkCreate(tokens: Token[]): void {
  const second = tokens[1]?.text.toUpperCase();
  if (second === 'TEMP' || second === 'TEMPORARY') throw notAuthorized();
  if (second === 'VIRTUAL') {
    const using = tokens.findIndex((t) => t.type === 'word' && t.text.toUpperCase() === 'USING');
    const module = using < 0 ? '' : identifierName(tokens[using + 1] as Token).toLowerCase();
    if (!VIRTUAL_MODULES.has(module)) throw notAuthorized();
  }
}

function checkNames(tokens: Token[], start: number): void {
  tokens.forEach((token, index) => {
    if (token.type !== 'word' && token.type !== 'qident' && token.type !== 'string') return;
    const name = identifierName(token).toLowerCase();
    // Strings are data, except as arguments of table-valued pragma functions (pragma_table_info('x')).
    if (token.type === 'string') {
      const fn = tokens.slice(Math.max(0, index - 2), index).find((t) => t.type === 'word');
      if (fn && fn.text.toLowerCase().startsWith('pragma_') && isReserved(name.replace(/^'/, ''))) throw notAuthorized();
      return;
    }
    if (name === KV_TABLE_NAME) throw kvTableError(tokens, token);
    if (isReserved(name)) throw notAuthorized();
    if (token.type === 'word' && tokens[index + 1]?.text === '(' &&
        (name.startsWith('sqlite_') || name === 'load_extension')) {
      // The reference's authorizer denies the function while SQLite resolves it: a positioned SQLITE_ERROR.
      throw new SqlError(`not authorized to use function: ${token.text} at offset ${token.start - start}: SQLITE_ERROR`, 'SQLITE_ERROR');
    }
  });
}

function authorize(tokens: Token[]): void {
  let first = 0;
  if (tokens[0]?.text.toUpperCase() === 'EXPLAIN') {
    first = tokens[1]?.text.toUpperCase() === 'QUERY' ? 3 : 1;
  }
  const words = tokens.slice(first).filter((t) => t.type !== 'semi');
  const head = words[0]?.text.toUpperCase() ?? '';
  if (TRANSACTION_WORDS.has(head)) throw new SqlError(TRANSACTION_STATEMENT_MESSAGE, 'SQLITE_AUTH');
  if (head === 'ATTACH' || head === 'DETACH') throw notAuthorized();
  if (head === 'CREATE') checkCreate(words);
  if (head === 'PRAGMA') checkPragma(words);
  checkNames(words, tokens[0]?.start ?? 0);
}

/**
 * Splits and authorizes a query. Throws `SqlError` for an empty query, a refused statement, or
 * parameters outside the last statement.
 */
export function parseQuery(sql: string): ParsedStatement[] {
  if (sql.length > StorageLimits.maxSqlLength) {
    throw new SqlError(
      `SQL statement too long: ${sql.length} characters exceeds the limit of ${StorageLimits.maxSqlLength}; ` +
        'split the query or bind large values as parameters.',
      'SQLITE_TOOBIG',
    );
  }
  const { groups, trailingComment } = groupStatements(tokenize(sql));
  if (groups.length === 0 || trailingComment) throw new SqlError('SQL code did not contain a statement.');
  return groups.map((group, index) => {
    authorize(group);
    const first = group[0] as Token;
    const last = group[group.length - 1] as Token;
    const parameters = checkLimits(group, first.start);
    if (parameters.count > 0 && index < groups.length - 1) {
      throw new SqlError(
        'When executing multiple SQL statements in a single call, only the last statement can have parameters.',
      );
    }
    const schemaChange = ['CREATE', 'DROP', 'ALTER'].includes(first.text.toUpperCase());
    return { sql: sql.slice(first.start, last.end), tokens: group, parameters, schemaChange };
  });
}
