/**
 * The filter of a whole expression: the function a rule set calls once per rule per request
 * (issues 17 and 35: compiled rules within 1.5x of hand-written closures on every kind of
 * expression real zones write). Its cost per rule is what a rule set pays 1,000 times, so:
 * - a wrapper around the compiled tree would cost a second call per rule that V8 cannot inline
 *   (each rule's tree is another closure): the common roots (a field test, `and`/`or` of two with
 *   a field test first) take the request themselves;
 * - the first test of a root, when it is a plain field equal to a number or a string literal, in
 *   up to four number ranges (`ip.src in {…}`) or containing a string, a call equal to a string
 *   (`lower(http.host) eq`), or `any(f[key][*] eq "…")`, is written out in a closure of its own
 *   (`TestHead`), with its literal in the closure: no test object to load, no dispatch on its
 *   kind, and V8's feedback at each comparison sees one type (one shared `v === lit` that saw
 *   strings and numbers compiles to the generic comparison). `ip.src` reads the context's `ip4`
 *   number; `matches "(?i)…"` shares the lower-cased field per request. Other tests run through
 *   `runTest`, which V8 inlines; the second test of an `and`/`or` is a closure of its kind (`tailOf`);
 * - a context is told from a request record inline, by a mark on its prototype (`instanceof` walks
 *   the prototype chain every call; a call to a helper checks the helper's identity every call).
 * Literals and slots are parameters of the factories, not `const`s: V8 checks a captured `const`
 * for its temporal dead zone on every read.
 */
import { ExecutionContext, FIELD_SLOTS, type RequestFields } from './context.js';
import { headOf, inRanges, runTest, type FieldTest } from './field-test.js';
import type { Predicate } from './compile-rhs.js';
import type { Value } from './context.js';
import type { ValueFn } from './compile-value.js';
import type { CompiledRegex } from './regex.js';

/** A compiled filter: give it a request (or an `ExecutionContext` shared across filters). */
export type CompiledFilter = (request: RequestFields | ExecutionContext) => boolean;

type BoolFn = (ctx: ExecutionContext) => boolean;

const IP_SRC_SLOT = FIELD_SLOTS.get('ip.src')!;

/**
 * A filter's argument as its first line reads it: a context has the mark (on its prototype, so V8
 * answers it from the map it checks anyway), a request record does not. Every filter writes the
 * line out (`ctx = r.isExecutionContext === true ? r : contextOfRecord(r)`): a call to a function of
 * the module costs a check of the function loaded from the module's scope on every call.
 */
type Mark = { readonly isExecutionContext?: true };

// Out of line: the common argument is a context, and this keeps the filters small enough to inline.
function contextOfRecord(request: RequestFields): ExecutionContext {
  return new ExecutionContext(request);
}

/** The filter of one field test. */
export function rootOfTest(t: FieldTest): CompiledFilter {
  const head = headOf(t);
  switch (head?.kind) {
    case 'number': return head.slot === IP_SRC_SLOT ? ip4Eq(head.lit) : numberEq(head.slot, head.lit);
    case 'string': return stringEq(head.slot, head.lit);
    case 'ranges': return head.slot === IP_SRC_SLOT ? ip4Ranges(head.ranges, head.other) : ranges(head.slot, head.ranges, head.other);
    case 'anyEq': return anyEq(head.memo, head.read, head.lit);
    case 'valueEq': return valueEq(head.value, head.lit);
    case 'contains': return contains(head.slot, head.lit);
    case 'pred': return pred(head.slot, head.pred);
    case 'regexFolded': return regexFolded(head.slot, head.re, head.literal, head.memo, head.read);
    default: return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return runTest(ctx, t); };
  }
}

/** The filter of `ta and tb` / `ta or tb`. */
export function rootOfTests(and: boolean, ta: FieldTest, second: FieldTest): CompiledFilter {
  const head = headOf(ta);
  const tb = tailOf(second);
  switch (head?.kind) {
    case 'number':
      if (head.slot === IP_SRC_SLOT) return and ? ip4EqAnd(head.lit, tb) : ip4EqOr(head.lit, tb);
      return and ? numberEqAnd(head.slot, head.lit, tb) : numberEqOr(head.slot, head.lit, tb);
    case 'string': return and ? stringEqAnd(head.slot, head.lit, tb) : stringEqOr(head.slot, head.lit, tb);
    case 'ranges':
      if (head.slot === IP_SRC_SLOT) return and ? ip4RangesAnd(head.ranges, head.other, tb) : ip4RangesOr(head.ranges, head.other, tb);
      return and ? rangesAnd(head.slot, head.ranges, head.other, tb) : rangesOr(head.slot, head.ranges, head.other, tb);
    case 'valueEq': return and ? valueEqAnd(head.value, head.lit, tb) : valueEqOr(head.value, head.lit, tb);
    case 'contains': return and ? containsAnd(head.slot, head.lit, tb) : containsOr(head.slot, head.lit, tb);
    case 'anyEq':
    default:
      return and
        ? (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return runTest(ctx, ta) && runTest(ctx, second); }
        : (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return runTest(ctx, ta) || runTest(ctx, second); };
  }
}

/**
 * The second test of a root's `and`/`or`, written out like a head when it is a plain field equal to
 * a string or a number or a plain Bool field (`not cf.client.bot`), else through `runTest`. The root
 * calls it; all the tails of one kind are closures of one function, which V8 inlines into the root.
 */
function tailOf(t: FieldTest): BoolFn {
  const head = headOf(t);
  switch (head?.kind) {
    case 'string': return stringTail(head.slot, head.lit);
    case 'number': return numberTail(head.slot, head.lit);
    case 'bool': return head.negated ? notTrueTail(head.slot) : trueTail(head.slot);
    default: return (ctx) => runTest(ctx, t);
  }
}

function stringTail(slot: number, lit: string): BoolFn {
  return (ctx) => ctx.field(slot) === lit;
}

function numberTail(slot: number, lit: number): BoolFn {
  return (ctx) => ctx.field(slot) === lit;
}

function trueTail(slot: number): BoolFn {
  return (ctx) => ctx.field(slot) === true;
}

function notTrueTail(slot: number): BoolFn {
  return (ctx) => ctx.field(slot) !== true;
}

/** The filter of `ta and b` / `ta or b`, `b` any compiled Bool. */
export function rootOfTestThen(and: boolean, ta: FieldTest, b: BoolFn): CompiledFilter {
  return and
    ? (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return runTest(ctx, ta) && b(ctx); }
    : (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return runTest(ctx, ta) || b(ctx); };
}

/** The filter of any other Bool. */
export function rootOf(fn: BoolFn): CompiledFilter {
  return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return fn(ctx); };
}

// A missing value (undefined) never equals a literal.
// `ip.src eq <IPv4>`: the context's `ip4` (-1 for IPv6 or missing never equals the literal; NaN,
// not read yet, is the one value not equal to itself: one comparison with no constant).
function ip4Eq(lit: number): CompiledFilter {
  return (r) => {
    const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields);
    const v = ctx.ip4;
    return v === lit || (v !== v && ctx.loadIp4() === lit);
  };
}

function ip4EqAnd(lit: number, tb: BoolFn): CompiledFilter {
  return (r) => {
    const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields);
    const v = ctx.ip4;
    return (v === lit || (v !== v && ctx.loadIp4() === lit)) && tb(ctx);
  };
}

function ip4EqOr(lit: number, tb: BoolFn): CompiledFilter {
  return (r) => {
    const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields);
    const v = ctx.ip4;
    return v === lit || (v !== v && ctx.loadIp4() === lit) || tb(ctx);
  };
}

function numberEq(slot: number, lit: number): CompiledFilter {
  return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return ctx.field(slot) === lit; };
}

function numberEqAnd(slot: number, lit: number, tb: BoolFn): CompiledFilter {
  return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return ctx.field(slot) === lit && tb(ctx); };
}

function numberEqOr(slot: number, lit: number, tb: BoolFn): CompiledFilter {
  return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return ctx.field(slot) === lit || tb(ctx); };
}

function stringEq(slot: number, lit: string): CompiledFilter {
  return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return ctx.field(slot) === lit; };
}

function stringEqAnd(slot: number, lit: string, tb: BoolFn): CompiledFilter {
  return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return ctx.field(slot) === lit && tb(ctx); };
}

function stringEqOr(slot: number, lit: string, tb: BoolFn): CompiledFilter {
  return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return ctx.field(slot) === lit || tb(ctx); };
}

// `lower(http.host) eq "x"`: the call's value is shared by the filters of a request (memoized).
function valueEq(value: ValueFn, lit: string): CompiledFilter {
  return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return value(ctx) === lit; };
}

function valueEqAnd(value: ValueFn, lit: string, tb: BoolFn): CompiledFilter {
  return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return value(ctx) === lit && tb(ctx); };
}

function valueEqOr(value: ValueFn, lit: string, tb: BoolFn): CompiledFilter {
  return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); return value(ctx) === lit || tb(ctx); };
}

// A missing value contains nothing.
function contains(slot: number, lit: string): CompiledFilter {
  return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); const v = ctx.field(slot); return v !== undefined && (v as string).includes(lit); };
}

function containsAnd(slot: number, lit: string, tb: BoolFn): CompiledFilter {
  return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); const v = ctx.field(slot); return v !== undefined && (v as string).includes(lit) && tb(ctx); };
}

function containsOr(slot: number, lit: string, tb: BoolFn): CompiledFilter {
  return (r) => { const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields); const v = ctx.field(slot); return (v !== undefined && (v as string).includes(lit)) || tb(ctx); };
}

// A number in the ranges; any other present value (an IPv6 address) through `other`.
function ranges(slot: number, bounds: readonly number[], other: Predicate): CompiledFilter {
  return (r) => {
    const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields);
    const v = ctx.field(slot);
    return typeof v === 'number' ? inRanges(v, bounds) : v !== undefined && other(v);
  };
}

function rangesAnd(slot: number, bounds: readonly number[], other: Predicate, tb: BoolFn): CompiledFilter {
  return (r) => {
    const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields);
    const v = ctx.field(slot);
    return (typeof v === 'number' ? inRanges(v, bounds) : v !== undefined && other(v)) && tb(ctx);
  };
}

function rangesOr(slot: number, bounds: readonly number[], other: Predicate, tb: BoolFn): CompiledFilter {
  return (r) => {
    const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields);
    const v = ctx.field(slot);
    return (typeof v === 'number' ? inRanges(v, bounds) : v !== undefined && other(v)) || tb(ctx);
  };
}

// `ip.src in {…}`: an IPv4 address (the context's `ip4`) in the ranges, walked in the closure (a
// call to a function of another module loads it through four objects first); an IPv6 one, or an
// address not read yet, through `ip4Else`. `v` is never merged with a value of another type (V8
// would box the number on every call).
function ip4Ranges(bounds: readonly number[], other: Predicate): CompiledFilter {
  return (r) => {
    const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields);
    const v = ctx.ip4;
    if (!(v >= 0)) return ip4Else(ctx, bounds, other);
    for (let i = 0; i < bounds.length; i += 2) {
      if (v < bounds[i]!) return false;
      if (v <= bounds[i + 1]!) return true;
    }
    return false;
  };
}

function ip4RangesAnd(bounds: readonly number[], other: Predicate, tb: BoolFn): CompiledFilter {
  return (r) => {
    const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields);
    const v = ctx.ip4;
    if (!(v >= 0)) return ip4Else(ctx, bounds, other) && tb(ctx);
    for (let i = 0; i < bounds.length; i += 2) {
      if (v < bounds[i]!) return false;
      if (v <= bounds[i + 1]!) return tb(ctx);
    }
    return false;
  };
}

function ip4RangesOr(bounds: readonly number[], other: Predicate, tb: BoolFn): CompiledFilter {
  return (r) => {
    const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields);
    const v = ctx.ip4;
    if (!(v >= 0)) return ip4Else(ctx, bounds, other) || tb(ctx);
    for (let i = 0; i < bounds.length; i += 2) {
      if (v < bounds[i]!) break;
      if (v <= bounds[i + 1]!) return true;
    }
    return tb(ctx);
  };
}

// `ip.src in {…}` when `ip4` is not an address: read it (NaN), or an IPv6 or missing one (-1).
function ip4Else(ctx: ExecutionContext, bounds: readonly number[], other: Predicate): boolean {
  const v = Number.isNaN(ctx.ip4) ? ctx.loadIp4() : -1;
  return v >= 0 ? inRanges(v, bounds) : otherIp(ctx, other);
}

// An `ip.src` that is not IPv4: IPv6 through `other`; missing, in no set.
function otherIp(ctx: ExecutionContext, other: Predicate): boolean {
  const v = ctx.field(IP_SRC_SLOT);
  return v !== undefined && other(v);
}

// Any other comparison of a plain field (`matches`, `wildcard`, a large set): its predicate, on a
// present value.
function pred(slot: number, test: Predicate): CompiledFilter {
  return (r) => {
    const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields);
    const v = ctx.field(slot);
    return v !== undefined && test(v);
  };
}

// `f matches "(?i)…"` with a literal every match contains: the field lower-cased once per request
// (memo), the literal looked for in it, and the pattern run only where it is.
function regexFolded(slot: number, re: CompiledRegex, literal: string, memo: number, read: ValueFn): CompiledFilter {
  return (r) => {
    const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields);
    const lowered = ctx.memoized(memo, read);
    return lowered !== undefined && (lowered as string).includes(literal) && re.testMatch(ctx.field(slot) as string);
  };
}

// `any(f[key][*] eq "lit")`: the container is read once per request (field-test.ts), its elements
// compared in place.
function anyEq(memo: number, read: ValueFn, lit: string): CompiledFilter {
  return (r) => {
    const ctx = (r as Mark).isExecutionContext === true ? (r as ExecutionContext) : contextOfRecord(r as RequestFields);
    // Always an array (field-test.ts, containerOf); the last one read is on the context itself.
    const items = ctx.lastContainerMemo === memo ? ctx.lastContainer : ctx.container(memo, read);
    for (let i = 0; i < items.length; i++) if (items[i] === lit) return true;
    return false;
  };
}
