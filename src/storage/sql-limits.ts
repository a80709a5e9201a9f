/**
 * The SQLite limits the reference runtime sets on every object's database and that better-sqlite3
 * cannot set (it does not expose `sqlite3_limit`), checked on the tokens of each statement with
 * SQLite's own messages: at most 5 terms in a compound SELECT and at most 100 bound parameters.
 * The same pass numbers the parameters as SQLite does, so bindings can be passed by number: `?`
 * takes the next number, `?NNN` its own, and a named parameter (`:a`, `@a`, `$a`) the next number
 * on first use and the same number after. `sql.exec()` binds its i-th argument to number i.
 */
import { SqlError } from './errors.js';
import type { Token } from './sql-token.js';

/** The reference's `SQLITE_LIMIT_COMPOUND_SELECT`. */
const MAX_COMPOUND_TERMS = 5;
/** The reference's `SQLITE_LIMIT_VARIABLE_NUMBER`. */
const MAX_VARIABLES = 100;
const COMPOUND = new Set(['UNION', 'INTERSECT', 'EXCEPT']);

/** How a statement's parameters are numbered. */
export interface ParameterLayout {
  /** The highest parameter number: the count of bindings `exec()` needs. */
  count: number;
  /** Number to name (`:a`, `?2`) for named and numbered parameters; unnamed ones are absent. */
  names: Map<number, string>;
}

function limitError(message: string, offset: number | null): SqlError {
  return new SqlError(`${message}${offset === null ? '' : ` at offset ${offset}`}: SQLITE_ERROR`, 'SQLITE_ERROR');
}

/** Counts compound terms per nesting level; throws past the limit. */
function checkCompound(tokens: Token[]): void {
  const terms: number[] = [1];
  for (const token of tokens) {
    if (token.text === '(') terms.push(1);
    else if (token.text === ')') terms.pop();
    else if (token.type === 'semi') terms.splice(0, terms.length, 1);
    else if (token.type === 'word' && COMPOUND.has(token.text.toUpperCase())) {
      const depth = terms.length - 1;
      terms[depth] = (terms[depth] ?? 1) + 1;
      if ((terms[depth] as number) > MAX_COMPOUND_TERMS) throw limitError('too many terms in compound SELECT', null);
    }
  }
}

/** Numbers the parameters of one statement (offsets relative to `start`); throws past the limit. */
export function checkLimits(tokens: Token[], start: number): ParameterLayout {
  checkCompound(tokens);
  const names = new Map<number, string>();
  const numberOf = new Map<string, number>();
  let count = 0;
  for (const token of tokens) {
    if (token.type !== 'param') continue;
    const offset = token.start - start;
    if (token.text === '?') {
      if (++count > MAX_VARIABLES) throw limitError('too many SQL variables', offset);
      continue;
    }
    if (token.text.startsWith('?')) {
      const n = Number(token.text.slice(1));
      if (!Number.isInteger(n) || n < 1 || n > MAX_VARIABLES) {
        throw limitError(`variable number must be between ?1 and ?${MAX_VARIABLES}`, offset);
      }
      count = Math.max(count, n);
      if (!names.has(n)) names.set(n, token.text);
      numberOf.set(token.text, n);
      continue;
    }
    if (numberOf.has(token.text)) continue;
    if (++count > MAX_VARIABLES) throw limitError('too many SQL variables', offset);
    // better-sqlite3 binds named parameters by their name without its prefix, so `:a` and `@a` in
    // one statement (two parameters to SQLite) would get the same value: refuse rather than guess.
    const twin = [...numberOf.keys()].find((other) => other.slice(1) === token.text.slice(1));
    if (twin !== undefined) {
      throw new SqlError(
        `Parameters ${twin} and ${token.text} differ only in their prefix, which zonewall cannot bind apart; rename one.`,
        'SQLITE_RANGE',
      );
    }
    names.set(count, token.text);
    numberOf.set(token.text, count);
  }
  return { count, names };
}

/** Bindings as better-sqlite3 takes them: unnamed parameters by position, named ones in an object. */
export function bindArguments(layout: ParameterLayout, values: unknown[]): unknown[] {
  if (values.length !== layout.count) {
    throw new SqlError('Wrong number of parameter bindings for SQL query.', 'SQLITE_RANGE');
  }
  if (layout.names.size === 0) return values;
  const positional: unknown[] = [];
  // better-sqlite3 names a parameter without its prefix character (`:a` -> `a`, `?2` -> `2`).
  const named: Record<string, unknown> = {};
  values.forEach((value, i) => {
    const name = layout.names.get(i + 1);
    if (name === undefined) positional.push(value);
    else named[name.slice(1)] = value;
  });
  return [...positional, named];
}
