/**
 * A straightforward AST-walking interpreter: the baseline of `npm run bench -- expr` and an
 * independent oracle for the compiler in property tests. Each evaluation walks the tree, looks
 * fields up by name, converts literals, scans sets linearly and re-derives types; only regex and
 * wildcard matchers are cached by pattern (recompiling them per call would be a strawman). It must
 * agree with `compile` on every expression and request.
 */
import type { CallArg, ComparisonExpr, Expression, Literal, SetItem, ValueExpr } from './ast.js';
import { isExpression } from './ast.js';
import { convert, type RequestFields, type Value } from './context.js';
import type { Lists } from './compile-rhs.js';
import { FUNCTIONS } from './functions/catalog.js';
import { lastAddress, parseIp, type IpValue } from './ip.js';
import { lexIpSetItem } from './lex-ip.js';
import { compileRegex, type CompiledRegex } from './regex.js';
import { FIELDS } from './scheme.js';
import { argInfo, isVector, valueInfo } from './typing.js';
import { parseWildcard, wildcardMatcher } from './wildcard.js';
import { textToBytes } from './ast.js';

const regexCache = new Map<string, CompiledRegex>();
const wildcardCache = new Map<string, (v: string) => boolean>();

/** Evaluates an expression against a request by walking the tree. */
export function interpret(expr: Expression, request: RequestFields, lists: Lists = {}): boolean {
  return evalBool(expr, request, lists);
}

function evalBool(expr: Expression, req: RequestFields, lists: Lists): boolean {
  switch (expr.type) {
    case 'const': return expr.value;
    case 'not': return !evalBool(expr.arg, req, lists);
    case 'logical': {
      if (expr.op === 'and') return expr.items.every((i) => evalBool(i, req, lists));
      if (expr.op === 'or') return expr.items.some((i) => evalBool(i, req, lists));
      return expr.items.reduce((acc, i) => acc !== evalBool(i, req, lists), false);
    }
    case 'quantifier': {
      let values: readonly boolean[] | undefined;
      if (expr.arg.type === 'value') values = evalValue(expr.arg, req, lists) as boolean[] | undefined;
      else values = evalVector(expr.arg, req, lists);
      if (values === undefined) return false;
      return expr.op === 'any' ? values.some((v) => v) : values.every((v) => v);
    }
    case 'comparison': {
      const v = evalValue(expr.lhs, req, lists);
      if (v === undefined) return false;
      return expr.op === 'is_true' ? v === true : test(expr, v, lists);
    }
  }
}

function evalVector(expr: Expression, req: RequestFields, lists: Lists): boolean[] {
  if (expr.type === 'not') return evalVector(expr.arg, req, lists).map((b) => !b);
  if (expr.type === 'logical') {
    const parts = expr.items.map((i) => evalVector(i, req, lists));
    const n = Math.min(...parts.map((p) => p.length));
    return Array.from({ length: n }, (_, k) => {
      const column = parts.map((p) => p[k]!);
      if (expr.op === 'and') return column.every((b) => b);
      if (expr.op === 'or') return column.some((b) => b);
      return column.reduce((a, b) => a !== b, false);
    });
  }
  if (expr.type !== 'comparison') throw new Error(`not a vector: ${expr.type}`);
  const info = valueInfo(expr.lhs);
  if (!info.mapped) return [...((evalValue(expr.lhs, req, lists) as boolean[] | undefined) ?? [])];
  const items = evalMany(expr.lhs, req, lists) ?? [];
  return items.map((v) => (expr.op === 'is_true' ? v === true : test(expr, v, lists)));
}

function field(name: string, req: RequestFields): Value | undefined {
  const def = FIELDS.get(name)!;
  const raw = req[name];
  if (raw === undefined) {
    if (def.type.kind === 'Array') return [];
    if (def.type.kind === 'Map') return new Map();
    return def.type.kind === 'Bool' ? false : undefined;
  }
  return convert(name, raw, def.type, name.includes('headers'));
}

function index(v: Value | undefined, step: ValueExpr['indexes'][number]): Value | undefined {
  if (v === undefined) return undefined;
  if (step.kind === 'index') return Array.isArray(v) ? v[step.value] : undefined;
  if (step.kind === 'key') return v instanceof Map ? v.get(step.value) : undefined;
  return undefined;
}

function each(v: Value): Value[] {
  return Array.isArray(v) ? [...v] : v instanceof Map ? [...v.values()] : [];
}

function evalValue(value: ValueExpr, req: RequestFields, lists: Lists): Value | undefined {
  let v = evalBase(value.base, req, lists);
  for (const step of value.indexes) v = index(v, step);
  return v;
}

function evalMany(value: ValueExpr, req: RequestFields, lists: Lists): Value[] | undefined {
  let current: Value[] | undefined;
  let single = evalBase(value.base, req, lists);
  for (const step of value.indexes) {
    if (current === undefined) {
      if (step.kind === 'each') current = single === undefined ? undefined : each(single);
      else single = index(single, step);
      if (current === undefined && step.kind === 'each') return undefined;
    } else if (step.kind === 'each') {
      current = current.flatMap(each);
    } else {
      current = current.map((e) => index(e, step)).filter((e): e is Value => e !== undefined);
    }
  }
  return current;
}

function evalBase(base: ValueExpr['base'], req: RequestFields, lists: Lists): Value | undefined {
  if (base.type === 'field') return field(base.name, req);
  const impl = FUNCTIONS.get(base.name)!.build(base.args.map(argInfo));
  const [first, ...rest] = base.args;
  const others = rest.map((a) => evalArg(a, req, lists));
  if (first && first.type === 'value' && valueInfo(first).mapped) {
    const items = evalMany(first, req, lists);
    if (items === undefined) return undefined;
    return items.map((item) => impl([item, ...others])).filter((r): r is Value => r !== undefined);
  }
  return impl(first === undefined ? [] : [evalArg(first, req, lists), ...others]);
}

function evalArg(arg: CallArg, req: RequestFields, lists: Lists): Value | undefined {
  if (arg.type === 'value') return evalValue(arg, req, lists);
  if (isExpression(arg)) return isVector(arg) ? evalVector(arg, req, lists) : evalBool(arg, req, lists);
  return literal(arg);
}

function literal(lit: Literal): Value {
  if (lit.type === 'bytes') return lit.value;
  if (lit.type === 'int') return Number(lit.value);
  return parseIp(lit.value)!;
}

function test(expr: ComparisonExpr, v: Value, lists: Lists): boolean {
  const rhs = expr.rhs!;
  switch (rhs.type) {
    case 'regex': {
      let re = regexCache.get(rhs.pattern);
      if (!re) regexCache.set(rhs.pattern, (re = compileRegex(rhs.pattern)));
      return re.test(v as string);
    }
    case 'wildcard': {
      const key = `${expr.op}\u0000${rhs.value}`;
      let m = wildcardCache.get(key);
      if (!m) wildcardCache.set(key, (m = wildcardMatcher(parseWildcard(rhs.value), expr.op === 'strict wildcard')));
      return m(v as string);
    }
    case 'set': return rhs.items.some((item) => inItem(item, v));
    case 'list': return (lists[rhs.name] ?? []).some((entry) => inListEntry(entry, v, valueInfo(expr.lhs).type.kind));
    default:
      // The literal stays exact for the bit test (literals are i64, beyond a double's precision).
      if (expr.op === 'bitwise_and' && rhs.type === 'int') return (BigInt.asIntN(64, BigInt(v as number)) & rhs.value) !== 0n;
      return order(expr.op, v, literal(rhs));
  }
}

function order(op: ComparisonExpr['op'], v: Value, lit: Value): boolean {
  const a = v as string | number | bigint;
  const b = lit as string | number | bigint;
  const comparable = typeof a === typeof b;
  switch (op) {
    case 'eq': return comparable && a === b;
    case 'ne': return !comparable || a !== b;
    case 'lt': return comparable && a < b;
    case 'le': return comparable && a <= b;
    case 'gt': return comparable && a > b;
    case 'ge': return comparable && a >= b;
    case 'contains': return (a as string).indexOf(b as string) >= 0;
    default: throw new Error(`operator ${op}`);
  }
}

function inRange(v: IpValue | number, start: IpValue | number, end: IpValue | number): boolean {
  return typeof v === typeof start && v >= start && v <= end;
}

function inItem(item: SetItem, v: Value): boolean {
  switch (item.type) {
    case 'bytes': return v === item.value;
    case 'int': return v === Number(item.value);
    case 'int_range': return (v as number) >= Number(item.start) && (v as number) <= Number(item.end);
    case 'ip': return v === parseIp(item.value);
    case 'ip_range': return inRange(v as IpValue, parseIp(item.start)!, parseIp(item.end)!);
    case 'ip_cidr': {
      const base = parseIp(item.address)!;
      return inRange(v as IpValue, base, lastAddress(base, item.prefix));
    }
  }
}

function inListEntry(entry: unknown, v: Value, kind: string): boolean {
  if (kind === 'Int') return Number(entry) === v;
  if (kind === 'Bytes') return textToBytes(String(entry)) === v;
  const item = lexIpSetItem(String(entry).trim(), 0).value;
  if (item.kind === 'ip') return parseIp(item.value) === v;
  if (item.kind === 'range') return inRange(v as IpValue, parseIp(item.start)!, parseIp(item.end)!);
  const base = parseIp(item.address)!;
  return inRange(v as IpValue, base, lastAddress(base, item.prefix));
}
