/**
 * Field tests: the comparisons that decide most rules (a plain field against a literal, a set, a
 * prefix), compiled to data instead of closures and run by one function, `runTest`. Every test
 * object has the same shape and `runTest` is one function, so V8 inlines it (and the field read)
 * into the closures that call it: `a and b` of two field tests is one closure with no call inside,
 * where a closure per test costs a call per test that V8 cannot inline across a rule set (issue 17:
 * compiled rules within 1.5x of hand-written JS).
 *
 * | kind        | test of the field value `v`                                             |
 * |-------------|-------------------------------------------------------------------------|
 * | Eq / Ne     | `v === lit` / present and `v !== lit` (Bytes, Int, IP)                   |
 * | Contains    | present and `v.includes(lit)`                                            |
 * | Prefix      | present and `hasPrefix(v, lit)` (`starts_with`, `strict wildcard "p*"`)  |
 * | PrefixLower | present and `hasPrefix(asciiLower(v), lit)` (`wildcard "p*"`)            |
 * | Suffix      | present and `v.endsWith(lit)` (`ends_with`)                              |
 * | InSet       | `set.has(v)` (a string set)                                              |
 * | InRanges    | a number within one of up to four ranges (Int sets, IPv4 of IP sets), else `pred(v)` |
 * | Lt .. Ge    | `v < lit` ... (Int; a missing value never orders)                        |
 * | True / NotTrue | `v === true` / `v !== true` (a plain Bool field, and `not` of it)     |
 * | Pred        | present and `pred(v)`: any other comparison, through its predicate       |
 * | Any / All   | `any(f[key][*] op rhs)` / `all(...)`: the elements of `f[key]`, read once per request (`eq` inline, else `pred`) |
 *
 * A test reads a plain field by slot, or, for any other value that is not mapped (a call such as
 * `lower(http.host)`, an index), calls its compiled value function. Missing values are
 * `undefined`, which never equals a literal, is never in a set and never orders.
 */
import type { ComparisonExpr, ComparisonOp, Expression, IndexStep, Rhs, SetItem, ValueExpr } from './ast.js';
import { isLiteral } from './ast.js';
import type { ExecutionContext, Value } from './context.js';
import type { ValueFn } from './compile-value.js';
import { FIELD_SLOTS, memoSlot } from './context.js';
import { formatValue } from './format.js';
import { compilePredicate, ipRange, RangeSet, type Lists, type Predicate } from './compile-rhs.js';
import { parseIp } from './ip.js';
import { valueInfo } from './typing.js';
import { asciiLower, hasPrefix, parseWildcard } from './wildcard.js';
import { compileRegex, type CompiledRegex } from './regex.js';

const enum Kind { Eq, Ne, Contains, Prefix, PrefixLower, Suffix, InSet, InRanges, Lt, Le, Gt, Ge, True, NotTrue, Pred, Any, All }

const never: Predicate = () => false;
/** The elements of a missing container; emptied from a one-element array, so its elements kind is the converted arrays' (one map). */
const NO_ELEMENTS: Value[] = [''];
NO_ELEMENTS.pop();
const NO_RANGES: readonly number[] = [Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity];

/**
 * One compiled field test (see the table above). Fields unused by a kind keep neutral values. The
 * ranges are one packed double array shared by every test without ranges: as eight number fields
 * they were eight boxed heap numbers allocated with each test (V8 does not unbox double fields under
 * pointer compression): tests over three times the size, spread over memory, measured at about a
 * sixth of the time of one request through a thousand rules.
 */
export class FieldTest {
  /** The value's function when it is not a plain field (then `slot` is -1). */
  value: ValueFn | null = null;
  set: ReadonlySet<unknown> | null = null;
  pred: Predicate = never;
  /** Any / All: the key of the container, and whether elements are compared with `eq lit`. */
  key = '';
  elementEq = false;
  /** Up to four inclusive ranges as start, end pairs; unused ones are empty (Infinity, -Infinity). */
  ranges: readonly number[] = NO_RANGES;
  /** Any / All: the container `f[key]`, shared per request (memo slot, and how to read it). */
  container: { memo: number; read: ValueFn } | null = null;
  /** Pred of `matches`: the compiled pattern (its required literal, see `headOf`). */
  regex: CompiledRegex | null = null;

  constructor(readonly slot: number, readonly kind: Kind, readonly lit: string | number | bigint = '') {}
}

/** Compiles a value that is not a plain field (provided by the compiler). */
export type ValueOf = (value: ValueExpr) => ValueFn;

/**
 * What a filter's root may run itself instead of through `runTest` (compile-root.ts): a plain
 * field equal to a number or a string literal, or in up to four number ranges, or `any(f[key][*]
 * eq "lit")` (`f[key]` is memo slot `memo` of the context, computed by `read`), a value that is not a plain field (`lower(http.host)`)
 * equal to a string, a plain field that contains a string, or any other comparison of a plain
 * field through its predicate (`matches`, `wildcard`, a large set), a plain Bool field or `not` of
 * it. Undefined for any other test.
 */
export type TestHead =
  | { kind: 'number'; slot: number; lit: number }
  | { kind: 'string'; slot: number; lit: string }
  | { kind: 'ranges'; slot: number; ranges: readonly number[]; other: Predicate }
  | { kind: 'anyEq'; memo: number; read: ValueFn; lit: string }
  | { kind: 'valueEq'; value: ValueFn; lit: string }
  | { kind: 'contains'; slot: number; lit: string }
  | { kind: 'pred'; slot: number; pred: Predicate }
  | { kind: 'bool'; slot: number; negated: boolean }
  | { kind: 'regexFolded'; slot: number; re: CompiledRegex; literal: string; memo: number; read: ValueFn };

/** The head of `t` (see `TestHead`), or undefined. */
export function headOf(t: FieldTest): TestHead | undefined {
  if (t.kind === Kind.Any && t.elementEq && t.container !== null) return { kind: 'anyEq', memo: t.container.memo, read: t.container.read, lit: t.lit as string };
  if (t.kind === Kind.Eq && t.value !== null && typeof t.lit === 'string') return { kind: 'valueEq', value: t.value, lit: t.lit };
  if (t.value !== null) return undefined;
  if (t.kind === Kind.Contains) return { kind: 'contains', slot: t.slot, lit: t.lit as string };
  if (t.kind === Kind.Eq && typeof t.lit === 'number') return { kind: 'number', slot: t.slot, lit: t.lit };
  if (t.kind === Kind.Eq && typeof t.lit === 'string') return { kind: 'string', slot: t.slot, lit: t.lit };
  if (t.kind === Kind.True || t.kind === Kind.NotTrue) return { kind: 'bool', slot: t.slot, negated: t.kind === Kind.NotTrue };
  if (t.kind === Kind.InRanges) return { kind: 'ranges', slot: t.slot, ranges: t.ranges, other: t.pred };
  const required = t.regex?.required;
  if (t.kind === Kind.Pred && required?.foldCase === true) {
    const lowered = loweredOf(t.slot);
    return { kind: 'regexFolded', slot: t.slot, re: t.regex!, literal: required.literal, memo: lowered.memo, read: lowered.read };
  }
  if (t.kind === Kind.Pred) return { kind: 'pred', slot: t.slot, pred: t.pred };
  return undefined;
}

/** Runs a field test against the request in `ctx`. */
export function runTest(ctx: ExecutionContext, t: FieldTest): boolean {
  const v = t.value === null ? ctx.field(t.slot) : t.value(ctx);
  switch (t.kind) {
    // Two comparisons, one per literal type: V8 keeps feedback per comparison, and one that saw
    // strings and numbers compiles to the generic one (a call) for both.
    case Kind.Eq: return typeof t.lit === 'string' ? v === t.lit : v === t.lit;
    case Kind.Ne: return v !== undefined && (typeof t.lit === 'string' ? v !== t.lit : v !== t.lit);
    case Kind.Contains: return v !== undefined && (v as string).includes(t.lit as string);
    case Kind.Prefix: return v !== undefined && hasPrefix(v as string, t.lit as string);
    case Kind.PrefixLower: return v !== undefined && hasPrefix(asciiLower(v as string), t.lit as string);
    case Kind.Suffix: return v !== undefined && (v as string).endsWith(t.lit as string);
    case Kind.InSet: return t.set!.has(v);
    case Kind.InRanges:
      if (typeof v !== 'number') return v !== undefined && t.pred(v);
      return inRanges(v, t.ranges);
    case Kind.Lt: return (v as number) < (t.lit as number);
    case Kind.Le: return (v as number) <= (t.lit as number);
    case Kind.Gt: return (v as number) > (t.lit as number);
    case Kind.Ge: return (v as number) >= (t.lit as number);
    case Kind.True: return v === true;
    case Kind.NotTrue: return v !== true;
    case Kind.Pred: return v !== undefined && t.pred(v);
    case Kind.Any: return quantify(v, t, false);
    case Kind.All: return quantify(v, t, true);
  }
}

/**
 * `v` in one of the four ranges of a field test's `ranges`. They are sorted and disjoint (a
 * `RangeSet`'s), unused ones at the end (Infinity, -Infinity): below a start, `v` is below every
 * later one.
 */
export function inRanges(v: number, r: readonly number[]): boolean {
  if (v < r[0]!) return false;
  if (v <= r[1]!) return true;
  if (v < r[2]!) return false;
  if (v <= r[3]!) return true;
  if (v < r[4]!) return false;
  if (v <= r[5]!) return true;
  return v >= r[6]! && v <= r[7]!;
}

/**
 * `any`/`all` over the elements of the container `c` (`field[key]`, read once per request); a
 * missing container is empty (`any` false, `all` true).
 */
function quantify(c: Value | undefined, t: FieldTest, all: boolean): boolean {
  if (c === undefined) return all;
  if (Array.isArray(c)) {
    const items = c as readonly Value[];
    if (t.elementEq) {
      for (let i = 0; i < items.length; i++) if ((items[i] === t.lit) !== all) return !all;
    } else {
      for (let i = 0; i < items.length; i++) if (t.pred(items[i]!) !== all) return !all;
    }
    return all;
  }
  if (c instanceof Map) for (const x of c.values() as Iterable<Value>) if ((t.elementEq ? x === t.lit : t.pred(x)) !== all) return !all;
  return all;
}

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

/**
 * The field in `slot` lower-cased (`toLowerCase`, as `CompiledRegex.test` does for a required
 * literal of a `(?i)` pattern), shared by the filters of a request: 1,000 `http.user_agent matches
 * "(?i)..."` rules lower-case the user agent once, where each pattern's `test` did it again (issue
 * 35). The memo key is no expression's text (a NUL starts it).
 */
function loweredOf(slot: number): { memo: number; read: ValueFn } {
  const read = (ctx: ExecutionContext): Value | undefined => {
    const v = ctx.field(slot);
    return typeof v === 'string' ? v.toLowerCase() : undefined;
  };
  return { memo: memoSlot(`\u0000toLowerCase ${slot}`), read };
}
