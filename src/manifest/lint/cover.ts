/**
 * Whether one rule expression covers another (every request the later one matches, the earlier one
 * matches too), decided on the parsed expressions without evaluating requests. Sound, not complete:
 * `yes` only when it follows from the structure — `true`; the same equivalence key (src/expr's
 * normal form: sets in any order or spelling are one key); an `or` with a covering item; an `and`
 * with a covered conjunct; `ip.src in {...}` / `eq` whose addresses all lie in the earlier range.
 * Anything else (regular expressions, wildcards, functions, numeric comparisons, lists, negations,
 * different fields) is undecided, and the linter reports nothing for it.
 */
import { equivalenceKey, format, lastAddress, networkAddress, parseIp, type Expression, type IpValue, type SetItem } from '../../expr/index.js';

/** How a cover was found: by the structure (`same`), or only by IP range containment (`ip`). */
export type Cover = 'same' | 'ip';

type Range = [IpValue, IpValue];

function itemRange(item: SetItem): Range | undefined {
  if (item.type === 'ip') { const ip = parseIp(item.value); return ip === undefined ? undefined : [ip, ip]; }
  if (item.type === 'ip_range') { const s = parseIp(item.start); const e = parseIp(item.end); return s === undefined || e === undefined ? undefined : [s, e]; }
  if (item.type === 'ip_cidr') { const ip = parseIp(item.address); return ip === undefined ? undefined : [networkAddress(ip, item.prefix), lastAddress(ip, item.prefix)]; }
  return undefined;
}

/** An IP membership test: the field text and its address ranges; undefined for anything else. */
function ipTest(e: Expression): { lhs: string; ranges: Range[] } | undefined {
  if (e.type !== 'comparison' || e.rhs === null || e.lhs.base.type !== 'field' || e.lhs.indexes.length > 0) return undefined;
  let items: readonly SetItem[];
  if (e.op === 'in' && e.rhs.type === 'set') items = e.rhs.items;
  else if (e.op === 'eq' && e.rhs.type === 'ip') items = [e.rhs];
  else return undefined;
  const ranges = items.map(itemRange);
  if (ranges.some((r) => r === undefined)) return undefined;
  return { lhs: e.lhs.base.name, ranges: ranges as Range[] };
}

function sameFamily(a: IpValue, b: IpValue): boolean {
  return typeof a === typeof b;
}

/** Whether every range of `inner` lies inside one range of `outer`. */
function within(inner: Range[], outer: Range[]): boolean {
  return inner.every(([s, e]) => outer.some(([os, oe]) => sameFamily(s, os) && os <= s && e <= oe));
}

/** The equivalence key, memoised per node. */
function keyOf(e: Expression, keys: WeakMap<Expression, string>): string {
  let k = keys.get(e);
  if (k === undefined) { k = format(e).includes('{') ? equivalenceKey(e) : format(e); keys.set(e, k); }
  return k;
}

/**
 * Whether `earlier` matches every request `later` matches; undefined when it does not or cannot be
 * decided. @example covers(parse('ip.src in {10.0.0.0/8}'), parse('ip.src eq 10.1.2.3')) // 'ip'
 */
export function covers(earlier: Expression, later: Expression, keys = new WeakMap<Expression, string>()): Cover | undefined {
  if (earlier.type === 'const' && earlier.value) return 'same';
  if (later.type === 'const' && !later.value) return 'same';
  if (keyOf(earlier, keys) === keyOf(later, keys)) return 'same';
  const a = ipTest(earlier);
  const b = ipTest(later);
  if (a !== undefined && b !== undefined && a.lhs === b.lhs && within(b.ranges, a.ranges)) return 'ip';
  const found: Cover[] = [];
  if (earlier.type === 'logical' && earlier.op === 'or') {
    for (const item of earlier.items) { const c = covers(item, later, keys); if (c !== undefined) found.push(c); }
  }
  if (later.type === 'logical' && later.op === 'and') {
    for (const item of later.items) { const c = covers(earlier, item, keys); if (c !== undefined) found.push(c); }
  }
  if (later.type === 'logical' && later.op === 'or') {
    const each = later.items.map((item) => covers(earlier, item, keys));
    if (each.every((c) => c !== undefined)) found.push(each.includes('ip') ? 'ip' : 'same');
  }
  if (earlier.type === 'logical' && earlier.op === 'and') {
    const each = earlier.items.map((item) => covers(item, later, keys));
    if (each.every((c) => c !== undefined)) found.push(each.includes('ip') ? 'ip' : 'same');
  }
  if (found.length === 0) return undefined;
  return found.includes('same') ? 'same' : 'ip';
}

/** Duplicate and contradictory items of every `and`/`or` in an expression, in source order. */
export interface ConditionFinding { kind: 'duplicate' | 'contradiction'; op: 'and' | 'or'; text: string; offset: number; length: number }

/** Finds `a and a`, `a or a`, `a and not a` (never matches), `a or not a` (always matches). */
export function conditionFindings(expr: Expression): ConditionFinding[] {
  const keys = new WeakMap<Expression, string>();
  const out: ConditionFinding[] = [];
  const visit = (e: Expression): void => {
    if (e.type === 'not') { visit(e.arg); return; }
    if (e.type !== 'logical') return;
    e.items.forEach(visit);
    if (e.op === 'xor') return;
    const seen = new Map<string, Expression>();
    for (const item of e.items) {
      const k = keyOf(item, keys);
      if (seen.has(k)) out.push({ kind: 'duplicate', op: e.op, text: format(item), offset: item.span.start, length: item.span.end - item.span.start });
      else seen.set(k, item);
    }
    for (const item of e.items) {
      if (item.type !== 'not') continue;
      const k = keyOf(item.arg, keys);
      if (seen.has(k)) out.push({ kind: 'contradiction', op: e.op, text: format(item.arg), offset: item.span.start, length: item.span.end - item.span.start });
    }
  };
  visit(expr);
  return out.sort((x, y) => x.offset - y.offset);
}
