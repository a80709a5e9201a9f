/**
 * Comparisons: `lhs [op rhs]` (wirefilter `ComparisonExpr::lex_with_lhs`). A Bool value stands alone
 * (`is_true`); any other value needs an operator, and the right-hand side is lexed as the literal
 * form the operator x type matrix (`check.ts`) asks for: bytes, integer, IP, regex, wildcard
 * pattern, a set `{ ... }` or a list `$name`. Regexes and wildcards are compiled here so that a bad
 * pattern is a parse error at its literal, as in the real engine.
 */
import type { ComparisonExpr, ComparisonOp, Rhs, SetItem, ValueExpr } from './ast.js';
import { fail, LexFailure } from './errors.js';
import { boolOperatorHint, rhsKind, unsupportedOp, type RhsKind } from './check.js';
import { expectLiteral, lexInt, lexIntRange, lexListName, skipSpace } from './lex.js';
import { lexBytes, lexQuotedOrRaw, lexRegexLiteral } from './lex-string.js';
import { lexIpAddress, lexIpSetItem } from './lex-ip.js';
import { parseValue } from './parse-value.js';
import { comparisonOpAt, type ParserState, type TypedExpr, type TypedValue } from './parse-state.js';
import { compileRegex, RegexSyntaxError } from './regex.js';
import { isPlainRegex } from './regex-plain.js';
import { T, arrayOf, type Type } from './types.js';
import { parseWildcard, WildcardSyntaxError } from './wildcard.js';
import { formatValue } from './format.js';
import { rhsHint, typeMismatch } from './literal-type.js';

/** `comparison := lhs [op rhs]`. */
export function parseComparison(state: ParserState, pos: number, depth: number): TypedExpr {
  return parseComparisonWithLhs(state, parseValue(state, pos, depth));
}

/** The operator and right-hand side after an already parsed left-hand side. */
export function parseComparisonWithLhs(state: ParserState, lhs: TypedValue): TypedExpr {
  const { src } = state;
  const resultType = lhs.mapped ? arrayOf(T.Bool) : T.Bool;
  if (lhs.type.kind === 'Bool') {
    refuseBoolOperator(src, lhs);
    return { node: comparison(lhs, 'is_true', null, lhs.end), type: resultType, end: lhs.end };
  }
  if (lhs.type.kind === 'Array' && lhs.type.of.kind === 'Bool') {
    if (lhs.mapped) unsupportedOp(arrayOf(arrayOf(T.Bool)), lhs.end, lhs.end);
    return { node: comparison(lhs, 'is_true', null, lhs.end), type: lhs.type, end: lhs.end };
  }
  const opStart = skipSpace(src, lhs.end);
  const op = comparisonOpAt(src, opStart);
  if (!op) return fail('ExpectedName', 'expected ComparisonOp', opStart, src.length);
  const kind = rhsKind(lhs.type, op.op);
  if (!kind) unsupportedOp(lhs.type, opStart, op.end, formatValue(lhs.node));
  const at = skipSpace(src, op.end);
  let rhs: Rhs;
  try {
    rhs = lexRhs(src, at, kind, lhs.node, lhs.type);
  } catch (err) {
    // A literal of another type (`path gt 5`, `port eq "80"`): a type error, not a lexing one.
    // The left-hand side's text, for hints, is only printed on this path.
    const lhsText = formatValue(lhs.node);
    const expected = kind === 'bytes' ? 'Bytes' : kind === 'int' ? 'Int' : kind === 'ip' ? 'Ip' : kind === 'set' ? undefined : 'pattern';
    throw (expected !== undefined ? typeMismatch(err, src, at, expected, lhsText) : undefined) ?? withHint(err, kind === 'ip' ? rhsHint(src, at, 'Ip', lhsText, op.op === 'ne') : undefined);
  }
  // `1.5` lexes as `1` and leaves `.5`: the real engine's "unrecognised input" there, with a hint
  // (a decimal point is always right after the lexed digits).
  const hint = kind === 'int' && src.charCodeAt(rhs.span.end) === 46 ? rhsHint(src, at, 'Int', formatValue(lhs.node)) : undefined;
  if (hint !== undefined) fail('UnrecognisedInput', 'unrecognised input', rhs.span.end, src.length, hint);
  return { node: comparison(lhs, op.op, rhs, rhs.span.end), type: resultType, end: rhs.span.end };
}

/** `err` with `hint` added when it is a lexing failure without one. */
function withHint(err: unknown, hint: string | undefined): unknown {
  if (hint === undefined || !(err instanceof LexFailure) || err.hint !== undefined) return err;
  return new LexFailure(err.errorKind, err.reason, err.start, err.end, hint);
}

/**
 * `ssl eq 1`: a Bool takes no operator. The real engine stops at the operator with "unrecognised
 * input"; so does this, with a hint. (`&` is left alone: `ssl && x` is an `and`.)
 */
function refuseBoolOperator(src: string, lhs: TypedValue): void {
  const at = skipSpace(src, lhs.end);
  const op = src[at] === '&' ? null : comparisonOpAt(src, at);
  // The real engine's span: from the end of the value to the end of the input.
  if (op !== null) fail('UnrecognisedInput', 'unrecognised input', lhs.end, src.length, boolOperatorHint(formatValue(lhs.node)));
}

function comparison(lhs: TypedValue, op: ComparisonOp, rhs: Rhs | null, end: number): ComparisonExpr {
  // Spans are built apart (here and below): cold code copies a literal nested in a literal through the runtime.
  const span = { start: lhs.node.span.start, end };
  return { type: 'comparison', lhs: lhs.node, op, rhs, span };
}

function lexRhs(src: string, pos: number, kind: RhsKind, lhs: ValueExpr, lhsType: Type): Rhs {
  switch (kind) {
    case 'bytes': {
      const l = lexBytes(src, pos);
      const span = { start: pos, end: l.end };
      return { type: 'bytes', value: l.value, span };
    }
    case 'int': {
      const l = lexInt(src, pos);
      const span = { start: pos, end: l.end };
      return { type: 'int', value: l.value, span };
    }
    case 'ip': {
      const l = lexIpAddress(src, pos);
      const span = { start: pos, end: l.end };
      return { type: 'ip', value: l.value, span };
    }
    case 'regex': return lexRegex(src, pos);
    case 'wildcard': return lexWildcard(src, pos);
    case 'set': return src[pos] === '$' ? lexList(src, pos) : lexSet(src, pos, lhs, lhsType);
  }
}

function lexRegex(src: string, pos: number): Rhs {
  const l = lexRegexLiteral(src, pos);
  // The usual pattern needs no compile to be known valid; the rest get the compiler's verdict.
  if (!isPlainRegex(l.value)) try {
    compileRegex(l.value);
  } catch (err) {
    if (err instanceof RegexSyntaxError) fail('ParseRegex', err.message, l.contentStart, l.contentEnd);
    throw err;
  }
  return { type: 'regex', pattern: l.value, span: { start: pos, end: l.end } };
}

function lexWildcard(src: string, pos: number): Rhs {
  const l = lexQuotedOrRaw(src, pos);
  try {
    parseWildcard(l.value);
  } catch (err) {
    if (err instanceof WildcardSyntaxError) fail('ParseWildcard', err.message, pos, l.end);
    throw err;
  }
  return { type: 'wildcard', value: l.value, span: { start: pos, end: l.end } };
}

function lexList(src: string, pos: number): Rhs {
  const l = lexListName(src, pos);
  return { type: 'list', name: l.value, span: { start: pos, end: l.end } };
}

// `{ item item ... }`: items separated by spaces only (no commas), possibly none.
function lexSet(src: string, pos: number, lhs: ValueExpr, lhsType: Type): Rhs {
  let p = expectLiteral(src, pos, '{');
  const items: SetItem[] = [];
  for (;;) {
    p = skipSpace(src, p);
    if (src[p] === '}') return { type: 'set', items, span: { start: pos, end: p + 1 } };
    const item = lexSetItemTyped(src, p, lhs, lhsType);
    items.push(item);
    p = item.span.end;
  }
}

/** A set item, or a type error for an item written as a literal of another type. */
function lexSetItemTyped(src: string, pos: number, lhs: ValueExpr, lhsType: Type): SetItem {
  try {
    return lexSetItem(src, pos, lhsType);
  } catch (err) {
    const kind = lhsType.kind === 'Int' || lhsType.kind === 'Ip' ? lhsType.kind : 'Bytes';
    throw typeMismatch(err, src, pos, kind, formatValue(lhs)) ?? err;
  }
}

function lexSetItem(src: string, pos: number, lhsType: Type): SetItem {
  if (lhsType.kind === 'Int') {
    const l = lexIntRange(src, pos);
    const span = { start: pos, end: l.end };
    if (!src.slice(pos, l.end).includes('..')) return { type: 'int', value: l.value.start, span };
    return { type: 'int_range', start: l.value.start, end: l.value.end, span };
  }
  if (lhsType.kind === 'Ip') {
    const l = lexIpSetItem(src, pos);
    const span = { start: pos, end: l.end };
    const v = l.value;
    if (v.kind === 'ip') return { type: 'ip', value: v.value, span };
    if (v.kind === 'cidr') return { type: 'ip_cidr', address: v.address, prefix: v.prefix, span };
    return { type: 'ip_range', start: v.start, end: v.end, span };
  }
  const l = lexBytes(src, pos);
  return { type: 'bytes', value: l.value, span: { start: pos, end: l.end } };
}

