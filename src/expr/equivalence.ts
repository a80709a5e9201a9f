/**
 * The equivalence key of an expression: its canonical text (`format.ts`) with every set literal in
 * one normal form, so two expressions that differ only in how a set is written get one key. `in`
 * evaluates a set as the real engine does (`compile-rhs.ts`, wirefilter `range_set.rs`): strings
 * by exact byte membership; integers and IPs as sorted, merged inclusive ranges, IPv4 and IPv6
 * apart (no IPv4-mapped conversion). So order and repeats never matter, and for integers and IPs
 * neither does the spelling of a range: `{10.0.0.0/31}`, `{10.0.0.1 10.0.0.0}` and
 * `{10.0.0.0..10.0.0.1}` evaluate identically and share a key. Nothing else is rewritten: the key
 * equates only what evaluates identically on every request.
 *
 * | set of | normal form |
 * |---|---|
 * | strings | distinct values, sorted by bytes |
 * | integers | merged ranges, ascending; `a` alone when a range holds one value |
 * | IPs | merged ranges, IPv4 then IPv6, ascending; `a` alone when a range holds one address |
 */
import type { Expression, SetItem, SetLiteral, Span } from './ast.js';
import { format } from './format.js';
import { formatIp, lastAddress, parseIp, type IpValue } from './ip.js';

type Bound = number | bigint;

/** Sorted, merged inclusive ranges (adjacent ones joined: `1..2` and `3` are `1..3`). */
function merge<N extends Bound>(ranges: Array<[N, N]>): Array<[N, N]> {
  const sorted = [...ranges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  const out: Array<[N, N]> = [];
  for (const [s, e] of sorted) {
    const last = out[out.length - 1];
    // Adjacent when s = last end + 1; both sides of one family, so the arithmetic is exact.
    if (last !== undefined && (typeof s === 'bigint' ? s <= (last[1] as bigint) + 1n : (s as number) <= (last[1] as number) + 1)) {
      if (e > last[1]) last[1] = e;
    } else out.push([s, e]);
  }
  return out;
}

function ipBounds(item: SetItem): [IpValue, IpValue] | undefined {
  if (item.type === 'ip') { const ip = parseIp(item.value); return ip === undefined ? undefined : [ip, ip]; }
  if (item.type === 'ip_range') { const s = parseIp(item.start); const e = parseIp(item.end); return s === undefined || e === undefined ? undefined : [s, e]; }
  if (item.type === 'ip_cidr') { const ip = parseIp(item.address); return ip === undefined ? undefined : [ip, lastAddress(ip, item.prefix)]; }
  return undefined;
}

function ipItems(ranges: Array<[IpValue, IpValue]>, span: Span): SetItem[] {
  return ranges.map(([s, e]) => (s === e
    ? { type: 'ip', value: formatIp(s), span }
    : { type: 'ip_range', start: formatIp(s), end: formatIp(e), span }));
}

/** The set's items in normal form; the items as they are when they mix kinds (a checked set never does). */
function normalItems(set: SetLiteral): readonly SetItem[] {
  const { items, span } = set;
  if (items.length === 0) return items;
  if (items.every((i) => i.type === 'bytes')) {
    const values = [...new Set(items.map((i) => i.value))].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
    return values.map((value) => ({ type: 'bytes', value, span }));
  }
  if (items.every((i) => i.type === 'int' || i.type === 'int_range')) {
    const ranges = merge(items.map((i): [bigint, bigint] => (i.type === 'int' ? [i.value, i.value] : [i.start, i.end])));
    return ranges.map(([s, e]) => (s === e ? { type: 'int', value: s, span } : { type: 'int_range', start: s, end: e, span }));
  }
  const bounds = items.map(ipBounds);
  if (bounds.some((b) => b === undefined)) return items;
  const all = bounds as Array<[IpValue, IpValue]>;
  const v4 = merge(all.filter((b): b is [number, number] => typeof b[0] === 'number'));
  const v6 = merge(all.filter((b): b is [bigint, bigint] => typeof b[0] === 'bigint'));
  return [...ipItems(v4, span), ...ipItems(v6, span)];
}

/**
 * The tree with its set literals in normal form: nodes on the way to a set are copied, every other
 * node is shared (spans and leaves are not walked into copies: a key is computed per expression).
 */
function normalizeSets<N>(node: N): N {
  if (Array.isArray(node)) {
    let out: unknown[] | undefined;
    for (let i = 0; i < node.length; i++) {
      const item: unknown = node[i];
      const next = normalizeSets(item);
      if (next !== item) (out ??= [...node])[i] = next;
    }
    return (out ?? node) as N;
  }
  if (node === null || typeof node !== 'object') return node;
  const record = node as Record<string, unknown>;
  if (record.type === 'set' && Array.isArray(record.items)) return { ...record, items: normalItems(node as unknown as SetLiteral) } as N;
  let out: Record<string, unknown> | undefined;
  for (const k in record) {
    const v = record[k];
    if (v === null || typeof v !== 'object') continue;
    const next = normalizeSets(v);
    if (next !== v) (out ??= { ...record })[k] = next;
  }
  return (out ?? record) as N;
}

/**
 * The equivalence key of a parsed expression: equal keys evaluate identically on every request.
 * @example equivalenceKey(parse('ip.src in {10.0.0.2 10.0.0.1 10.0.0.1}')) // 'ip.src in {10.0.0.1..10.0.0.2}'
 */
export function equivalenceKey(expr: Expression): string {
  return format(normalizeSets(expr));
}
