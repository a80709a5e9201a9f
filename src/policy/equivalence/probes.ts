/**
 * Probes: the values a generated request gives one field to test one comparison of an expression
 * from both sides: the compared value and a neighbour (`eq`, `contains`), n-1/n/n+1 (integers), an
 * address and the next one, every edge of every IP range or CIDR and one step outside it, each
 * member of an `in` set and a non-member, the literal prefix of a `matches` pattern or a wildcard,
 * `starts_with`/`ends_with` prefixes and near misses. A probe names its target: a field, a key of
 * a map field (a header, a query argument, a cookie), or an element of an array field.
 */
import { bytesToText, formatIp, parseIp } from '../../expr/index.js';
import type { CallExpr, ComparisonExpr, Expression, Lists, Literal, Rhs, SetItem, ValueExpr } from '../../expr/index.js';

/** Where a probe's value goes. */
export interface ProbeTarget {
  field: string;
  /** A key of a map field (`http.request.headers["x-api-key"]`). */
  key?: string;
  /** An element of an array field (`http.request.headers.names[*]`). */
  element?: boolean;
}

/** A scalar value a request can carry. */
export type ProbeValue = string | number | boolean;

/** The values to try for one comparison, each with a guess of whether it makes the comparison true. */
export interface Probe {
  target: ProbeTarget;
  values: { value: ProbeValue; hit: boolean }[];
  /** Under an odd number of `not`s: the expression holds when the comparison does not. */
  negated?: boolean;
}

/** Functions that hand their first argument's value through (enough to reach the field). */
const PassThrough = new Set(['lower', 'upper', 'url_decode', 'remove_bytes', 'to_string', 'decode_base64', 'concat', 'substring', 'regex_replace', 'wildcard_replace', 'remove_query_args']);

/** Members of a named list tried per `$name` (a list may hold thousands). */
const ListMembersTried = 20;

/**
 * The probe of every comparison of an expression, in source order. `lists`: what `$name` resolves
 * to (the account manifest's lists), so `ip.src in $office` is tried with members and non-members;
 * without them a list comparison has no probe.
 */
export function probesOf(expr: Expression, lists?: Lists): Probe[] {
  const out: Probe[] = [];
  visit(expr, out, false, lists);
  return out;
}

function visit(expr: Expression | ValueExpr | Literal, out: Probe[], negated: boolean, lists: Lists | undefined): void {
  switch (expr.type) {
    case 'logical': for (const item of expr.items) visit(item, out, negated, lists); return;
    case 'not': visit(expr.arg, out, !negated, lists); return;
    case 'quantifier': visit(expr.arg, out, negated, lists); return;
    case 'comparison': {
      const p = comparisonProbe(expr, lists);
      if (p !== undefined) out.push(negated ? { ...p, negated } : p);
      // Bool arguments of calls (`any(x[*] eq "a")`) hold comparisons of their own.
      if (expr.lhs.base.type === 'call') for (const a of expr.lhs.base.args) if (a.type !== 'value' && a.type !== 'bytes' && a.type !== 'int' && a.type !== 'ip') visit(a, out, negated, lists);
      return;
    }
    default: return;
  }
}

/** The target a value expression reads, through pass-through functions; undefined when it reads none. */
function targetOf(value: ValueExpr): ProbeTarget | undefined {
  if (value.base.type === 'call') {
    const arg = value.base.args.find((a): a is ValueExpr => a.type === 'value');
    return arg === undefined ? undefined : targetOf(arg);
  }
  const field = value.base.name;
  const key = value.indexes.find((i) => i.kind === 'key');
  if (key !== undefined && key.kind === 'key') return { field, key: key.value };
  if (value.indexes.some((i) => i.kind === 'each' || i.kind === 'index')) return { field, element: true };
  return { field };
}

function comparisonProbe(cmp: ComparisonExpr, lists: Lists | undefined): Probe | undefined {
  const target = targetOf(cmp.lhs);
  if (target === undefined) return undefined;
  const call = cmp.lhs.base.type === 'call' ? cmp.lhs.base : undefined;
  const values = cmp.rhs?.type === 'list' ? listValues(lists?.[cmp.rhs.name])
    : call !== undefined && !PassThrough.has(call.name) ? callValues(call, cmp) : rhsValues(cmp.op, cmp.rhs);
  const cased = call !== undefined && (call.name === 'lower' || call.name === 'upper') ? withCase(values, call.name) : values;
  return cased.length === 0 ? undefined : { target, values: cased };
}

/** `lower(f) eq "x"`: the field may hold any case; try the other case too. */
function withCase(values: Probe['values'], fn: string): Probe['values'] {
  const flip = (v: ProbeValue) => (typeof v === 'string' ? (fn === 'lower' ? v.toUpperCase() : v.toLowerCase()) : v);
  return [...values, ...values.filter((v) => typeof v.value === 'string').map((v) => ({ value: flip(v.value), hit: v.hit }))];
}

/** Values for a Bool-returning or computing function other than the pass-through ones. */
function callValues(call: CallExpr, cmp: ComparisonExpr): Probe['values'] {
  const lit = call.args.find((a): a is Literal & { type: 'bytes' } => a.type === 'bytes');
  const s = lit === undefined ? undefined : bytesToText(lit.value);
  if (call.name === 'starts_with' && s !== undefined) return [{ value: s, hit: true }, { value: `${s}/x`, hit: true }, { value: s.slice(0, -1), hit: false }, { value: `x${s}`, hit: false }];
  if (call.name === 'ends_with' && s !== undefined) return [{ value: s, hit: true }, { value: `x/${s}`, hit: true }, { value: s.slice(1), hit: false }, { value: `${s}x`, hit: false }];
  if (call.name === 'len' && cmp.rhs?.type === 'int') {
    const n = Math.max(0, Number(cmp.rhs.value));
    return [n - 1, n, n + 1].filter((k) => k >= 0).map((k) => ({ value: 'a'.repeat(Math.min(k, 8192)), hit: k === n }));
  }
  const fromRhs = rhsValues(cmp.op, cmp.rhs);
  return s !== undefined ? [{ value: s, hit: true }, ...fromRhs] : fromRhs;
}

/** Values on both sides of `op rhs`. */
function rhsValues(op: ComparisonExpr['op'], rhs: Rhs | null): Probe['values'] {
  if (rhs === null) return op === 'is_true' ? [{ value: true, hit: true }, { value: false, hit: false }] : [];
  const positive = op !== 'ne';
  switch (rhs.type) {
    case 'bytes': return bytesValues(op, bytesToText(rhs.value), positive);
    case 'int': return intValues(Number(rhs.value), op);
    case 'ip': return ipEdges(rhs.value, rhs.value).map((v) => ({ value: v.value, hit: v.inside === positive }));
    case 'regex': return regexValues(rhs.pattern);
    case 'wildcard': return wildcardValues(bytesToText(rhs.value), op === 'strict wildcard');
    case 'set': return setValues(rhs.items);
    default: return []; // named lists: `listValues`, when their members are known
  }
}

/**
 * Values for `in $name`: the first members of the list (both edges of an IP range or CIDR and the
 * addresses just outside, an AS number and its neighbours, a hostname and a near miss).
 */
function listValues(members: Lists[string] | undefined): Probe['values'] {
  if (members === undefined) return [];
  const out: Probe['values'] = [];
  for (const m of members.slice(0, ListMembersTried)) {
    if (typeof m === 'number' || typeof m === 'bigint') {
      const n = Number(m);
      out.push({ value: n - 1, hit: members.includes(n - 1) }, { value: n, hit: true }, { value: n + 1, hit: members.includes(n + 1) });
      continue;
    }
    if (typeof m !== 'string') continue;
    const [address, prefix] = m.split('/');
    if (address !== undefined && parseIp(address) !== undefined) {
      const bits = prefix === undefined ? undefined : Number(prefix);
      const edges = bits === undefined || !Number.isInteger(bits) ? ipEdges(address, address) : ipEdges(address, cidrEnd(address, bits));
      out.push(...edges.map((v) => ({ value: v.value, hit: v.inside })));
    } else {
      out.push({ value: m, hit: true }, { value: `${m}-not-a-member`, hit: false });
    }
  }
  return out;
}

function bytesValues(op: ComparisonExpr['op'], s: string, positive: boolean): Probe['values'] {
  if (op === 'contains') return [{ value: s, hit: true }, { value: `x${s}x`, hit: true }, { value: s.slice(1), hit: s.length <= 1 ? false : s.slice(1).includes(s) }, { value: '', hit: s === '' }];
  return [{ value: s, hit: positive }, { value: `${s}x`, hit: !positive }, { value: s.slice(0, -1), hit: !positive }];
}

function intValues(n: number, op: ComparisonExpr['op']): Probe['values'] {
  const holds: Record<string, (k: number) => boolean> = {
    eq: (k) => k === n, ne: (k) => k !== n, lt: (k) => k < n, le: (k) => k <= n, gt: (k) => k > n, ge: (k) => k >= n,
    bitwise_and: (k) => (k & n) !== 0,
  };
  const check = holds[op] ?? ((k: number) => k === n);
  const candidates = op === 'bitwise_and' ? [n, 0] : [n - 1, n, n + 1];
  return candidates.map((k) => ({ value: k, hit: check(k) }));
}

/** The first and last address of a range, and the address just outside on each side. */
function ipEdges(start: string, end: string): { value: string; inside: boolean }[] {
  const a = parseIp(start);
  const b = parseIp(end);
  if (a === undefined || b === undefined) return [];
  const step = (ip: typeof a, d: number): string | undefined => {
    if (typeof ip === 'number') {
      const n = ip + d;
      return n < 0 || n > 0xffffffff ? undefined : formatIp(n);
    }
    const n = ip + BigInt(d);
    return n < 0n || n >= 1n << 128n ? undefined : formatIp(n);
  };
  const out: { value: string; inside: boolean }[] = [];
  const before = step(a, -1);
  const after = step(b, 1);
  if (before !== undefined) out.push({ value: before, inside: false });
  out.push({ value: formatIp(a), inside: true });
  if (formatIp(b) !== formatIp(a)) out.push({ value: formatIp(b), inside: true });
  if (after !== undefined) out.push({ value: after, inside: false });
  return out;
}

/** The last address of `address/prefix`. */
function cidrEnd(address: string, prefix: number): string {
  const ip = parseIp(address)!;
  if (typeof ip === 'number') return formatIp(prefix === 0 ? 0xffffffff : (ip | (0xffffffff >>> prefix)) >>> 0);
  const host = (1n << BigInt(128 - prefix)) - 1n;
  return formatIp(ip | host);
}

function setValues(items: readonly SetItem[]): Probe['values'] {
  const out: Probe['values'] = [];
  for (const item of items) {
    if (item.type === 'bytes') out.push({ value: bytesToText(item.value), hit: true });
    else if (item.type === 'int') out.push(...intValues(Number(item.value), 'eq'));
    else if (item.type === 'int_range') out.push(...[item.start - 1n, item.start, item.end, item.end + 1n].map((k) => ({ value: Number(k), hit: k >= item.start && k <= item.end })));
    else if (item.type === 'ip') out.push(...ipEdges(item.value, item.value).map((v) => ({ value: v.value, hit: v.inside })));
    else if (item.type === 'ip_range') out.push(...ipEdges(item.start, item.end).map((v) => ({ value: v.value, hit: v.inside })));
    else if (item.type === 'ip_cidr') out.push(...ipEdges(item.address, cidrEnd(item.address, item.prefix)).map((v) => ({ value: v.value, hit: v.inside })));
  }
  const first = items.find((i) => i.type === 'bytes');
  if (first !== undefined && first.type === 'bytes') out.push({ value: `${bytesToText(first.value)}-not-a-member`, hit: false });
  return out;
}

/**
 * A string the pattern matches, built from its literal parts (anchors dropped, escapes resolved,
 * one character for a class or a dot), and one it does not.
 */
function regexValues(pattern: string): Probe['values'] {
  let lit = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '^' || c === '$') continue;
    if (c === '\\' && i + 1 < pattern.length) {
      const n = pattern[++i]!;
      lit += /[dDwWsSbB]/.test(n) ? (n === 'd' ? '1' : n === 's' ? ' ' : /[bB]/.test(n) ? '' : 'a') : n;
    } else if (c === '[') {
      const close = pattern.indexOf(']', i + 2);
      const body = pattern.slice(i + 1, close < 0 ? pattern.length : close);
      lit += body.startsWith('^') ? '~' : body.replace(/\\/g, '')[0] ?? 'a';
      i = close < 0 ? pattern.length : close;
    } else if (c === '.') lit += 'a';
    else if (c === '(' || c === ')' || c === '?' || c === '*' || c === '+') continue;
    else if (c === '|') break;
    else if (c === '{') i = Math.max(i, pattern.indexOf('}', i));
    else lit += c;
  }
  return [{ value: lit, hit: true }, { value: `${lit}x`, hit: true }, { value: '~no~match~', hit: false }];
}

function wildcardValues(pattern: string, strict: boolean): Probe['values'] {
  const fill = (w: string) => pattern.replace(/\\([*\\])|\*/g, (m, esc: string | undefined) => (esc ?? w));
  const out: Probe['values'] = [{ value: fill(''), hit: true }, { value: fill('abc'), hit: true }, { value: fill('').slice(1), hit: false }];
  if (!strict) out.push({ value: fill('').toUpperCase(), hit: true });
  return out;
}
