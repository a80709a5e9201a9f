/**
 * Compiles `op rhs` into a predicate over one evaluator value, specialised once at compile time:
 * literals converted to the value model, `in` sets pre-built (a `Set` for strings, sorted merged
 * ranges with binary search for integers and IPs, IPv4 and IPv6 kept apart), regexes compiled on
 * re2js, wildcards pre-split. Missing values never reach a predicate (compile.ts answers false).
 */
import type { ComparisonOp, Rhs, SetItem } from './ast.js';
import type { FieldValue, Lists, Value } from './context.js';
import { lastAddress, parseIp, type IpValue } from './ip.js';
import { lexIpSetItem } from './lex-ip.js';
import { compileRegex } from './regex.js';
import type { Type } from './types.js';
import { parseWildcard, wildcardMatcher } from './wildcard.js';
import { textToBytes } from './ast.js';

/** A predicate over one present value. */
export type Predicate = (value: Value) => boolean;

/** Named lists for `in $name` (defined with the evaluation context, which carries them). */
export type { Lists } from './context.js';

function successor<N extends number | bigint>(n: N): N {
  return (typeof n === 'bigint' ? n + 1n : (n as number) + 1) as N;
}

/** Sorted, merged inclusive ranges with binary-search membership. */
export class RangeSet<N extends number | bigint> {
  private readonly starts: N[] = [];
  private readonly ends: N[] = [];

  constructor(ranges: Array<readonly [N, N]>) {
    const sorted = [...ranges].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
    for (const [s, e] of sorted) {
      const last = this.ends.length - 1;
      if (last >= 0 && s <= successor(this.ends[last]!)) {
        if (e > this.ends[last]!) this.ends[last] = e;
      } else {
        this.starts.push(s);
        this.ends.push(e);
      }
    }
  }

  /** The merged ranges, as parallel arrays of starts and ends. */
  get bounds(): { starts: readonly N[]; ends: readonly N[] } {
    return { starts: this.starts, ends: this.ends };
  }

  /** Membership by binary search. */
  has(v: N): boolean {
    let lo = 0;
    let hi = this.starts.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (v < this.starts[mid]!) hi = mid - 1;
      else if (v > this.ends[mid]!) lo = mid + 1;
      else return true;
    }
    return false;
  }
}

/** The predicate for `op rhs` on values of `lhsType`. */
export function compilePredicate(op: ComparisonOp, rhs: Rhs, lhsType: Type, lists: Lists): Predicate {
  switch (rhs.type) {
    case 'regex': {
      const re = compileRegex(rhs.pattern);
      return (v) => re.test(v as string);
    }
    case 'wildcard': return wildcardMatcher(parseWildcard(rhs.value), op === 'strict wildcard') as Predicate;
    case 'set': return setPredicate(rhs.items, lhsType);
    case 'list': return listPredicate(lists[rhs.name], lhsType);
    case 'bytes': return bytesPredicate(op, rhs.value);
    case 'int': return intPredicate(op, rhs.value);
    case 'ip': {
      const ip = parseIp(rhs.value)!;
      return op === 'ne' ? (v) => v !== ip : (v) => v === ip;
    }
  }
}

function bytesPredicate(op: ComparisonOp, lit: string): Predicate {
  switch (op) {
    case 'eq': return (v) => v === lit;
    case 'ne': return (v) => v !== lit;
    case 'lt': return (v) => (v as string) < lit;
    case 'le': return (v) => (v as string) <= lit;
    case 'gt': return (v) => (v as string) > lit;
    case 'ge': return (v) => (v as string) >= lit;
    case 'contains': return lit === '' ? () => true : (v) => (v as string).includes(lit);
    default: throw new Error(`operator ${op} on Bytes`);
  }
}

function intPredicate(op: ComparisonOp, literal: bigint): Predicate {
  const n = Number(literal);
  switch (op) {
    case 'eq': return (v) => v === n;
    case 'ne': return (v) => v !== n;
    case 'lt': return (v) => (v as number) < n;
    case 'le': return (v) => (v as number) <= n;
    case 'gt': return (v) => (v as number) > n;
    case 'ge': return (v) => (v as number) >= n;
    case 'bitwise_and': return (v) => (BigInt.asIntN(64, BigInt(v as number)) & literal) !== 0n;
    default: throw new Error(`operator ${op} on Int`);
  }
}

function setPredicate(items: readonly SetItem[], lhsType: Type): Predicate {
  if (lhsType.kind === 'Bytes') {
    const set = new Set(items.map((i) => (i.type === 'bytes' ? i.value : '')));
    return (v) => set.has(v as string);
  }
  if (lhsType.kind === 'Int') {
    const ranges = new RangeSet<number>(
      items.map((i) => (i.type === 'int_range' ? [Number(i.start), Number(i.end)] : [Number(i.type === 'int' ? i.value : 0), Number(i.type === 'int' ? i.value : 0)])),
    );
    return (v) => ranges.has(v as number);
  }
  return ipSetPredicate(items.map(ipRange));
}

/** The inclusive address range of an IP set item. */
export function ipRange(item: SetItem): readonly [IpValue, IpValue] {
  if (item.type === 'ip') { const ip = parseIp(item.value)!; return [ip, ip]; }
  if (item.type === 'ip_range') return [parseIp(item.start)!, parseIp(item.end)!];
  if (item.type === 'ip_cidr') { const ip = parseIp(item.address)!; return [ip, lastAddress(ip, item.prefix)]; }
  throw new Error(`not an IP set item: ${item.type}`);
}

function ipSetPredicate(ranges: ReadonlyArray<readonly [IpValue, IpValue]>): Predicate {
  const v4 = new RangeSet<number>(ranges.filter((r): r is [number, number] => typeof r[0] === 'number'));
  const v6 = new RangeSet<bigint>(ranges.filter((r): r is [bigint, bigint] => typeof r[0] === 'bigint'));
  return (v) => (typeof v === 'number' ? v4.has(v) : v6.has(v as bigint));
}

// Lists are data the caller provides; an unknown list matches nothing (like an empty list).
function listPredicate(list: readonly FieldValue[] | undefined, lhsType: Type): Predicate {
  if (!list) return () => false;
  if (lhsType.kind === 'Ip') {
    const ranges = list.map((entry) => {
      const text = String(entry).trim();
      try {
        const item = lexIpSetItem(text, 0).value;
        if (item.kind === 'ip') { const ip = parseIp(item.value)!; return [ip, ip] as const; }
        if (item.kind === 'range') return [parseIp(item.start)!, parseIp(item.end)!] as const;
        const ip = parseIp(item.address)!;
        return [ip, lastAddress(ip, item.prefix)] as const;
      } catch {
        throw new Error(`list entry ${JSON.stringify(text)} is not an IP address, CIDR or range`);
      }
    });
    return ipSetPredicate(ranges);
  }
  if (lhsType.kind === 'Int') {
    const set = new Set(list.map((e) => Number(e)));
    return (v) => set.has(v as number);
  }
  // Hostname lists: `*.example.com` matches every subdomain of example.com (not the domain itself).
  const set = new Set<string>();
  const suffixes: string[] = [];
  for (const e of list) {
    const text = textToBytes(String(e));
    if (text.startsWith('*.')) suffixes.push(text.slice(1));
    else set.add(text);
  }
  if (suffixes.length === 0) return (v) => set.has(v as string);
  return (v) => set.has(v as string) || suffixes.some((s) => (v as string).length > s.length && (v as string).endsWith(s));
}

