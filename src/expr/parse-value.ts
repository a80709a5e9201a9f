/**
 * Values: fields, function calls and their indexes (`lhs := (field | call) index*`, no space before
 * `[`), and function arguments with the real engine's look-ahead heuristics
 * (`FunctionCallArgExpr::lex_with`): a string literal; a full logical expression when the argument
 * starts with `(`, `not`/`!` or `any(`/`all(`; a value, or a single comparison when an operator
 * follows it; otherwise an IP, integer or hex-bytes literal.
 */
import type { CallArg, CallExpr, Expression, IndexStep, Literal, ValueExpr } from './ast.js';
import { fail, LexFailure } from './errors.js';
import { applyIndex, resolveIdentifier } from './check.js';
import type { ArgInfo, FunctionDef } from './functions/catalog.js';
import { expectLiteral, lexIdentifier, lexInt, skipSpace } from './lex.js';
import { lexBytes, lexHexBytes, lexQuotedString, lexRawString } from './lex-string.js';
import { lexIpAddress } from './lex-ip.js';
import {
  comparisonOpAt, nest, quantifierAt, unaryAt, type ParserState, type TypedArg, type TypedValue,
} from './parse-state.js';
import { arrayOf, type Type } from './types.js';
import { textToBytes } from './ast.js';

/** `(field | call) index*`. */
export function parseValue(state: ParserState, pos: number, depth: number): TypedValue {
  const { src } = state;
  const ident = lexIdentifier(src, pos);
  const resolved = resolveIdentifier(ident.value, state.phase, pos, ident.end);
  let base: ValueExpr['base'];
  let type: Type;
  let mapped = false;
  let p: number;
  if (resolved.kind === 'field') {
    // Spans are built apart: cold (unoptimised) code copies a literal nested in a literal through the runtime.
    const span = { start: pos, end: ident.end };
    base = { type: 'field', name: ident.value, span };
    type = resolved.def.type;
    p = ident.end;
  } else {
    const call = parseCall(state, resolved.def, pos, ident.end, nest(state, depth, skipSpace(src, ident.end)));
    base = call.node;
    type = call.type;
    p = call.end;
  }
  const indexes: IndexStep[] = [];
  while (src[p] === '[') {
    const step = lexIndexStep(src, p);
    type = applyIndex(type, step.value, p, step.end);
    if (step.value.kind === 'each') mapped = true;
    indexes.push(step.value);
    p = step.end;
  }
  const span = { start: pos, end: p };
  const node: ValueExpr = { type: 'value', base, indexes, span };
  return { node, type, mapped, end: p };
}

function lexIndexStep(src: string, open: number): { value: IndexStep; end: number } {
  const p = skipSpace(src, open + 1);
  let value: IndexStep;
  let after: number;
  if (src[p] === '*') {
    value = { kind: 'each' };
    after = p + 1;
  } else if (src[p] === '"') {
    const key = lexQuotedString(src, p);
    const text = Buffer.from(key.value, 'latin1').toString('utf8');
    if (textToBytes(text) !== key.value) fail('ExpectedLiteral', 'expected literal "expected utf8 string"', p, src.length);
    value = { kind: 'key', value: text };
    after = key.end;
  } else {
    let n: bigint;
    try {
      const lexed = lexInt(src, p);
      n = lexed.value;
      after = lexed.end;
    } catch (err) {
      if (!(err instanceof LexFailure)) throw err;
      return fail('ExpectedLiteral', 'expected literal "expected quoted utf8 string or positive integer"', p, src.length);
    }
    if (n < 0n || n > 0xffffffffn) fail('ExpectedLiteral', 'expected literal "expected positive integer as index"', p, src.length);
    value = { kind: 'index', value: Number(n) };
  }
  const end = expectLiteral(src, skipSpace(src, after), ']');
  return { value, end };
}

function parseCall(state: ParserState, fn: FunctionDef, start: number, nameEnd: number, depth: number): { node: CallExpr; type: Type; end: number } {
  const { src } = state;
  const name = fn.name;
  let p = skipSpace(src, expectLiteral(src, skipSpace(src, nameEnd), '('));
  const args: TypedArg[] = [];
  const infos: ArgInfo[] = [];
  while (p < src.length && src[p] !== ')') {
    if (args.length > 0) p = skipSpace(src, expectLiteral(src, p, ','));
    const argStart = p;
    const arg = parseCallArg(state, p, depth);
    if (arg.mapped && args.length > 0) fail('InvalidMapEachAccess', 'invalid use of map each access operator', argStart, arg.end);
    if (args.length >= fn.maxArgs) fail('InvalidArgumentsCount', 'invalid number of arguments', argStart, src.length);
    const info: ArgInfo = {
      type: arg.type,
      literal: isLiteralNode(arg.node) ? arg.node : undefined,
      fieldName: arg.node.type === 'value' && arg.node.base.type === 'field' && arg.node.indexes.length === 0 ? arg.node.base.name : undefined,
    };
    const problem = fn.checkArg(args.length, info, infos);
    if (problem) fail(problem.kind, problem.reason, argStart, arg.end);
    args.push(arg);
    infos.push(info);
    p = skipSpace(src, arg.end);
  }
  if (args.length < fn.minArgs) fail('InvalidArgumentsCount', 'invalid number of arguments', p, src.length);
  const end = expectLiteral(src, p, ')');
  const ret = fn.returnType(infos);
  const type = args[0]?.mapped ? arrayOf(ret) : ret;
  return { node: { type: 'call', name, args: args.map((a) => a.node), span: { start, end } }, type, end };
}

function isLiteralNode(node: CallArg): node is Literal {
  return node.type === 'bytes' || node.type === 'int' || node.type === 'ip';
}

const isFieldChar = (c: string | undefined): boolean => c !== undefined && (/[g-zG-Z_]/.test(c));
const isFieldOrInt = (c: string | undefined): boolean => c !== undefined && /[A-Za-z0-9_]/.test(c);

/** A function or quantifier argument. */
export function parseCallArg(state: ParserState, pos: number, depth: number): TypedArg {
  const { src } = state;
  const [c, c2, c3] = [src[pos], src[pos + 1], src[pos + 2]];
  if (c === '"' || (c === 'r' && (c2 === '#' || c2 === '"'))) {
    const lit = c === '"' ? lexQuotedString(src, pos) : rawAsBytes(src, pos);
    return literalArg({ type: 'bytes', value: lit.value, span: { start: pos, end: lit.end } });
  }
  if (c === '(' || unaryAt(src, pos) > 0 || quantifierAt(src, pos)) {
    const parsed = state.parseLogical(state, pos, depth);
    return { node: parsed.node, type: parsed.type, mapped: false, end: parsed.end };
  }
  const fieldLike = isFieldChar(c) || (isFieldOrInt(c) && isFieldChar(c2)) || (isFieldOrInt(c) && isFieldOrInt(c2) && isFieldChar(c3));
  if (fieldLike) return valueOrComparison(state, parseValue(state, pos, depth));
  let value: TypedValue | undefined;
  try {
    value = parseValue(state, pos, depth);
  } catch (err) {
    if (!(err instanceof LexFailure)) throw err;
  }
  return value ? valueOrComparison(state, value) : literalFallback(src, pos);
}

function rawAsBytes(src: string, pos: number): { value: string; end: number } {
  const raw = lexRawString(src, pos);
  return { value: textToBytes(raw.value), end: raw.end };
}

function valueOrComparison(state: ParserState, lhs: TypedValue): TypedArg {
  if (!comparisonOpAt(state.src, skipSpace(state.src, lhs.end))) {
    return { node: lhs.node, type: lhs.type, mapped: lhs.mapped, end: lhs.end };
  }
  const cmp = state.parseComparisonWithLhs(state, lhs);
  return { node: cmp.node as Expression, type: cmp.type, mapped: false, end: cmp.end };
}

function literalArg(node: Literal): TypedArg {
  const type: Type = { kind: node.type === 'bytes' ? 'Bytes' : node.type === 'int' ? 'Int' : 'Ip' };
  return { node, type, mapped: false, end: node.span.end };
}

// IP, then Int, then hex bytes (digits < 256 would otherwise read as bytes); else unrecognised.
function literalFallback(src: string, pos: number): TypedArg {
  const attempts: Array<() => Literal> = [
    () => { const l = lexIpAddress(src, pos); return { type: 'ip', value: l.value, span: { start: pos, end: l.end } }; },
    () => { const l = lexInt(src, pos); return { type: 'int', value: l.value, span: { start: pos, end: l.end } }; },
    () => { const l = src[pos] === 'r' || src[pos] === '"' ? lexBytes(src, pos) : lexHexBytes(src, pos); return { type: 'bytes', value: l.value, span: { start: pos, end: l.end } }; },
  ];
  for (const attempt of attempts) {
    try {
      return literalArg(attempt());
    } catch (err) {
      if (!(err instanceof LexFailure)) throw err;
    }
  }
  return fail('UnrecognisedInput', 'unrecognised input', pos, src.length);
}
