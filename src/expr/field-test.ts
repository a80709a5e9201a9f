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
 *
 * Missing values are `undefined`, which never equals a literal, is never in a set and never orders.
 */
import type { ComparisonExpr, ComparisonOp, Expression, Rhs, SetItem, ValueExpr } from './ast.js';
import { isLiteral } from './ast.js';
import type { ExecutionContext, Value } from './context.js';
import { FIELD_SLOTS } from './context.js';
import { compilePredicate, ipRange, RangeSet, type Lists, type Predicate } from './compile-rhs.js';
import { parseIp } from './ip.js';
import { valueInfo } from './typing.js';
import { asciiLower, hasPrefix, parseWildcard } from './wildcard.js';

const enum Kind { Eq, Ne, Contains, Prefix, PrefixLower, Suffix, InSet, InRanges, Lt, Le, Gt, Ge, True, NotTrue, Pred }

const never: Predicate = () => false;

/** One compiled field test (see the table above). Fields unused by a kind keep neutral values. */
export class FieldTest {
  set: ReadonlySet<unknown> | null = null;
  // Up to four inclusive ranges; unused ones are empty ([Infinity, -Infinity]).
  s0 = Infinity; e0 = -Infinity; s1 = Infinity; e1 = -Infinity;
  s2 = Infinity; e2 = -Infinity; s3 = Infinity; e3 = -Infinity;
  pred: Predicate = never;

  constructor(readonly slot: number, readonly kind: Kind, readonly lit: string | number | bigint = '') {}
}

/** Runs a field test against the request in `ctx`. */
export function runTest(ctx: ExecutionContext, t: FieldTest): boolean {
  const v = ctx.field(t.slot);
  switch (t.kind) {
    case Kind.Eq: return v === t.lit;
    case Kind.Ne: return v !== undefined && v !== t.lit;
    case Kind.Contains: return v !== undefined && (v as string).includes(t.lit as string);
    case Kind.Prefix: return v !== undefined && hasPrefix(v as string, t.lit as string);
    case Kind.PrefixLower: return v !== undefined && hasPrefix(asciiLower(v as string), t.lit as string);
    case Kind.Suffix: return v !== undefined && (v as string).endsWith(t.lit as string);
    case Kind.InSet: return t.set!.has(v);
    case Kind.InRanges:
      if (typeof v !== 'number') return v !== undefined && t.pred(v);
      return (v >= t.s0 && v <= t.e0) || (v >= t.s1 && v <= t.e1) || (v >= t.s2 && v <= t.e2) || (v >= t.s3 && v <= t.e3);
    case Kind.Lt: return (v as number) < (t.lit as number);
    case Kind.Le: return (v as number) <= (t.lit as number);
    case Kind.Gt: return (v as number) > (t.lit as number);
    case Kind.Ge: return (v as number) >= (t.lit as number);
    case Kind.True: return v === true;
    case Kind.NotTrue: return v !== true;
    case Kind.Pred: return v !== undefined && t.pred(v);
  }
}

/** The slot of a plain field value (`http.host`, no index), or undefined. */
export function plainFieldSlot(value: ValueExpr): number | undefined {
  return value.base.type === 'field' && value.indexes.length === 0 ? FIELD_SLOTS.get(value.base.name) : undefined;
}

/** The field test of `expr`, or undefined when it is not a test of one plain field. */
export function fieldTestOf(expr: Expression, lists: Lists): FieldTest | undefined {
  if (expr.type === 'not') {
    const inner = expr.arg.type === 'comparison' ? fieldTestOf(expr.arg, lists) : undefined;
    return inner?.kind === Kind.True ? new FieldTest(inner.slot, Kind.NotTrue) : undefined;
  }
  if (expr.type !== 'comparison') return undefined;
  if (expr.op === 'is_true' || expr.rhs === null) return affixTest(expr) ?? boolTest(expr.lhs);
  const slot = plainFieldSlot(expr.lhs);
  if (slot === undefined) return undefined;
  return literalTest(slot, expr.op, expr.rhs) ?? predicateTest(slot, expr, lists);
}

function boolTest(lhs: ValueExpr): FieldTest | undefined {
  const slot = plainFieldSlot(lhs);
  return slot === undefined ? undefined : new FieldTest(slot, Kind.True);
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
  [t.s0, t.e0] = [starts[0] ?? Infinity, ends[0] ?? -Infinity];
  [t.s1, t.e1] = [starts[1] ?? Infinity, ends[1] ?? -Infinity];
  [t.s2, t.e2] = [starts[2] ?? Infinity, ends[2] ?? -Infinity];
  [t.s3, t.e3] = [starts[3] ?? Infinity, ends[3] ?? -Infinity];
  return t;
}

/** Any other comparison of a plain field: its predicate, called for present values. */
function predicateTest(slot: number, expr: ComparisonExpr, lists: Lists): FieldTest {
  const t = new FieldTest(slot, Kind.Pred);
  t.pred = compilePredicate(expr.op, expr.rhs!, valueInfo(expr.lhs).type, lists);
  return t;
}
