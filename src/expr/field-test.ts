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
 * Here are the tests and how they run; `compile-field-test.ts` makes them from comparisons.
 * A test reads a plain field by slot, or, for any other value that is not mapped (a call such as
 * `lower(http.host)`, an index), calls its compiled value function. Missing values are
 * `undefined`, which never equals a literal, is never in a set and never orders.
 */
import type { ExecutionContext, Value } from './context.js';
import type { ValueFn } from './compile-value.js';
import { memoSlot } from './context.js';
import type { Predicate } from './compile-rhs.js';
import { asciiLower, hasPrefix } from './wildcard.js';
import type { CompiledRegex } from './regex.js';

/** What a field test compares (see the table above; built by `compile-field-test.ts`). */
export const enum Kind { Eq, Ne, Contains, Prefix, PrefixLower, Suffix, InSet, InRanges, Lt, Le, Gt, Ge, True, NotTrue, Pred, Any, All }

/** The predicate of a test that has none. */
export const never: Predicate = () => false;
/** No ranges: every one empty (Infinity, -Infinity); a test's own ranges start as a copy (`compile-field-test.ts`). */
export const NO_RANGES: readonly number[] = [Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity, Infinity, -Infinity];

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
