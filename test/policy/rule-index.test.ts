/**
 * The rule index: guards read off expressions (table), and the property that makes it safe: for
 * any request, the rules the index returns are exactly the rules whose compiled expression
 * matches, in order; so the trace evaluator answers the same with or without the index.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ExecutionContext, compile, parse, requestFields } from '../../src/expr/index.js';
import { RuleIndex, buildZoneModel, evaluateOffline, guardOf, modelNames, type ZoneModel } from '../../src/policy/index.js';
import { desiredOf, firewallManifest } from './fixtures.js';

const phase = 'http_request_firewall_custom' as const;
const guard = (source: string) => {
  const g = guardOf(parse(source, { phase }));
  return g === undefined ? undefined : g.map((alt) => `${alt.field}: ${[...alt.keys].sort().join(' ')}`);
};

describe('guards', () => {
  it('an IP set of up to 256 /16 buckets is guarded by its buckets', () => {
    expect(guardOf(parse('ip.src in {10.0.0.0/8}', { phase }))![0]!.keys.size).toBe(256);
  });

  it.each([
    ['http.host eq "a.example"', ['http.host: b:a.example']],
    ['http.request.method in {"POST" "PUT"} and http.request.uri.path contains "/x"', ['http.request.method: b:POST b:PUT']],
    ['http.host eq "a" and http.request.method in {"POST" "PUT"}', ['http.host: b:a']],
    ['http.host eq "a" or http.request.uri.path eq "/b"', ['http.host: b:a', 'http.request.uri.path: b:/b']],
    ['http.host eq "a" or http.user_agent contains "b"', undefined],
    ['not http.host eq "a"', undefined],
    ['http.host ne "a"', undefined],
    ['lower(http.host) eq "a"', undefined],
    ['http.host eq "a" xor http.host eq "b"', undefined],
    ['ip.src.asnum in {64500 64501..64502}', ['ip.src.asnum: i:64500 i:64501 i:64502']],
    ['ip.src in {192.0.2.0/24 198.51.100.7}', ['ip.src: 4:49152 4:50739']],
    ['ip.src in {2001:db8::/32}', ['ip.src: 6:536939960']],
    ['ip.src in {10.0.0.0/7}', undefined],
    ['ip.src eq 203.0.113.9', ['ip.src: 4:51968']],
    ['any(http.request.headers["x"][*] eq "a")', undefined],
  ] as const)('%s', (source, expected) => {
    expect(guard(source)).toEqual(expected);
  });
});

const expressions = [
  'http.host eq "a.example" and http.request.uri.path contains "/admin"',
  'http.host in {"a.example" "b.example"}',
  'http.request.method eq "POST" or http.request.uri.path eq "/p"',
  'ip.src in {192.0.2.0/25 2001:db8::/33 198.51.100.1..198.51.100.9}',
  'ip.src eq 192.0.2.200',
  'ip.src.asnum eq 64501 and ip.src.country eq "DE"',
  'ip.src.country in {"DE" "FR"} or ip.src.asnum in {64500..64502}',
  'not http.host eq "a.example"',
  'http.user_agent contains "bot"',
  'http.request.uri.path matches "^/p[0-9]"',
  'http.host eq "A.example"',
  'any(http.request.headers["x-k"][*] eq "v")',
];

const request = fc.record({
  host: fc.constantFrom('a.example', 'b.example', 'A.example', 'c.example'),
  method: fc.constantFrom('GET', 'POST', 'post'),
  path: fc.constantFrom('/', '/p', '/p1', '/admin/x'),
  ip: fc.constantFrom('192.0.2.1', '192.0.2.127', '192.0.2.128', '192.0.2.200', '198.51.100.5', '198.51.100.10', '2001:db8::1', '2001:db8:8000::1', '203.0.113.1'),
  country: fc.constantFrom('DE', 'FR', 'US'),
  asn: fc.constantFrom(64500, 64501, 64502, 64503),
  ua: fc.constantFrom('robot', 'human'),
  key: fc.constantFrom(undefined, 'v', 'w'),
});

describe('the index returns exactly the matching rules', () => {
  const index = new RuleIndex(expressions.map((_, i) => i), expressions, phase);
  const compiled = expressions.map((e) => compile(parse(e, { phase })));

  it('for any request', () => {
    fc.assert(fc.property(request, (r) => {
      const fields = requestFields({ method: r.method, host: r.host, path: r.path, ip: r.ip, country: r.country, asn: r.asn, headers: { 'User-Agent': r.ua, ...(r.key ? { 'X-K': r.key } : {}) } });
      const expected = compiled.flatMap((f, i) => (f(new ExecutionContext(fields)) ? [i] : []));
      expect(index.candidates(new ExecutionContext(fields))).toEqual(expected);
    }), { numRuns: 300 });
  });

  it('a request value that does not convert keeps the guarded rules, so the evaluator reports it', () => {
    const ctx = new ExecutionContext({ ...requestFields({ host: 'a.example' }), 'ip.src.asnum': 'lots' });
    expect(() => compiled[5]!(ctx)).toThrow(/expected an integer/);
    expect(index.candidates(ctx)).toContain(5);
  });
});

describe('the firewall fixture gives the same verdicts with and without the index', () => {
  const model = buildZoneModel(desiredOf(firewallManifest));
  const unindexed: ZoneModel = { ...model, index: { candidates: () => model.rules } };
  const names = modelNames(model);
  it('for any request', () => {
    const req = fc.record({
      path: fc.constantFrom('/', '/admin', '/api/v1/x', '/api/x', '/partner/f', '/paused', '/maintenance', '/late', '/very-late', '/WP-login'),
      ip: fc.constantFrom('192.0.2.9', '203.0.113.5', '198.51.100.15', '2001:db8:1::1'),
      country: fc.constantFrom('KP', 'DE'),
      headers: fc.constantFrom<Record<string, string>>({}, { 'User-Agent': 'curl/8' }, { 'X-Api-Key': 's3cret' }, { 'x-api-key': 'nope' }),
    });
    fc.assert(fc.property(req, (r) => {
      expect(evaluateOffline(model, r, names)).toEqual(evaluateOffline(unindexed, r, names));
    }), { numRuns: 200 });
  });
});
