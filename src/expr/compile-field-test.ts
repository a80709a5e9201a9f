/**
 * Making field tests (`field-test.ts`) from the comparisons of a filter: a plain field (or, with
 * `valueOf`, any value that is not mapped) against a literal, a set, a prefix or suffix, `not` of a
 * Bool field, or a quantifier over `field[key][*]`; any other comparison of a plain field becomes a
 * test through its predicate. Apart from `field-test.ts` so that the tests' runtime reads alone.
 */
import type { ComparisonExpr, ComparisonOp, Expression, IndexStep, Rhs, SetItem, ValueExpr } from './ast.js';
import { isLiteral } from './ast.js';
import type { ExecutionContext, Value } from './context.js';
import type { ValueFn } from './compile-value.js';
import { FIELD_SLOTS, memoSlot } from './context.js';
import { formatValue } from './format.js';
import { compilePredicate, ipRange, RangeSet, type Lists, type Predicate } from './compile-rhs.js';
import { FieldTest, Kind, NO_RANGES, never } from './field-test.js';
import { parseIp } from './ip.js';
import { valueInfo } from './typing.js';
import { asciiLower, parseWildcard } from './wildcard.js';
import { compileRegex } from './regex.js';

/** The elements of a missing container; emptied from a one-element array, so its elements kind is the converted arrays' (one map). */
const NO_ELEMENTS: Value[] = [''];
NO_ELEMENTS.pop();

/** Compiles a value that is not a plain field (provided by the compiler). */
export type ValueOf = (value: ValueExpr) => ValueFn;

/** The slot of a plain field value (`http.host`, no index), or undefined. */
function plainFieldSlot(value: ValueExpr): number | undefined {
  return value.base.type === 'field' && value.indexes.length === 0 ? FIELD_SLOTS.get(value.base.name) : undefined;
}

/**
 * The field test of `expr`, or undefined when it is not one comparison of one value (a plain
 * field, or with `valueOf` any value that is not mapped), `not` of a Bool one, or a quantifier
 * over `field[key][*]`.
 */
export function fieldTestOf(expr: Expression, lists: Lists, valueOf?: ValueOf): FieldTest | undefined {
  if (expr.type === 'not') {
    const inner = expr.arg.type === 'comparison' ? fieldTestOf(expr.arg, lists, valueOf) : undefined;
    if (inner?.kind !== Kind.True) return undefined;
    const t = new FieldTest(inner.slot, Kind.NotTrue);
    t.value = inner.value;
    return t;
  }
  if (expr.type === 'quantifier') return quantifierTest(expr, lists);
  if (expr.type !== 'comparison') return undefined;
  const affix = expr.op === 'is_true' || expr.rhs === null ? affixTest(expr) : undefined;
  if (affix !== undefined) return affix;
  const slot = plainFieldSlot(expr.lhs);
  if (slot === undefined) {
    if (valueOf === undefined || valueInfo(expr.lhs).mapped) return undefined;
    const t = testOfSlot(-1, expr, lists);
    t.value = valueOf(expr.lhs);
    return t;
  }
  return testOfSlot(slot, expr, lists);
}

function testOfSlot(slot: number, expr: ComparisonExpr, lists: Lists): FieldTest {
  if (expr.op === 'is_true' || expr.rhs === null) return new FieldTest(slot, Kind.True);
  return literalTest(slot, expr.op, expr.rhs) ?? predicateTest(slot, expr, lists);
}

/** `any(field[key][*] op rhs)` / `all(...)` of a plain field (the header maps). */
function quantifierTest(expr: Extract<Expression, { type: 'quantifier' }>, lists: Lists): FieldTest | undefined {
  const arg = expr.arg;
  if (arg.type !== 'comparison' || arg.rhs === null || arg.lhs.base.type !== 'field') return undefined;
  const [key, each, ...rest] = arg.lhs.indexes;
  if (key?.kind !== 'key' || each?.kind !== 'each' || rest.length > 0) return undefined;
  const slot = FIELD_SLOTS.get(arg.lhs.base.name);
  if (slot === undefined) return undefined;
  const elementEq = arg.op === 'eq' && arg.rhs.type === 'bytes';
  const t = new FieldTest(slot, expr.op === 'all' ? Kind.All : Kind.Any, elementEq ? (arg.rhs as { value: string }).value : '');
  t.key = key.value;
  t.elementEq = elementEq;
  const container = containerOf(slot, arg.lhs.base, key);
  t.container = container;
  t.value = (ctx) => ctx.memoized(container.memo, container.read);
  if (!elementEq) t.pred = compilePredicate(arg.op, arg.rhs, valueInfo(arg.lhs).type, lists);
  return t;
}

/**
 * `field[key]` (a header's values) as a value shared by every filter that reads it: one map lookup
 * per request instead of one per filter (issue 35: 1,000 `any(headers["x-..."][*] eq ...)` rules).
 * It is always an array (the quantifiers' elements): a missing container is the empty array, a map
 * its values, so a filter loops without asking what it got (`any` of nothing is false, `all` true,
 * as for a missing container).
 */
function containerOf(slot: number, base: ValueExpr['base'], key: Extract<IndexStep, { kind: 'key' }>): { memo: number; read: ValueFn } {
  const memo = memoSlot(formatValue({ type: 'value', base, indexes: [key], span: base.span }));
  const name = key.value;
  const read = (ctx: ExecutionContext): readonly Value[] => {
    const m = ctx.field(slot);
    const c = m instanceof Map ? (m.get(name) as Value | undefined) : undefined;
    return Array.isArray(c) ? (c as readonly Value[]) : c instanceof Map ? [...(c.values() as Iterable<Value>)] : NO_ELEMENTS;
  };
  return { memo, read };
}

/** `starts_with(field, "lit")` / `ends_with(field, "lit")` standing as a Bool. */
function affixTest(expr: ComparisonExpr): FieldTest | undefined {
  const call = expr.lhs.base;
  if (expr.lhs.indexes.length > 0 || call.type !== 'call' || (call.name !== 'starts_with' && call.name !== 'ends_with') || call.args.length !== 2) return undefined;
  const [subject, affix] = call.args;
  if (subject === undefined || affix === undefined || subject.type !== 'value' || !isLiteral(affix) || affix.type !== 'bytes') return undefined;
  const slot = plainFieldSlot(subject);
  return slot === undefined ? undefined : new FieldTest(slot, call.name === 'starts_with' ? Kind.Prefix : Kind.Suffix, affix.value);
}

const BYTES_OPS: Partial<Record<ComparisonOp, Kind>> = { eq: Kind.Eq, ne: Kind.Ne, contains: Kind.Contains };
const INT_OPS: Partial<Record<ComparisonOp, Kind>> = { eq: Kind.Eq, ne: Kind.Ne, lt: Kind.Lt, le: Kind.Le, gt: Kind.Gt, ge: Kind.Ge };

function literalTest(slot: number, op: ComparisonOp, rhs: Rhs): FieldTest | undefined {
  const kind = (table: Partial<Record<ComparisonOp, Kind>>, lit: string | number | bigint) => {
    const k = table[op];
    return k === undefined ? undefined : new FieldTest(slot, k, lit);
  };
  switch (rhs.type) {
    case 'bytes': return kind(BYTES_OPS, rhs.value);
    case 'int': return kind(INT_OPS, Number(rhs.value));
    case 'ip': return op === 'eq' || op === 'ne' ? kind(BYTES_OPS, parseIp(rhs.value)!) : undefined;
    case 'wildcard': {
      const { pieces } = parseWildcard(rhs.value);
      if (pieces.length !== 2 || pieces[1] !== '') return undefined;
      return op === 'strict wildcard' ? new FieldTest(slot, Kind.Prefix, pieces[0]!) : new FieldTest(slot, Kind.PrefixLower, asciiLower(pieces[0]!));
    }
    case 'set': return op === 'in' ? setTest(slot, rhs.items) : undefined;
    default: return undefined;
  }
}

function setTest(slot: number, items: readonly SetItem[]): FieldTest | undefined {
  if (items.every((i) => i.type === 'bytes')) {
    const t = new FieldTest(slot, Kind.InSet);
    t.set = new Set(items.map((i) => (i as { value: string }).value));
    return t;
  }
  if (items.every((i) => i.type === 'int' || i.type === 'int_range')) {
    const ranges = new RangeSet<number>(items.map((i) => (i.type === 'int' ? [Number(i.value), Number(i.value)] : i.type === 'int_range' ? [Number(i.start), Number(i.end)] : [0, 0])));
    return rangesTest(slot, ranges, never);
  }
  if (items.every((i) => i.type === 'ip' || i.type === 'ip_range' || i.type === 'ip_cidr')) {
    const all = items.map(ipRange);
    const v4 = new RangeSet<number>(all.filter((r): r is [number, number] => typeof r[0] === 'number'));
    const v6 = new RangeSet<bigint>(all.filter((r): r is [bigint, bigint] => typeof r[0] === 'bigint'));
    const v6Test: Predicate = v6.bounds.starts.length === 0 ? never : (v) => typeof v === 'bigint' && v6.has(v);
    return rangesTest(slot, v4, v6Test);
  }
  return undefined;
}

/** A number in up to four ranges (else `other(v)` for values that are not numbers); larger sets by binary search. */
function rangesTest(slot: number, ranges: RangeSet<number>, other: Predicate): FieldTest {
  const { starts, ends } = ranges.bounds;
  const t = new FieldTest(slot, starts.length <= 4 ? Kind.InRanges : Kind.Pred);
  if (starts.length > 4) {
    t.pred = (v) => (typeof v === 'number' ? ranges.has(v) : other(v));
    return t;
  }
  t.pred = other;
  // A copy of the all-double literal keeps its unboxed double elements when integers are written in.
  const own = NO_RANGES.slice();
  for (let i = 0; i < 4; i++) [own[2 * i], own[2 * i + 1]] = [starts[i] ?? Infinity, ends[i] ?? -Infinity];
  t.ranges = own;
  return t;
}

/** Any other comparison of a plain field: its predicate, called for present values. */
function predicateTest(slot: number, expr: ComparisonExpr, lists: Lists): FieldTest {
  const t = new FieldTest(slot, Kind.Pred);
  t.pred = compilePredicate(expr.op, expr.rhs!, valueInfo(expr.lhs).type, lists);
  if (expr.rhs!.type === 'regex') t.regex = compileRegex(expr.rhs!.pattern);
  return t;
}
