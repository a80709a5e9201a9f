/**
 * The parser: source text to a checked `Expression`, after wirefilter's `ast/logical_expr.rs` (a
 * precedence-climbing parser over string positions, typed as it goes). Logical level here; values,
 * calls and arguments in `parse-value.ts`; comparisons and right-hand sides in `parse-rhs.ts`; the
 * state, result types and look-aheads they share in `parse-state.ts`.
 *
 * Grammar (reference §1.2): `logical := simple (op simple)*` with `or` < `xor` < `and`; `simple :=
 * "(" logical ")" | ("not" | "!") simple | ("any" | "all") "(" arg ")" | comparison`. Nesting (each
 * parenthesis, `not`, quantifier and call) is limited to 128 levels, so hostile input gets an error,
 * not a stack overflow. The whole input must be consumed and be Bool; `true`/`false` alone are
 * accepted as constant expressions (zonewall's choice 6).
 */
import type { Expression, LogicalOp, Span, ValueExpr } from './ast.js';
import { ExpressionError, fail, LexFailure } from './errors.js';
import { expectLiteral, KeywordTable, skipSpace } from './lex.js';
import { parseCallArg } from './parse-value.js';
import { parseComparison, parseComparisonWithLhs } from './parse-rhs.js';
import { nest, quantifierAt, unaryAt, type ParserState, type TypedExpr } from './parse-state.js';
import { DEFAULT_PHASE, type Phase } from './scheme.js';
import { ExpressionLimits } from './limits.js';
import { T, arrayOf, sameType, typeName } from './types.js';

export { ExpressionLimits };

/** Options of `parse`. */
export interface ParseOptions {
  /** The phase whose fields and functions are available; firewall filter expressions by default. */
  phase?: Phase;
  /** Maximum length in characters; 4096 by default. */
  maxLength?: number;
}

const PRECEDENCE: Readonly<Record<LogicalOp, number>> = { or: 1, xor: 2, and: 3 };
const BOOL_ARRAY = arrayOf(T.Bool);

/** Lexes, parses and type-checks a filter expression; throws `ExpressionError`. */
export function parseExpression(source: string, options: ParseOptions = {}): Expression {
  // Callers from YAML or JSON may hand over anything; the contract is "an ExpressionError or a tree".
  if (typeof source !== 'string') {
    throw new ExpressionError(String(source), 'UnrecognisedInput', `expected an expression string, got ${typeof source}`, { offset: 0, length: 1 });
  }
  const maxLength = options.maxLength ?? ExpressionLimits.maxLength;
  checkLength(source, maxLength);
  const start = source.length - source.trimStart().length;
  const end = source.trimEnd().length;
  const state: ParserState = {
    src: source.slice(0, Math.max(start, end)), phase: options.phase ?? DEFAULT_PHASE, maxDepth: ExpressionLimits.maxDepth,
    parseLogical, parseComparisonWithLhs,
  };
  try {
    const text = source.slice(start, end);
    if (text === 'true' || text === 'false') return { type: 'const', value: text === 'true', span: { start, end } };
    const parsed = parseLogical(state, start, 0);
    // As wirefilter's `FilterAst::lex_with`: the root type first (span: the input after it), then
    // the leftovers.
    if (!sameType(parsed.type, T.Bool)) {
      fail('TypeMismatch', `expected value of type Bool, but got ${typeName(parsed.type)}`, parsed.end, state.src.length);
    }
    if (parsed.end !== state.src.length) fail('UnrecognisedInput', 'unrecognised input', parsed.end, state.src.length);
    return parsed.node;
  } catch (err) {
    if (err instanceof LexFailure) {
      throw new ExpressionError(source, err.errorKind, err.reason, { offset: err.start, length: err.end - err.start }, err.hint);
    }
    throw err;
  }
}

function checkLength(source: string, maxLength: number): void {
  if (source.length <= maxLength) return;
  let count = 0;
  for (let i = 0; i < source.length; i++) {
    const code = source.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < source.length) i++;
    if (++count > maxLength) {
      throw new ExpressionError(
        source, 'ExpressionTooLong',
        `expression is longer than ${maxLength} characters; split it into several rules or use a list`,
        { offset: i, length: source.length - i },
      );
    }
  }
}

const LOGICAL_OPS = new KeywordTable<LogicalOp>([
  ['or', 'or'], ['||', 'or'], ['xor', 'xor'], ['^^', 'xor'], ['and', 'and'], ['&&', 'and'],
]);

function lexLogicalOp(src: string, pos: number): { op: LogicalOp | null; after: number } {
  const p = skipSpace(src, pos);
  const found = LOGICAL_OPS.at(src, p);
  return found === undefined ? { op: null, after: pos } : { op: found.value, after: skipSpace(src, p + found.text.length) };
}

const prec = (op: LogicalOp | null): number => (op ? PRECEDENCE[op] : 0);

/** `logical := simple (op simple)*` by precedence climbing; runs of one operator become one node. */
export function parseLogical(state: ParserState, pos: number, depth: number): TypedExpr {
  const first = parseSimple(state, pos, depth);
  return parseMore(state, first, 0, lexLogicalOp(state.src, first.end), depth);
}

function parseMore(
  state: ParserState, lhs: TypedExpr, minPrec: number, lookahead: { op: LogicalOp | null; after: number }, depth: number,
): TypedExpr {
  let acc = lhs;
  let ahead = lookahead;
  while (ahead.op) {
    const op = ahead.op;
    let rhs = parseSimple(state, ahead.after, depth);
    for (;;) {
      ahead = lexLogicalOp(state.src, rhs.end);
      if (prec(ahead.op) <= prec(op)) break;
      rhs = parseMore(state, rhs, prec(ahead.op), ahead, depth);
    }
    const bothBool = sameType(acc.type, T.Bool) && sameType(rhs.type, T.Bool);
    const bothArrays = acc.type.kind === 'Array' && rhs.type.kind === 'Array';
    if (!bothBool && !bothArrays) {
      fail('TypeMismatch', `expected value of type ${typeName(acc.type)}, but got ${typeName(rhs.type)}`, ahead.after, state.src.length);
    }
    acc = { node: combine(op, acc.node, rhs.node), type: acc.type, end: rhs.end };
    if (prec(ahead.op) < minPrec) ahead = { op: null, after: rhs.end };
  }
  return { ...acc, end: ahead.after };
}

// Flattens `a or b` into an existing `or` on either side (also across parentheses: same meaning).
function combine(op: LogicalOp, a: Expression, b: Expression): Expression {
  const left = a.type === 'logical' && a.op === op ? a.items : [a];
  const right = b.type === 'logical' && b.op === op ? b.items : [b];
  const span: Span = { start: a.span.start, end: b.span.end };
  return { type: 'logical', op, items: [...left, ...right], span };
}

/** `simple := "(" logical ")" | not simple | quantifier | comparison`. */
export function parseSimple(state: ParserState, pos: number, depth: number): TypedExpr {
  const { src } = state;
  if (src[pos] === '(') {
    const inner = nest(state, depth, pos);
    const parsed = parseLogical(state, skipSpace(src, pos + 1), inner);
    const end = expectLiteral(src, skipSpace(src, parsed.end), ')');
    return { ...parsed, end };
  }
  const notLength = unaryAt(src, pos);
  if (notLength > 0) {
    const inner = nest(state, depth, pos);
    const arg = parseSimple(state, skipSpace(src, pos + notLength), inner);
    return { node: { type: 'not', arg: arg.node, span: { start: pos, end: arg.end } }, type: arg.type, end: arg.end };
  }
  const q = quantifierAt(src, pos);
  if (q) return parseQuantifier(state, q, pos, depth);
  return parseComparison(state, pos, depth);
}

function parseQuantifier(state: ParserState, op: 'any' | 'all', pos: number, depth: number): TypedExpr {
  const { src } = state;
  const open = skipSpace(src, pos + 3);
  const inner = nest(state, depth, open);
  const argStart = skipSpace(src, open + 1);
  const arg = parseCallArg(state, argStart, inner);
  // A literal, or a value through `[*]` (whose type is its element type), is never an Array<Bool>.
  const isLiteral = arg.node.type === 'bytes' || arg.node.type === 'int' || arg.node.type === 'ip';
  if (isLiteral || arg.mapped || !sameType(arg.type, BOOL_ARRAY)) {
    fail('TypeMismatch', `expected value of type Array<Bool>, but got ${typeName(arg.type)}`, argStart, arg.end);
  }
  const end = expectLiteral(src, skipSpace(src, arg.end), ')');
  const node = { type: 'quantifier', op, arg: arg.node as Expression | ValueExpr, span: { start: pos, end } } as const;
  return { node, type: T.Bool, end };
}
