/**
 * Guards: necessary conditions read off an expression's tree, so a request can skip rules that
 * cannot match it without evaluating them. A guard is a list of alternatives `field has one of
 * keys`; the expression can only be true when at least one alternative holds (`[]`: never true;
 * `undefined`: no guard, always evaluate). Keys are exact byte strings (`http.host eq "a"`,
 * `http.request.method in {"POST" "PUT"}`), integers, or /16 (IPv4) and /32 (IPv6) buckets of IP
 * sets (`ip.src in {192.0.2.0/24}`). Only top-level conjunctions and disjunctions are read: a
 * guard under `not`, `xor` or a function would not be a necessary condition. The evaluator still
 * decides every rule that passes its guard, so a guard can only save work, never change a result.
 */
import { getField, parseIp, type Expression, type Rhs, type SetItem, type ValueExpr } from '../../expr/index.js';

/** One alternative of a guard. */
export interface GuardAlternative {
  field: string;
  keys: ReadonlySet<string>;
}

/** A guard; see the file comment. */
export type Guard = readonly GuardAlternative[] | undefined;

/** IP sets spanning more buckets than this get no guard (the bucket list would be the whole table). */
const MaxBuckets = 256;
/** Integer ranges wider than this get no guard. */
const MaxIntRange = 256;

/** The guard of an expression. */
export function guardOf(expr: Expression): Guard {
  switch (expr.type) {
    case 'const': return expr.value ? undefined : [];
    case 'comparison': return comparisonGuard(expr.lhs, expr.op, expr.rhs);
    case 'logical':
      if (expr.op === 'and') return narrowest(expr.items.map(guardOf));
      if (expr.op === 'or') return union(expr.items.map(guardOf));
      return undefined;
    default: return undefined;
  }
}

function narrowest(guards: Guard[]): Guard {
  let best: Guard;
  let size = Infinity;
  for (const g of guards) {
    if (g === undefined) continue;
    const n = g.reduce((sum, alt) => sum + alt.keys.size, 0);
    if (n < size) { best = g; size = n; }
  }
  return best;
}

function union(guards: Guard[]): Guard {
  if (guards.some((g) => g === undefined)) return undefined;
  return guards.flatMap((g) => g!);
}

/** The key of a request value of a field of `kind` (the evaluator's converted value). */
export function keyOf(kind: string, value: unknown): string | undefined {
  if (kind === 'Bytes' && typeof value === 'string') return `b:${value}`;
  if (kind === 'Int' && typeof value === 'number') return `i:${value}`;
  if (kind === 'Ip' && typeof value === 'number') return `4:${value >>> 16}`;
  if (kind === 'Ip' && typeof value === 'bigint') return `6:${value >> 96n}`;
  return undefined;
}

function comparisonGuard(lhs: ValueExpr, op: string, rhs: Rhs | null): Guard {
  if (lhs.base.type !== 'field' || lhs.indexes.length > 0 || rhs === null) return undefined;
  const field = lhs.base.name;
  const kind = getField(field)?.type.kind;
  if (kind === undefined) return undefined;
  let keys: Set<string> | undefined;
  if (op === 'eq' && (rhs.type === 'bytes' || rhs.type === 'int' || rhs.type === 'ip')) keys = itemKeys(kind, [rhs]);
  else if (op === 'in' && rhs.type === 'set') keys = itemKeys(kind, rhs.items);
  return keys === undefined ? undefined : [{ field, keys }];
}

/** Keys of set items (or one literal); undefined when some item cannot be keyed. */
function itemKeys(kind: string, items: readonly SetItem[]): Set<string> | undefined {
  const keys = new Set<string>();
  for (const item of items) {
    if (kind === 'Bytes' && item.type === 'bytes') keys.add(`b:${item.value}`);
    else if (kind === 'Int' && item.type === 'int') keys.add(`i:${Number(item.value)}`);
    else if (kind === 'Int' && item.type === 'int_range' && item.end - item.start < BigInt(MaxIntRange)) {
      for (let n = item.start; n <= item.end; n++) keys.add(`i:${Number(n)}`);
    } else if (kind === 'Ip' && (item.type === 'ip' || item.type === 'ip_range' || item.type === 'ip_cidr')) {
      if (!addBuckets(keys, ipBounds(item))) return undefined;
    } else return undefined;
    if (keys.size > MaxBuckets) return undefined;
  }
  return keys;
}

function ipBounds(item: SetItem): [number, number] | [bigint, bigint] | undefined {
  if (item.type === 'ip') { const ip = parseIp(item.value); return ip === undefined ? undefined : [ip, ip] as [number, number] | [bigint, bigint]; }
  if (item.type === 'ip_range') {
    const a = parseIp(item.start);
    const b = parseIp(item.end);
    return a === undefined || b === undefined || typeof a !== typeof b ? undefined : [a, b] as [number, number] | [bigint, bigint];
  }
  if (item.type !== 'ip_cidr') return undefined;
  const base = parseIp(item.address);
  if (typeof base === 'number') return [base, base + 2 ** (32 - item.prefix) - 1];
  if (typeof base === 'bigint') return [base, base | ((1n << BigInt(128 - item.prefix)) - 1n)];
  return undefined;
}

function addBuckets(keys: Set<string>, bounds: [number, number] | [bigint, bigint] | undefined): boolean {
  if (bounds === undefined) return false;
  if (typeof bounds[0] === 'number') {
    const [lo, hi] = [(bounds[0] as number) >>> 16, (bounds[1] as number) >>> 16];
    if (hi - lo >= MaxBuckets) return false;
    for (let b = lo; b <= hi; b++) keys.add(`4:${b}`);
    return true;
  }
  const [lo, hi] = [(bounds[0] as bigint) >> 96n, (bounds[1] as bigint) >> 96n];
  if (hi - lo >= BigInt(MaxBuckets)) return false;
  for (let b = lo; b <= hi; b++) keys.add(`6:${b}`);
  return true;
}
