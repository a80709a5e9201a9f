/**
 * What the three parser files share, below all of them: the parser state and the typed results of
 * each level, the nesting guard, and the look-aheads that decide which level comes next (`not`,
 * quantifiers, comparison operators). The parser is mutually recursive (a call argument is a logical
 * expression again); the levels above values are reached through the state, so the files import
 * downward only: `parse.ts` -> `parse-rhs.ts` -> `parse-value.ts` -> here.
 */
import type { CallArg, ComparisonOp, Expression, ValueExpr } from './ast.js';
import { fail } from './errors.js';
import { keywordAt, KeywordTable, skipSpace } from './lex.js';
import type { Phase } from './scheme.js';
import type { Type } from './types.js';

/**
 * Parser state shared by the parse functions. The two levels above values are reached through it
 * (`parse.ts` sets them): a call argument can be a whole logical expression or a comparison, so
 * `parse-value.ts` calls up without importing the files that import it.
 */
export interface ParserState {
  readonly src: string;
  readonly phase: Phase;
  readonly maxDepth: number;
  /** `logical := simple (op simple)*` (parse.ts `parseLogical`). */
  readonly parseLogical: (state: ParserState, pos: number, depth: number) => TypedExpr;
  /** The operator and right-hand side after a parsed value (parse-rhs.ts `parseComparisonWithLhs`). */
  readonly parseComparisonWithLhs: (state: ParserState, lhs: TypedValue) => TypedExpr;
}

/** A parsed Bool (or Array<Bool>) expression, its type and the position after it. */
export interface TypedExpr {
  readonly node: Expression;
  readonly type: Type;
  readonly end: number;
}

/** A parsed value: its type (the element type when `mapped`, i.e. it went through `[*]`). */
export interface TypedValue {
  readonly node: ValueExpr;
  readonly type: Type;
  readonly mapped: boolean;
  readonly end: number;
}

/** A parsed call argument. */
export interface TypedArg {
  readonly node: CallArg;
  readonly type: Type;
  readonly mapped: boolean;
  readonly end: number;
}

/** Checks the nesting depth before descending; the span is the rest of the input from `at`. */
export function nest(state: ParserState, depth: number, at: number): number {
  if (depth >= state.maxDepth) {
    fail('NestingLimitExceeded', `maximum nesting depth exceeded (limit: ${state.maxDepth})`, at, state.src.length);
  }
  return depth + 1;
}

/** Whether a quantifier call (`any(` / `all(`, spaces allowed before the parenthesis) is at `pos`. */
export function quantifierAt(src: string, pos: number): 'any' | 'all' | null {
  if (src.charCodeAt(pos) !== 97) return null; // `a`: most operands start otherwise
  const q = src.startsWith('any', pos) ? 'any' : src.startsWith('all', pos) ? 'all' : null;
  return q !== null && src.charCodeAt(skipSpace(src, pos + 3)) === 40 ? q : null;
}

/** Whether `not` / `!` is at `pos`. */
export function unaryAt(src: string, pos: number): number {
  if (keywordAt(src, pos, 'not')) return 3;
  return src[pos] === '!' ? 1 : 0;
}

// Spellings in wirefilter's lexing order; English ones need a word boundary (lex.ts `keywordAt`).
const OPERATORS = new KeywordTable<ComparisonOp>([
  ['in', 'in'], ['eq', 'eq'], ['==', 'eq'], ['ne', 'ne'], ['!=', 'ne'], ['ge', 'ge'], ['>=', 'ge'],
  ['le', 'le'], ['<=', 'le'], ['gt', 'gt'], ['>', 'gt'], ['lt', 'lt'], ['<', 'lt'], ['&', 'bitwise_and'],
  ['bitwise_and', 'bitwise_and'], ['contains', 'contains'], ['~', 'matches'], ['matches', 'matches'],
  ['wildcard', 'wildcard'], ['strict wildcard', 'strict wildcard'],
]);

/** The comparison operator at `pos` and the position after it, or null. */
export function comparisonOpAt(src: string, pos: number): { op: ComparisonOp; end: number } | null {
  const found = OPERATORS.at(src, pos);
  return found === undefined ? null : { op: found.value, end: pos + found.text.length };
}

