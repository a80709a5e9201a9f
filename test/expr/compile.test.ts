import { describe, expect, it } from 'vitest';
import {
  ExecutionContext, RequestFieldError, compile, parse, requestFields, type FieldValue, type RequestFields,
} from '../../src/expr/index.js';

const run = (source: string, request: RequestFields, lists?: Record<string, string[]>): boolean =>
  compile(parse(source), { lists })(request);

const REQ = requestFields({
  method: 'post',
  url: 'https://www.example.org/api/v1/login.PHP?user=bob&user=eve&next=%2Fhome',
  headers: {
    'User-Agent': 'Mozilla/5.0 (compatible; Googlebot/2.1)',
    'X-Token': ['a', 'b'],
    Cookie: 'session=abc; theme=dark',
    Referer: 'https://ref.example/',
  },
  ip: '203.0.113.7',
  country: 'GB',
  asn: 13335,
  body: '{"user":{"name":"bob","roles":["admin"],"age":42}}',
  timestamp: 1_700_000_000,
});

describe('evaluation table', () => {
  const table: Array<[string, boolean]> = [
    ['http.request.uri.path contains "/api"', true],
    ['http.request.uri.path matches "^/api/v[0-9]+/"', true],
    ['http.request.uri.path matches "LOGIN"', false],
    ['http.request.uri.path matches "(?i)LOGIN"', true],
    ['http.request.uri.path eq "/api/v1/login.PHP"', true],
    ['http.request.uri.path ne "/api/v1/login.PHP"', false],
    ['http.request.uri.path.extension eq "php"', true],
    ['http.request.uri.query eq "user=bob&user=eve&next=%2Fhome"', true],
    ['http.request.uri eq "/api/v1/login.PHP?user=bob&user=eve&next=%2Fhome"', true],
    ['http.request.full_uri wildcard "https://*.EXAMPLE.org/*"', true],
    ['http.request.full_uri strict wildcard "https://*.EXAMPLE.org/*"', false],
    ['http.request.method in {"GET" "POST"}', true],
    ['http.request.method lt "Q"', true],
    ['http.host eq "www.example.org" and ssl', true],
    ['ip.src eq 203.0.113.7', true],
    ['ip.src ne 203.0.113.7', false],
    ['ip.src in {203.0.113.0/24}', true],
    ['ip.src in {203.0.113.8..203.0.113.20 2001:db8::/32}', false],
    ['ip.src in {::ffff:203.0.113.7}', false],
    ['ip.src eq ::ffff:203.0.113.7', false],
    ['ip.src ne ::ffff:203.0.113.7', true],
    ['ip.src.country in {"GB" "FR"} and ip.src.asnum eq 13335', true],
    ['ip.geoip.country eq "GB"', true],
    ['cf.edge.server_port in {80 443}', true],
    ['cf.edge.server_port ge 1000', false],
    ['cf.edge.server_port bitwise_and 0x100', true],
    ['http.user_agent contains "Googlebot"', true],
    ['http.user_agent matches "(?i)googlebot/\\d+\\.\\d+"', true],
    ['http.request.headers["x-token"][0] eq "a"', true],
    ['http.request.headers["x-token"][1] eq "b"', true],
    ['http.request.headers["x-token"][2] eq "c"', false],
    ['http.request.headers["X-Token"][0] eq "a"', false],
    ['any(http.request.headers["x-token"][*] eq "b")', true],
    ['all(http.request.headers["x-token"][*] eq "b")', false],
    ['any(http.request.headers.names[*] eq "X-Token")', true],
    ['any(lower(http.request.headers.names[*])[*] eq "x-token")', true],
    ['len(http.request.headers.names) eq 5', true],
    ['http.request.cookies["session"][0] eq "abc"', true],
    ['http.cookie contains "theme=dark"', true],
    ['http.referer eq "https://ref.example/"', true],
    ['http.x_forwarded_for eq ""', true],
    ['any(http.request.uri.args["user"][*] eq "eve")', true],
    ['http.request.uri.args.names[2] eq "next"', true],
    ['url_decode(http.request.uri.args["next"][0]) eq "/home"', true],
    ['lookup_json_string(http.request.body.raw, "user", "name") eq "bob"', true],
    ['lookup_json_string(http.request.body.raw, "user", "roles", 0) eq "admin"', true],
    ['lookup_json_integer(http.request.body.raw, "user", "age") eq 42', true],
    ['http.request.timestamp.sec gt 1600000000', true],
    ['not ssl or http.host eq "a"', false],
    ['ssl xor ssl xor ssl', true],
    ['ssl xor ssl', false],
    ['true', true],
    ['false', false],
  ];
  it.each(table)('%s -> %s', (source, expected) => {
    expect(run(source, REQ)).toBe(expected);
  });
});

describe('missing values (zonewall choice 1: false for every operator)', () => {
  const empty: RequestFields = {};
  it.each([
    ['http.request.headers["missing"][0] eq "x"', false],
    ['http.request.headers["missing"][0] ne "x"', false],
    ['not http.request.headers["missing"][0] eq "x"', true],
    ['any(http.request.headers["missing"][*] eq "x")', false],
    ['all(http.request.headers["missing"][*] eq "x")', true],
    ['not len(http.request.uri.args["order"]) ge 0', true],
    ['http.referer ne "x"', false],
    ['http.referer eq ""', false],
    ['ip.src ne 1.2.3.4', false],
    ['ssl', false],
    ['not ssl', true],
    ['lower(http.host) eq ""', false],
    ['concat(http.host, "x") eq "x"', true],
    ['len(http.host) eq 0', false],
    ['all(http.request.headers.names[*] eq "x")', true],
    ['any(http.request.headers.names[*] eq "x")', false],
  ])('%s -> %s', (source, expected) => {
    expect(run(source, empty)).toBe(expected);
  });
});

describe('byte semantics', () => {
  const req: RequestFields = { 'http.host': 'é.example', 'http.request.uri.path': '/\u00e9' };
  it('compares, measures and orders UTF-8 bytes', () => {
    expect(run('len(http.host) eq 10', req)).toBe(true);
    expect(run('http.host eq "\\xc3\\xa9.example"', req)).toBe(true);
    expect(run('http.host contains "\\xa9"', req)).toBe(true);
    expect(run('substring(http.host, 0, 2) eq "é"', req)).toBe(true);
    expect(run('http.host gt "z"', req)).toBe(true);
  });

  it('runs regexes on bytes unless (?u) turns Unicode on', () => {
    expect(run('http.host matches "^.\\.example$"', req)).toBe(false);
    expect(run('http.host matches "^..\\.example$"', req)).toBe(true);
    expect(run('http.host matches "(?u)^.\\.example$"', req)).toBe(true);
    expect(run('http.host matches "^é"', req)).toBe(true);
    expect(run('url_decode(http.request.uri.path) matches "(?u)\\p{Latin}"', req)).toBe(true);
  });

  it('lower-cases ASCII only', () => {
    expect(run('lower(http.host) eq "éa"', { 'http.host': 'ÉA' })).toBe(false);
    expect(run('lower(http.host) eq "Éa"', { 'http.host': 'ÉA' })).toBe(true);
    expect(run('http.host wildcard "éa"', { 'http.host': 'éA' })).toBe(true);
  });
});

describe('regex safety', () => {
  it('matches hostile patterns in linear time (re2js, not RegExp)', () => {
    const evil = compile(parse('http.host matches "(a+)+$"'));
    const input = `${'a'.repeat(20_000)}!`;
    const started = process.hrtime.bigint();
    expect(evil({ 'http.host': input })).toBe(false);
    // Not a timing assertion on speed, only that it returns; a backtracking engine would not.
    expect(process.hrtime.bigint() - started).toBeGreaterThan(0n);
  });
});

describe('wildcards', () => {
  it.each([
    ['*.example.com', 'www.EXAMPLE.com', true, false],
    ['*.example.com', 'example.com', false, false],
    ['a*b*c', 'abc', true, true],
    ['a*b*c', 'aXbYbZc', true, true],
    ['a*b*c', 'acb', false, false],
    ['foo?', 'foo?', true, true],
    ['foo?', 'fooX', false, false],
    ['\\*literal', '*literal', true, true],
    ['\\*literal', 'Xliteral', false, false],
    ['back\\\\slash', 'back\\slash', true, true],
    ['*', '', true, true],
    ['https://www.example.com/p/*', 'https://www.example.com/p/42', true, true],
    ['https://www.example.com/p/4*', 'https://www.example.com/p/', false, false],
    ['https://www.example.com/p/4*', 'https://www.example.com/p/5', false, false],
    ['ABC*', 'abcd', true, false],
  ])('%s ~ %s', (pattern, value, insensitive, strict) => {
    const lit = JSON.stringify(pattern);
    expect(run(`http.host wildcard ${lit}`, { 'http.host': value })).toBe(insensitive);
    expect(run(`http.host strict wildcard ${lit}`, { 'http.host': value })).toBe(strict);
  });
});

describe('arrays of booleans', () => {
  it('combines element-wise and truncates to the shortest', () => {
    const req: RequestFields = { 'http.request.headers.names': ['a', 'b', 'c'], 'http.request.headers.values': ['1', '2'] };
    expect(run('any((http.request.headers.names[*] eq "c" and http.request.headers.values[*] eq "2"))', req)).toBe(false);
    expect(run('any((http.request.headers.names[*] eq "b" and http.request.headers.values[*] eq "2"))', req)).toBe(true);
    expect(run('all((http.request.headers.names[*] ne "z" or http.request.headers.values[*] eq "2"))', req)).toBe(true);
    expect(run('any(not http.request.headers.names[*] eq "a")', req)).toBe(true);
    expect(run('all(not http.request.headers.names[*] eq "a")', req)).toBe(false);
  });
});

describe('lists', () => {
  it('matches IP, integer and string lists; an unknown list matches nothing', () => {
    const lists = { office: ['203.0.113.0/24', '198.51.100.1..198.51.100.5'], asns: ['13335'], hosts: ['www.example.org'] };
    expect(run('ip.src in $office', REQ, lists)).toBe(true);
    expect(run('ip.src.asnum in $asns', REQ, lists)).toBe(true);
    expect(run('http.host in $hosts', REQ, lists)).toBe(true);
    expect(run('ip.src in $nope', REQ, lists)).toBe(false);
  });
});

describe('request values', () => {
  it('accepts numbers for IPs and integers as strings', () => {
    expect(run('ip.src eq 0.0.0.1', { 'ip.src': 1 })).toBe(true);
    expect(run('ip.src.asnum eq 7', { 'ip.src.asnum': '7' })).toBe(true);
    expect(run('http.request.headers["x"][0] eq "y"', { 'http.request.headers': { X: 'y' } })).toBe(true);
  });

  it('refuses values that do not fit the field', () => {
    expect(() => run('ip.src eq 1.2.3.4', { 'ip.src': 'not-an-ip' })).toThrow(RequestFieldError);
    expect(() => run('ip.src.asnum eq 1', { 'ip.src.asnum': 'x' })).toThrow(/request field ip.src.asnum: expected an integer/);
  });

  it('shares one ExecutionContext across many filters', () => {
    const ctx = new ExecutionContext(REQ);
    const filters = ['ssl', 'http.host eq "www.example.org"', 'ip.src in {203.0.113.0/24}'].map((s) => compile(parse(s)));
    expect(filters.map((f) => f(ctx))).toEqual([true, true, true]);
  });

  it('decides a lone `field eq literal` the same on a record and on a context, for every value type', () => {
    const cases: Array<[string, RequestFields, boolean]> = [
      ['ip.src eq 10.0.0.1', { 'ip.src': '10.0.0.1' }, true],
      ['ip.src eq 10.0.0.1', { 'ip.src': '10.0.0.2' }, false],
      ['ip.src eq 10.0.0.1', { 'ip.src': '::ffff:10.0.0.1' }, false],
      ['ip.src eq 10.0.0.1', {}, false],
      ['ip.src eq 2001:db8::1', { 'ip.src': '2001:db8::1' }, true],
      ['ip.src.asnum eq 13335', { 'ip.src.asnum': 13335 }, true],
      ['ip.src.asnum eq 13335', {}, false],
      ['http.host eq "a.example"', { 'http.host': 'a.example' }, true],
      ['http.host eq "a.example"', { 'http.host': 'A.example' }, false],
      ['http.host eq "a.example"', {}, false],
      ['http.host eq ""', {}, false],
    ];
    for (const [source, request, expected] of cases) {
      const filter = compile(parse(source));
      expect([source, filter(request)]).toEqual([source, expected]);
      expect([source, filter(new ExecutionContext(request))]).toEqual([source, expected]);
    }
  });

  it('decides the roots written out in compile-root.ts like the general compiler (and, or, ranges, any)', () => {
    const v4 = { 'ip.src': '203.0.113.7', 'http.request.method': 'POST', 'http.host': 'a.example' };
    const v6 = { 'ip.src': '2001:db8:5::1', 'http.request.method': 'GET', 'http.host': 'b.example' };
    const cases: Array<[string, RequestFields, boolean]> = [
      ['ip.src in {203.0.113.0/24 2001:db8:5::/48 198.51.100.1..198.51.100.9}', v4, true],
      ['ip.src in {203.0.113.0/24 2001:db8:5::/48 198.51.100.1..198.51.100.9}', v6, true],
      ['ip.src in {203.0.113.8..203.0.113.9 198.51.100.0/24}', v4, false],
      ['ip.src in {192.0.2.0/24 198.51.100.0/24 203.0.113.0/25 10.0.0.0/8}', v4, true],
      ['ip.src in {192.0.2.0/24 198.51.100.0/24 203.0.113.8/29 10.0.0.0/8}', v4, false],
      ['ip.src in {203.0.113.0/24}', v6, false],
      ['ip.src in {203.0.113.0/24}', {}, false],
      ['ip.src in {203.0.113.0/24} and http.request.method eq "POST"', v4, true],
      ['ip.src in {203.0.113.0/24} and http.request.method eq "POST"', v6, false],
      ['ip.src in {203.0.113.0/24} or http.host eq "b.example"', v6, true],
      ['ip.src in {2001:db8:5::/48} or http.host eq "a.example"', v6, true],
      ['ip.src eq 203.0.113.7 and http.host eq "a.example"', v4, true],
      ['ip.src eq 203.0.113.7 or http.host eq "b.example"', v6, true],
      ['ip.src eq 203.0.113.7 or http.host eq "c.example"', v6, false],
      ['http.host eq "a.example" and http.request.method eq "GET"', v4, false],
      ['http.host eq "c.example" or http.request.method eq "GET"', v6, true],
      ['any(http.request.headers["x-k"][*] eq "b")', { 'http.request.headers': { 'X-K': ['a', 'b'] } }, true],
      ['any(http.request.headers["x-k"][*] eq "c")', { 'http.request.headers': { 'X-K': ['a', 'b'] } }, false],
      ['any(http.request.headers["x-k"][*] eq "a")', {}, false],
      ['lower(http.host) eq "a.example"', { 'http.host': 'A.Example' }, true],
      ['lower(http.host) eq "a.example"', {}, false],
      ['lower(http.host) eq "a.example" and http.request.method eq "POST"', { ...v4, 'http.host': 'A.EXAMPLE' }, true],
      ['lower(http.host) eq "x.example" or http.request.method eq "GET"', v6, true],
      ['http.host contains "example"', v4, true],
      ['http.host contains ""', v4, true],
      ['http.host contains ""', {}, false],
      ['http.host contains "a." and http.request.method eq "GET"', v4, false],
      ['http.host contains "zzz" or http.request.method eq "POST"', v4, true],
      ['http.host contains "zzz" or http.request.method eq "POST"', {}, false],
      ['http.user_agent matches "(?i)scanner-3/[0-9]+"', { 'http.user_agent': 'x SCANNER-3/12' }, true],
      ['http.user_agent matches "(?i)scanner-3/[0-9]+"', { 'http.user_agent': 'x Scanner-3/y' }, false],
      ['http.user_agent matches "(?i)scanner-3/[0-9]+"', { 'http.user_agent': 'Mozilla' }, false],
      ['http.user_agent matches "(?i)scanner-3/[0-9]+"', {}, false],
    ];
    for (const [source, request, expected] of cases) {
      const filter = compile(parse(source));
      expect([source, filter(request)]).toEqual([source, expected]);
      expect([source, filter(new ExecutionContext(request))]).toEqual([source, expected]);
    }
  });

  it('decides `ip.src` tests read through the context\'s IPv4 property whatever read the address first', () => {
    // `ip.src eq` / `in {…}` roots read `ExecutionContext.ip4` (issue 35); other tests read the field.
    const roots = [
      'ip.src eq 203.0.113.7', 'ip.src eq 10.0.0.1', 'ip.src in {203.0.113.0/24 2001:db8:5::/48}',
      'ip.src in {10.0.0.0/8} or ip.src eq 203.0.113.7', 'ip.src in {203.0.113.0/24} and ip.src ne 203.0.113.8',
    ].map((s) => compile(parse(s)));
    const general = compile(parse('ip.src ne 0.0.0.0 and http.host ne ""'));
    const cases: Array<[FieldValue | undefined, boolean[]]> = [
      ['203.0.113.7', [true, false, true, true, true]],
      [0xcb007107, [true, false, true, true, true]],
      ['2001:db8:5::1', [false, false, true, false, false]],
      [0x20010db8000500000000000000000001n, [false, false, true, false, false]],
      ['::ffff:203.0.113.7', [false, false, false, false, false]],
      [undefined, [false, false, false, false, false]],
    ];
    for (const [ip, expected] of cases) {
      const request: RequestFields = ip === undefined ? { 'http.host': 'a' } : { 'ip.src': ip, 'http.host': 'a' };
      const fresh = new ExecutionContext(request);
      const readFirst = new ExecutionContext(request);
      general(readFirst);
      // Each root twice on one context: the second reads the property the first filled.
      expect([ip, roots.map((f) => f(fresh)), roots.map((f) => f(fresh)), roots.map((f) => f(readFirst)), roots.map((f) => f(request))])
        .toEqual([ip, expected, expected, expected, expected]);
    }
    expect(() => roots[0]!(new ExecutionContext({ 'ip.src': 'not-an-ip' }))).toThrow(RequestFieldError);
  });

  it('answers any(headers[key][*] eq …) over several keys read in turn on one context', () => {
    const ctx = new ExecutionContext(requestFields({ headers: { 'X-A': ['1', '2'], 'X-B': '3' } }));
    const sources = [
      'any(http.request.headers["x-a"][*] eq "2")', 'any(http.request.headers["x-b"][*] eq "2")',
      'any(http.request.headers["x-a"][*] eq "3")', 'any(http.request.headers["x-b"][*] eq "3")',
      'any(http.request.headers["x-c"][*] eq "3")', 'any(http.request.headers["x-a"][*] eq "1")',
    ];
    const filters = sources.map((s) => compile(parse(s)));
    expect(filters.map((f) => f(ctx))).toEqual([true, false, false, true, false, true]);
    expect(filters.map((f) => f(new ExecutionContext(requestFields({ headers: { 'X-B': '2' } }))))).toEqual([false, true, false, false, false, false]);
  });

  it('merges header names that lower-case alike, in either order, from a record or a Map', () => {
    const filter = compile(parse('http.request.headers["x-a"][1] eq "2" and http.request.headers["x-b"][0] eq "3"'));
    const records: RequestFields[] = [
      { 'http.request.headers': { 'x-a': ['1'], 'X-A': '2', 'x-b': '3' } },
      { 'http.request.headers': { 'X-A': '1', 'x-b': '3', 'x-a': ['2'] } },
      { 'http.request.headers': new Map<string, FieldValue>([['x-a', '1'], ['x-b', ['3']], ['X-a', '2']]) },
    ];
    for (const request of records) expect(filter(new ExecutionContext(request))).toBe(true);
    expect(filter({ 'http.request.headers': { 'x-a': ['1'], 'x-b': '3' } })).toBe(false);
  });

  it('lower-cases a field once per context for every (?i) pattern over it, each with its own answer', () => {
    const ctx = new ExecutionContext({ 'http.user_agent': 'Mozilla/5.0 SCANNER-7/2', 'http.host': 'Scanner-7/2' });
    const sources = [
      'http.user_agent matches "(?i)scanner-7/[0-9]"', 'http.user_agent matches "(?i)scanner-8/[0-9]"',
      'http.user_agent matches "(?i)mozilla/[0-9]"', 'http.host matches "(?i)^scanner-7/"', 'http.host matches "(?i)^mozilla"',
    ];
    expect(sources.map((s) => compile(parse(s))(ctx))).toEqual([true, false, true, true, false]);
  });

  it('reads a header once per context for every quantifier over it, each with its own test', () => {
    // The container `headers["x-token"]` is shared per request (issue 35); the tests are not.
    const ctx = new ExecutionContext(REQ);
    const sources = [
      'any(http.request.headers["x-token"][*] eq "b")',
      'all(http.request.headers["x-token"][*] eq "b")',
      'any(http.request.headers["x-token"][*] eq "c")',
      'all(http.request.headers["x-token"][*] in {"a" "b"})',
      'any(http.request.headers["x-missing"][*] eq "a")',
      'all(http.request.headers["x-missing"][*] eq "a")',
    ];
    const filters = sources.map((s) => compile(parse(s)));
    expect(filters.map((f) => f(ctx))).toEqual([true, false, false, true, false, true]);
    // A second context over another request sees its own header, not the first one's.
    const other = new ExecutionContext(requestFields({ headers: { 'X-Token': 'c' } }));
    expect(filters.map((f) => f(other))).toEqual([false, false, true, false, false, true]);
  });
});
