import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  ExecutionContext, ExpressionError, compile, equalExpressions, format, formatIp, parse, parseIp,
  type ComparisonExpr, type ComparisonOp, type Expression, type Rhs, type SetItem, type ValueExpr,
} from '../../src/expr/index.js';
import { interpret } from '../../src/expr/interpret.js';
import { RE2JS } from 're2js';
import { compileRegex } from '../../src/expr/regex.js';
import { parseWildcard } from '../../src/expr/wildcard.js';
import { networkAddress } from '../../src/expr/ip.js';

const S = { start: 0, end: 0 };
const I64 = { min: -(2n ** 63n), max: 2n ** 63n - 1n };

const bytes = fc.uint8Array({ maxLength: 10 }).map((a) => Buffer.from(a).toString('latin1'));
const text = fc.string({ unit: 'binary', maxLength: 6 });
const int = fc.bigInt(I64);
const ipv4 = fc.ipV4().map((s) => formatIp(parseIp(s)!));
const ipv6 = fc.ipV6().map((s) => parseIp(s)).filter((v) => v !== undefined).map((v) => formatIp(v!));
const ip = fc.oneof(ipv4, ipv6);
const regex = fc.oneof(
  fc.constantFrom('^/api/', '(?i)bot', 'a"b', '[\\"]', '[""]', '\\d+\\.php$', '(?u)\\p{Greek}', 'é+', 'x{2,3}|y'),
  fc.string({ unit: fc.constantFrom('a', 'b', '"', '\\', '.', '*', '[', ']', '(', ')', '|', '#'), maxLength: 8 })
    .filter((p) => { try { compileRegex(p); return true; } catch { return false; } }),
);
const wildcard = fc.string({ unit: fc.constantFrom('a', 'B', '*', '?', '\\*', '\\\\', 'é'), maxLength: 8 })
  .filter((p) => { try { parseWildcard(p); return true; } catch { return false; } })
  .map((p) => Buffer.from(p, 'utf8').toString('latin1'));

const field = (name: string, indexes: ValueExpr['indexes'] = []): ValueExpr => ({ type: 'value', base: { type: 'field', name, span: S }, indexes, span: S });
const cmp = (lhs: ValueExpr, op: ComparisonOp, rhs: Rhs | null): ComparisonExpr => ({ type: 'comparison', lhs, op, rhs, span: S });
const bytesLit = (value: string) => ({ type: 'bytes' as const, value, span: S });
const intLit = (value: bigint) => ({ type: 'int' as const, value, span: S });

const bytesField = fc.constantFrom('http.host', 'http.request.uri.path', 'http.user_agent').map((n) => field(n));
const intSetItem: fc.Arbitrary<SetItem> = fc.oneof(
  int.map(intLit),
  fc.tuple(int, int).map(([a, b]) => ({ type: 'int_range' as const, start: a < b ? a : b, end: a < b ? b : a, span: S })),
);
const ipSetItem: fc.Arbitrary<SetItem> = fc.oneof(
  ip.map((value) => ({ type: 'ip' as const, value, span: S })),
  fc.tuple(ip, fc.nat(128)).map(([a, n]) => {
    const v = parseIp(a)!;
    const prefix = Math.min(n, typeof v === 'number' ? 32 : 128);
    return { type: 'ip_cidr' as const, address: formatIp(networkAddress(v, prefix)), prefix, span: S };
  }),
  fc.tuple(ipv4, ipv4).map(([a, b]) => {
    const [x, y] = [parseIp(a)!, parseIp(b)!].sort((p, q) => (p < q ? -1 : 1));
    return { type: 'ip_range' as const, start: formatIp(x!), end: formatIp(y!), span: S };
  }),
);

const bytesCmp = fc.oneof(
  fc.tuple(bytesField, fc.constantFrom<ComparisonOp>('eq', 'ne', 'lt', 'le', 'gt', 'ge', 'contains'), bytes).map(([f, op, v]) => cmp(f, op, bytesLit(v))),
  fc.tuple(bytesField, regex).map(([f, pattern]) => cmp(f, 'matches', { type: 'regex', pattern, span: S })),
  fc.tuple(bytesField, fc.constantFrom<ComparisonOp>('wildcard', 'strict wildcard'), wildcard).map(([f, op, value]) => cmp(f, op, { type: 'wildcard', value, span: S })),
  fc.tuple(bytesField, fc.array(bytes, { maxLength: 4 })).map(([f, vs]) => cmp(f, 'in', { type: 'set', items: vs.map(bytesLit), span: S })),
  fc.tuple(text, fc.nat(3), bytes).map(([key, i, v]) => cmp(field('http.request.headers', [{ kind: 'key', value: key }, { kind: 'index', value: i }]), 'eq', bytesLit(v))),
);
const intCmp = fc.oneof(
  fc.tuple(fc.constantFrom('cf.edge.server_port', 'ip.src.asnum'), fc.constantFrom<ComparisonOp>('eq', 'ne', 'lt', 'le', 'gt', 'ge', 'bitwise_and'), int)
    .map(([f, op, v]) => cmp(field(f), op, intLit(v))),
  fc.tuple(fc.constantFrom('cf.edge.server_port'), fc.array(intSetItem, { maxLength: 4 })).map(([f, items]) => cmp(field(f), 'in', { type: 'set', items, span: S })),
);
const ipCmp = fc.oneof(
  fc.tuple(fc.constantFrom<ComparisonOp>('eq', 'ne'), ip).map(([op, value]) => cmp(field('ip.src'), op, { type: 'ip', value, span: S })),
  fc.array(ipSetItem, { maxLength: 4 }).map((items) => cmp(field('ip.src'), 'in', { type: 'set', items, span: S })),
  fc.stringMatching(/^[a-z0-9_]{1,8}$/).map((name) => cmp(field('ip.src'), 'in', { type: 'list', name, span: S })),
);
const boolCmp = fc.constantFrom('ssl', 'cf.client.bot').map((n) => cmp(field(n), 'is_true', null));
const call = (name: string, args: ValueExpr['base'] extends infer _ ? unknown[] : never, indexes: ValueExpr['indexes'] = []): ValueExpr =>
  ({ type: 'value', base: { type: 'call', name, args: args as never, span: S }, indexes, span: S });
const callCmp = fc.oneof(
  fc.tuple(bytesField, bytes).map(([f, v]) => cmp(call('lower', [f]), 'eq', bytesLit(v))),
  fc.tuple(bytesField, int).map(([f, v]) => cmp(call('len', [f]), 'gt', intLit(v))),
  fc.tuple(bytesField, bytes).map(([f, v]) => cmp(call('starts_with', [f, bytesLit(v)]), 'is_true', null)),
  fc.tuple(bytesField, bytes, bytes).map(([f, a, v]) => cmp(call('concat', [f, bytesLit(a)]), 'contains', bytesLit(v))),
  fc.tuple(bytesField, fc.bigInt(-20n, 20n), fc.bigInt(-20n, 20n), bytes).map(([f, a, b, v]) => cmp(call('substring', [f, intLit(a), intLit(b)]), 'eq', bytesLit(v))),
);
const names = field('http.request.headers.names', [{ kind: 'each' }]);
const quantified: fc.Arbitrary<Expression> = fc.oneof(
  fc.tuple(fc.constantFrom<'any' | 'all'>('any', 'all'), bytes).map(([op, v]) => ({ type: 'quantifier' as const, op, arg: cmp(names, 'eq', bytesLit(v)), span: S })),
  fc.tuple(fc.constantFrom<'any' | 'all'>('any', 'all'), bytes, bytes).map(([op, a, b]) => ({
    type: 'quantifier' as const, op, span: S,
    arg: { type: 'logical' as const, op: 'or' as const, items: [cmp(names, 'contains', bytesLit(a)), { type: 'not' as const, arg: cmp(names, 'eq', bytesLit(b)), span: S }], span: S },
  })),
  bytes.map((v) => ({ type: 'quantifier' as const, op: 'any' as const, arg: cmp(call('lower', [names], [{ kind: 'each' }]), 'eq', bytesLit(v)), span: S })),
);
const leaf: fc.Arbitrary<Expression> = fc.oneof(bytesCmp, intCmp, ipCmp, boolCmp, callCmp, quantified);

const { expr } = fc.letrec<{ expr: Expression; not: Expression; logical: Expression }>((tie) => ({
  expr: fc.oneof({ depthSize: 'small', withCrossShrink: true }, leaf, tie('not'), tie('logical')),
  not: tie('expr').map((arg) => ({ type: 'not' as const, arg, span: S })),
  logical: fc.tuple(fc.constantFrom<'and' | 'or' | 'xor'>('and', 'or', 'xor'), fc.array(tie('expr'), { minLength: 2, maxLength: 3 }))
    .map(([op, items]) => ({ type: 'logical' as const, op, items: items.flatMap((i) => (i.type === 'logical' && i.op === op ? i.items : [i])), span: S })),
}));

const request = fc.record({
  'http.host': fc.oneof(bytes.map((b) => Buffer.from(b, 'latin1')), fc.string({ maxLength: 8 })),
  'http.request.uri.path': fc.string({ maxLength: 8 }),
  'http.request.headers.names': fc.array(fc.string({ maxLength: 4 }), { maxLength: 3 }),
  'http.request.headers': fc.dictionary(fc.string({ maxLength: 3 }), fc.array(fc.string({ maxLength: 3 }), { maxLength: 2 }), { maxKeys: 3 }),
  'cf.edge.server_port': fc.integer({ min: 0, max: 65535 }),
  'ip.src': ip,
  ssl: fc.boolean(),
}, { requiredKeys: [] });

describe('properties', () => {
  it('parse(format(ast)) equals ast, and the text is stable', () => {
    fc.assert(fc.property(expr, (ast) => {
      const text = format(ast);
      const parsed = parse(text);
      expect(equalExpressions(parsed, ast)).toBe(true);
      expect(format(parsed)).toBe(text);
    }), { numRuns: 400 });
  });

  it('the compiler agrees with the AST-walking interpreter', () => {
    fc.assert(fc.property(expr, request, (ast, req) => {
      expect(compile(ast)(req)).toBe(interpret(ast, req));
    }), { numRuns: 400 });
  });

  it('parse either succeeds or throws ExpressionError, for arbitrary strings', () => {
    const check = (source: string): void => {
      try {
        const e = parse(source);
        expect(format(parse(format(e)))).toBe(format(e));
      } catch (err) {
        if (!(err instanceof ExpressionError)) throw err;
        expect(err.offset).toBeGreaterThanOrEqual(0);
        expect(err.offset).toBeLessThanOrEqual(source.length);
        expect(err.length).toBeGreaterThanOrEqual(1);
      }
    };
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 120 }), check), { numRuns: 500 });
    const tokens = fc.constantFrom(
      'http.host', 'ip.src', 'ssl', 'http.request.headers', 'http.request.headers.names', 'cf.edge.server_port', 'lower', 'len',
      'concat', 'any', 'all', 'not', '!', 'and', '&&', 'or', 'xor', 'eq', '==', 'ne', 'in', 'contains', 'matches', '~', 'wildcard',
      'strict wildcard', '(', ')', '[', ']', '[*]', '["a"]', '[0]', '{', '}', ',', '"x"', '"\\x41"', 'r#"a"#', '80', '0x1f', '-1',
      '10.0.0.0/8', '::1', '1..5', '$list', '"(a"', '"\\n', ' ', '\t', '\n', 'true',
    );
    fc.assert(fc.property(fc.array(tokens, { maxLength: 25 }), fc.boolean(), (parts, spaced) => check(parts.join(spaced ? ' ' : ''))), { numRuns: 1500 });
  });

  it('the regex literal prefilter never changes a result', () => {
    const unit = fc.constantFrom('a', 'B', 'c', '/', '.', '\\.', '\\d', '\\x41', '+', '*', '?', '{2}', '(', ')', '|', '[', ']', '^', '$', '(?i)', '-');
    const pattern = fc.array(unit, { maxLength: 10 }).map((parts) => parts.join(''))
      .filter((p) => { try { RE2JS.compile(p); return true; } catch { return false; } });
    const input = fc.string({ unit: fc.constantFrom('a', 'A', 'b', 'B', 'c', 'C', '/', '.', '1', '-'), maxLength: 12 });
    fc.assert(fc.property(pattern, input, (p, s) => {
      expect(compileRegex(p).test(s)).toBe(RE2JS.compile(p).test(s));
    }), { numRuns: 3000 });
  });

  it('never hangs on long hostile input', () => {
    for (const source of ['('.repeat(4096), '"'.repeat(4096), 'a.'.repeat(2048), `${'ssl and '.repeat(500)}ssl`, `http.host in {${'"a" '.repeat(1000)}}`]) {
      try {
        parse(source);
      } catch (err) {
        expect(err).toBeInstanceOf(ExpressionError);
      }
    }
  });
});

// Rule-set shapes (issue 17's fast paths: field tests, `and`/`or` roots, IP and integer sets
// inline or by binary search, wildcard prefixes, `any(headers[k][*] ...)`, calls against
// literals), over values drawn from small pools so that rules match often, and fields left out.
const word = fc.constantFrom('', 'a', 'A', 'ab', '/api/', '/API/v1', 'x-key', 'k1', 'K1', 'GET', 'é', '/static/1/x.php');
const ruleBytesField = fc.constantFrom('http.host', 'http.request.uri.path', 'http.user_agent', 'http.request.full_uri', 'http.request.method', 'ip.src.country');
const ruleIpSetItem: fc.Arbitrary<SetItem> = fc.oneof(
  ipSetItem,
  fc.nat(9).map((n) => ({ type: 'ip' as const, value: `192.0.2.${n}`, span: S })),
  fc.tuple(fc.nat(9), fc.integer({ min: 28, max: 32 })).map(([n, prefix]) => ({ type: 'ip_cidr' as const, address: formatIp(networkAddress(parseIp(`192.0.2.${n}`)!, prefix)), prefix, span: S })),
  fc.tuple(fc.nat(9), fc.nat(3)).map(([n, d]) => ({ type: 'ip_range' as const, start: `192.0.2.${n}`, end: `192.0.2.${n + d}`, span: S })),
);
const ruleTest: fc.Arbitrary<Expression> = fc.oneof(
  fc.tuple(ruleBytesField, fc.constantFrom<ComparisonOp>('eq', 'ne', 'contains', 'lt', 'ge'), word).map(([f, op, v]) => cmp(field(f), op, bytesLit(v))),
  fc.tuple(ruleBytesField, fc.constantFrom<ComparisonOp>('wildcard', 'strict wildcard'), word, fc.boolean()).map(([f, op, v, star]) => cmp(field(f), op, { type: 'wildcard', value: star ? `${v}*` : v, span: S })),
  fc.tuple(ruleBytesField, fc.array(word, { maxLength: 4 })).map(([f, vs]) => cmp(field(f), 'in', { type: 'set', items: vs.map(bytesLit), span: S })),
  fc.tuple(fc.constantFrom('cf.edge.server_port', 'ip.src.asnum'), fc.constantFrom<ComparisonOp>('eq', 'ne', 'lt', 'le', 'gt', 'ge'), fc.bigInt(0n, 70000n)).map(([f, op, v]) => cmp(field(f), op, intLit(v))),
  fc.tuple(fc.constantFrom('cf.edge.server_port', 'ip.src.asnum'), fc.array(fc.oneof(fc.bigInt(0n, 20n).map(intLit), fc.tuple(fc.bigInt(0n, 20n), fc.bigInt(0n, 3n)).map(([a, d]) => ({ type: 'int_range' as const, start: a, end: a + d, span: S }))), { maxLength: 7 }))
    .map(([f, items]) => cmp(field(f), 'in', { type: 'set', items, span: S })),
  fc.array(ruleIpSetItem, { maxLength: 12 }).map((items) => cmp(field('ip.src'), 'in', { type: 'set', items, span: S })),
  fc.tuple(fc.constantFrom<ComparisonOp>('eq', 'ne'), fc.oneof(ip, fc.nat(9).map((n) => `192.0.2.${n}`))).map(([op, value]) => cmp(field('ip.src'), op, { type: 'ip', value, span: S })),
  fc.constantFrom('ssl', 'cf.client.bot').map((n) => cmp(field(n), 'is_true', null)),
  fc.constantFrom('ssl', 'cf.client.bot').map((n) => ({ type: 'not' as const, arg: cmp(field(n), 'is_true', null), span: S })),
  fc.tuple(fc.constantFrom('starts_with', 'ends_with'), ruleBytesField, word).map(([fn, f, v]) => cmp(call(fn, [field(f), bytesLit(v)]), 'is_true', null)),
  fc.tuple(ruleBytesField, fc.constantFrom<ComparisonOp>('eq', 'ne', 'contains'), word).map(([f, op, v]) => cmp(call('lower', [field(f)]), op, bytesLit(v))),
  fc.tuple(fc.constantFrom<'any' | 'all'>('any', 'all'), fc.constantFrom('x-key', 'X-Key', 'k'), fc.constantFrom<ComparisonOp>('eq', 'contains', 'ne'), word).map(([op, key, cop, v]) => ({
    type: 'quantifier' as const, op, span: S,
    arg: cmp(field('http.request.headers', [{ kind: 'key', value: key }, { kind: 'each' }]), cop, bytesLit(v)),
  })),
);
const ruleExpr: fc.Arbitrary<Expression> = fc.oneof(
  ruleTest,
  fc.tuple(fc.constantFrom<'and' | 'or' | 'xor'>('and', 'or', 'xor'), fc.array(ruleTest, { minLength: 2, maxLength: 3 })).map(([op, items]) => ({ type: 'logical' as const, op, items, span: S })),
  fc.tuple(fc.constantFrom<'and' | 'or'>('and', 'or'), ruleTest, fc.tuple(fc.constantFrom<'and' | 'or'>('and', 'or'), ruleTest, ruleTest))
    .map(([op, a, [inner, b, c]]) => ({ type: 'logical' as const, op, items: [a, { type: 'logical' as const, op: inner, items: [b, c], span: S }], span: S })),
);
const ruleRequest = fc.record({
  'http.host': word, 'http.request.uri.path': word, 'http.user_agent': word, 'http.request.full_uri': word, 'http.request.method': word, 'ip.src.country': word,
  'cf.edge.server_port': fc.oneof(fc.constantFrom(80, 443, 8080), fc.integer({ min: 0, max: 25 })),
  'ip.src.asnum': fc.oneof(fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 70000 })),
  'ip.src': fc.oneof(fc.nat(11).map((n) => `192.0.2.${n}`), ip),
  ssl: fc.boolean(), 'cf.client.bot': fc.boolean(),
  'http.request.headers': fc.dictionary(fc.constantFrom('x-key', 'X-Key', 'k'), fc.array(word, { maxLength: 3 }), { maxKeys: 2 }),
}, { requiredKeys: [] });

describe('properties of the compiled fast paths', () => {
  it('the compiler agrees with the interpreter on rule-set shapes, one request or a shared context', () => {
    fc.assert(fc.property(fc.array(ruleExpr.map((e) => parse(format(e))), { minLength: 1, maxLength: 4 }), ruleRequest, (asts, req) => {
      const ctx = new ExecutionContext(req);
      for (const ast of asts) {
        const want = interpret(ast, req);
        expect(compile(ast)(req)).toBe(want);
        expect(compile(ast)(ctx)).toBe(want);
      }
    }), { numRuns: 1500 });
  });
});
