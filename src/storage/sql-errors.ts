/**
 * SQL errors in the reference runtime's format: `<SQLite message>[ at offset N]: SQLITE_<PRIMARY>`
 * with ` (extended: SQLITE_<EXTENDED>)` when the extended code differs. SQLite knows the offset
 * (`sqlite3_error_offset`) but better-sqlite3 does not pass it on, so it is found again from the
 * message and the statement's tokens, for the messages SQLite positions:
 *
 * | message                                   | offset of                                             |
 * |-------------------------------------------|-------------------------------------------------------|
 * | `near "X": syntax error`                  | the first X whose prefix of the statement fails alike |
 * | `no such column: X`, `no such function: X` | the first word token X (a qualified `t.c`: its `t`)   |
 * | `wrong number of arguments to function X()`, `misuse of aggregate function X()`, `unrecognized token: "X"` | likewise |
 */
import type Database from 'better-sqlite3';
import { SqlError } from './errors.js';
import type { ParsedStatement } from './sql-parse.js';
import type { Token } from './sql-token.js';

const POSITIONED: RegExp[] = [
  /^no such column: ([^\s.]+)/,
  /^no such function: (\S+)$/,
  /^wrong number of arguments to function (\S+)\(\)$/,
  /^misuse of aggregate function (\S+)\(\)$/,
  /^unrecognized token: "(.*)"$/,
];

function sameWord(token: Token, text: string): boolean {
  return token.type !== 'string' && token.text.toLowerCase() === text.toLowerCase();
}

/** Where in `statement` SQLite put the error `message`, or null when it gives no position. */
export function errorOffset(db: Database.Database, statement: ParsedStatement, message: string): number | null {
  const start = statement.tokens[0]?.start ?? 0;
  const near = /^near "(.*)": syntax error$/.exec(message);
  if (near) {
    // The parser stops at the first token it cannot take: the first candidate whose prefix fails alike.
    for (const token of statement.tokens) {
      if (token.text !== near[1]) continue;
      try {
        db.prepare(statement.sql.slice(0, token.end - start));
      } catch (err) {
        if ((err as Error).message === message) return token.start - start;
      }
    }
    return null;
  }
  for (const pattern of POSITIONED) {
    const match = pattern.exec(message);
    if (!match) continue;
    const token = statement.tokens.find((t) => sameWord(t, match[1] as string));
    return token ? token.start - start : null;
  }
  return null;
}

/** A better-sqlite3 error as the reference reports it; `statement` positions prepare errors. */
export function sqlError(err: unknown, db?: Database.Database, statement?: ParsedStatement): Error {
  if (err instanceof SqlError || !(err instanceof Error)) return err as Error;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && code.startsWith('SQLITE_')) {
    const primary = code.split('_').slice(0, 2).join('_');
    const extended = primary === code ? '' : ` (extended: ${code})`;
    const offset = db && statement ? errorOffset(db, statement, err.message) : null;
    const at = offset === null ? '' : ` at offset ${offset}`;
    return new SqlError(`${err.message}${at}: ${primary}${extended}`, code, { cause: err });
  }
  if (err instanceof RangeError && /parameter/.test(err.message)) {
    return new SqlError('Wrong number of parameter bindings for SQL query.', 'SQLITE_RANGE', { cause: err });
  }
  return err;
}
