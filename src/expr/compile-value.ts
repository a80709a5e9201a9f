/**
 * Compiles value expressions (fields, calls, indexes) into closures over an `ExecutionContext`.
 * A plain value compiles to `ValueFn` (undefined = missing: absent key, index out of range, unset
 * field, function without a result). A value that went through `[*]` compiles to `ManyFn`, the list
 * of element values (missing elements dropped, nested `[*]` flattened), or undefined when the
 * container itself is missing.
 */
import type { CallArg, Expression, IndexStep, Literal, ValueExpr } from './ast.js';
import { isExpression, isLiteral } from './ast.js';
import type { ExecutionContext, Value } from './context.js';
import { FIELD_SLOTS, memoSlot } from './context.js';
import { formatValue } from './format.js';
import { FUNCTIONS } from './functions/catalog.js';
import { parseIp } from './ip.js';
import { FIELDS } from './scheme.js';
import { argInfo, isVector, valueInfo } from './typing.js';

/** A compiled plain value. */
export type ValueFn = (ctx: ExecutionContext) => Value | undefined;
/** A compiled mapped value: the element values. */
export type ManyFn = (ctx: ExecutionContext) => readonly Value[] | undefined;
/** Compiles Bool expressions (provided by compile.ts, to break the cycle). */
export interface ExprCompiler {
  bool(expr: Expression): (ctx: ExecutionContext) => boolean;
  vector(expr: Expression): (ctx: ExecutionContext) => readonly boolean[];
}

/** The evaluator value of a literal. */
export function literalValue(lit: Literal): Value {
  if (lit.type === 'bytes') return lit.value;
  if (lit.type === 'int') return Number(lit.value);
  const ip = parseIp(lit.value);
  if (ip === undefined) throw new Error(`invalid IP literal ${lit.value}`);
  return ip;
}

/** One key or index step of a value; undefined when it does not apply or is missing. */
export function step(value: Value, s: IndexStep): Value | undefined {
  if (s.kind === 'index') return Array.isArray(value) ? (value as readonly Value[])[s.value] : undefined;
  if (s.kind === 'key') return value instanceof Map ? value.get(s.value) : undefined;
  return undefined;
}

function elements(value: Value): readonly Value[] {
  if (Array.isArray(value)) return value as readonly Value[];
  return value instanceof Map ? [...value.values()] : [];
}

/** Compiles a value that is not mapped. */
export function compileValue(value: ValueExpr, exprs: ExprCompiler): ValueFn {
  let fn = compileBase(value.base, exprs);
  for (const s of value.indexes) {
    const prev = fn;
    fn = (ctx) => {
      const v = prev(ctx);
      return v === undefined ? undefined : step(v, s);
    };
  }
  return fn;
}

/** Compiles a mapped value (one with `[*]`). */
export function compileMany(value: ValueExpr, exprs: ExprCompiler): ManyFn {
  const firstEach = value.indexes.findIndex((s) => s.kind === 'each');
  const prefix = compileValue({ ...value, indexes: value.indexes.slice(0, firstEach) }, exprs);
  let many: ManyFn = (ctx) => {
    const v = prefix(ctx);
    return v === undefined ? undefined : elements(v);
  };
  for (const s of value.indexes.slice(firstEach + 1)) {
    const prev = many;
    many = s.kind === 'each'
      ? (ctx) => prev(ctx)?.flatMap(elements)
      : (ctx) => prev(ctx)?.map((e) => step(e, s)).filter((e): e is Value => e !== undefined);
  }
  return many;
}

function compileBase(base: ValueExpr['base'], exprs: ExprCompiler): ValueFn {
  if (base.type === 'field') {
    const def = FIELDS.get(base.name);
    const slot = FIELD_SLOTS.get(base.name);
    if (!def || slot === undefined) throw new Error(`unknown field ${base.name}`);
    return (ctx) => ctx.field(slot);
  }
  const def = FUNCTIONS.get(base.name);
  if (!def) throw new Error(`unknown function ${base.name}`);
  const impl = def.build(base.args.map(argInfo));
  const [first, ...rest] = base.args;
  const restFns = rest.map((a) => compileArg(a, exprs));
  if (first && first.type === 'value' && valueInfo(first).mapped) {
    const many = compileMany(first, exprs);
    return (ctx) => {
      const items = many(ctx);
      if (items === undefined) return undefined;
      const others = restFns.map((f) => f(ctx));
      const out: Value[] = [];
      for (const item of items) {
        const r = impl([item, ...others]);
        if (r !== undefined) out.push(r);
      }
      return out;
    };
  }
  // One argument array per call node, refilled on each call (evaluation never re-enters a node);
  // literal arguments are written once, here, and only the others are evaluated per call.
  const argv: Array<Value | undefined> = base.args.map((a) => (isLiteral(a) ? literalValue(a) : undefined));
  const dynamic = base.args.flatMap((a, i) => (isLiteral(a) ? [] : [[i, compileArg(a, exprs)] as const]));
  let call: ValueFn;
  if (dynamic.length === 1) {
    const [[at, f]] = dynamic as [readonly [number, ValueFn]];
    call = (ctx) => {
      argv[at] = f(ctx);
      return impl(argv);
    };
  } else {
    call = (ctx) => {
      for (const [at, f] of dynamic) argv[at] = f(ctx);
      return impl(argv);
    };
  }
  // Calls are pure functions of the request: one shared by many filters (`lower(http.host)`) runs
  // once per request. Calls with Bool-expression arguments are not shared (they may use lists,
  // which belong to one compile call).
  if (base.args.some((a) => isExpression(a))) return call;
  const slot = memoSlot(formatValue({ type: 'value', base, indexes: [], span: base.span }));
  return (ctx) => ctx.memoized(slot, call);
}

function compileArg(arg: CallArg, exprs: ExprCompiler): ValueFn {
  if (arg.type === 'value') return compileValue(arg, exprs);
  if (isExpression(arg)) {
    if (isVector(arg)) {
      const vec = exprs.vector(arg);
      return (ctx) => vec(ctx);
    }
    const one = exprs.bool(arg);
    return (ctx) => one(ctx);
  }
  const constant = literalValue(arg);
  return () => constant;
}
