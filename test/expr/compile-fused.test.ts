/**
 * The fused forms of the compiler (field tests in `field-test.ts`, the quantifier in `compile-fused.ts`) agree with the
 * AST-walking interpreter on present, missing and odd values: `any`/`all` over header arrays (a
 * missing header is an empty array), `starts_with`/`ends_with` of a field, and IP sets of one, two
 * and many ranges mixing IPv4 and IPv6.
 */
import { describe, expect, it } from 'vitest';
import { compile, parse, requestFields, type RequestDescription } from '../../src/expr/index.js';
import { interpret } from '../../src/expr/interpret.js';

const expressions = [
  'any(http.request.headers["x-api-key"][*] eq "k1")',
  'all(http.request.headers["x-api-key"][*] eq "k1")',
  'any(http.request.headers["x-api-key"][*] contains "2")',
  'all(http.request.headers["x-missing"][*] eq "k1")',
  'any(http.request.headers["x-missing"][*] eq "k1")',
  'any(http.request.headers[*][*] eq "k2")',
  'any(lower(http.request.headers["x-api-key"][*])[*] eq "k1")',
  'starts_with(http.request.uri.path, "/static/")',
  'ends_with(http.request.uri.path, ".php")',
  'not starts_with(http.request.uri.path, "/api")',
  'ip.src in {192.0.2.1}',
  'ip.src in {192.0.2.0/24 198.51.100.7}',
  'ip.src in {10.0.0.0/8 192.0.2.0/24 198.51.100.7 203.0.113.0..203.0.113.9}',
  'ip.src in {2001:db8::/32 192.0.2.1}',
  'not ip.src in {192.0.2.0/24}',
];

const requests: RequestDescription[] = [
  { url: 'https://a.example/static/x.php', ip: '192.0.2.9', headers: { 'X-Api-Key': ['k1', 'k2'] } },
  { url: 'https://a.example/api/v1', ip: '198.51.100.7', headers: { 'X-Api-Key': 'k1' } },
  { url: 'https://a.example/other', ip: '2001:db8::5', headers: {} },
  { url: 'https://a.example/static/', ip: '203.0.113.9', headers: { 'X-Api-Key': 'K1' } },
  { url: 'https://a.example/x.php', ip: '10.1.2.3', headers: { 'X-Other': 'k2' } },
  { url: 'https://a.example/', ip: '203.0.113.10', headers: { 'X-Api-Key': [] } },
  { url: 'https://a.example/static.php', ip: '192.0.2.1', headers: { 'x-api-key': 'k2' } },
];

describe('fused compiled forms agree with the interpreter', () => {
  for (const source of expressions) {
    it(source, () => {
      const expr = parse(source);
      const fn = compile(expr);
      const got = requests.map((r) => fn(requestFields(r)));
      const want = requests.map((r) => interpret(expr, requestFields(r)));
      expect(got).toEqual(want);
    });
  }

  it('the cases decide both ways', () => {
    const decided = expressions.map((s) => new Set(requests.map((r) => compile(parse(s))(requestFields(r)))).size);
    const constant = expressions.filter((_, i) => decided[i] !== 2);
    expect(constant).toEqual(['all(http.request.headers["x-missing"][*] eq "k1")', 'any(http.request.headers["x-missing"][*] eq "k1")']);
  });
});
