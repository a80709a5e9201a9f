import { describe, expect, it } from 'vitest';
import { equalExpressions, format, parse, stripSpans, type ComparisonExpr } from '../../src/expr/index.js';
import { parseError, shape } from './helpers.js';

describe('operators in both notations', () => {
  const pairs: Array<[string, string, string]> = [
    ['http.host eq "a"', 'http.host == "a"', '(eq http.host)'],
    ['http.host ne "a"', 'http.host != "a"', '(ne http.host)'],
    ['cf.edge.server_port lt 80', 'cf.edge.server_port < 80', '(lt cf.edge.server_port)'],
    ['cf.edge.server_port le 80', 'cf.edge.server_port <= 80', '(le cf.edge.server_port)'],
    ['cf.edge.server_port gt 80', 'cf.edge.server_port > 80', '(gt cf.edge.server_port)'],
    ['cf.edge.server_port ge 80', 'cf.edge.server_port >= 80', '(ge cf.edge.server_port)'],
    ['http.host matches "a"', 'http.host ~ "a"', '(matches http.host)'],
    ['cf.edge.server_port bitwise_and 1', 'cf.edge.server_port & 1', '(bitwise_and cf.edge.server_port)'],
    ['ssl and cf.client.bot', 'ssl && cf.client.bot', '(and ssl cf.client.bot)'],
    ['ssl or cf.client.bot', 'ssl || cf.client.bot', '(or ssl cf.client.bot)'],
    ['ssl xor cf.client.bot', 'ssl ^^ cf.client.bot', '(xor ssl cf.client.bot)'],
    ['not ssl', '!ssl', '(not ssl)'],
  ];
  it.each(pairs)('%s = %s', (english, symbolic, expected) => {
    const a = parse(english);
    const b = parse(symbolic);
    expect(shape(a)).toBe(expected);
    expect(equalExpressions(a, b)).toBe(true);
    expect(format(b)).toBe(english);
  });

  it.each([
    ['http.host contains "x"', '(contains http.host)'],
    ['http.host wildcard "*.example.com"', '(wildcard http.host)'],
    ['http.host strict wildcard "*.Example.com"', '(strict wildcard http.host)'],
    ['http.host in {"a" "b"}', '(in http.host)'],
    ['ip.src in $office_ips', '(in ip.src)'],
  ])('%s', (source, expected) => {
    expect(shape(parse(source))).toBe(expected);
  });
});

describe('precedence: not > and > xor > or', () => {
  it.each([
    ['not ssl and cf.client.bot or cf.edge.client_tcp xor ssl', '(or (and (not ssl) cf.client.bot) (xor cf.edge.client_tcp ssl))'],
    // wirefilter's own test: `t or t && t and t or t ^^ t and t || t`
    ['ssl or ssl && ssl and ssl or ssl ^^ ssl and ssl || ssl', '(or ssl (and ssl ssl ssl) (xor ssl (and ssl ssl)) ssl)'],
    ['not ssl && cf.client.bot', '(and (not ssl) cf.client.bot)'],
    ['not http.host == "a"', '(not (eq http.host))'],
    ['not (ssl or cf.client.bot)', '(not (or ssl cf.client.bot))'],
    ['ssl and (cf.client.bot or ssl)', '(and ssl (or cf.client.bot ssl))'],
    ['ssl xor cf.client.bot or ssl', '(or (xor ssl cf.client.bot) ssl)'],
    ['not not ssl', '(not (not ssl))'],
    // Runs of one operator are one node, across parentheses too (same meaning).
    ['ssl or (cf.client.bot or cf.edge.client_tcp)', '(or ssl cf.client.bot cf.edge.client_tcp)'],
    ['(ssl and cf.client.bot) and ssl', '(and ssl cf.client.bot ssl)'],
    ['((ssl))', 'ssl'],
  ])('%s', (source, expected) => {
    expect(shape(parse(source))).toBe(expected);
  });
});

describe('every field type', () => {
  it.each([
    ['Bytes', 'http.request.uri.path eq "/"', '(eq http.request.uri.path)'],
    ['Int', 'ip.src.asnum eq 13335', '(eq ip.src.asnum)'],
    ['Ip v4', 'ip.src eq 192.0.2.1', '(eq ip.src)'],
    ['Ip v6', 'ip.src eq 2001:db8::1', '(eq ip.src)'],
    ['Bool', 'ssl', 'ssl'],
    ['Array<Bytes> index', 'http.request.headers.names[0] eq "Host"', '(eq http.request.headers.names[0])'],
    ['Array<Bytes> each', 'any(http.request.headers.names[*] eq "Host")', '(any (eq http.request.headers.names[*]))'],
    ['Array<Int> each', 'any(cf.bot_management.detection_ids[*] eq 33554817)', '(any (eq cf.bot_management.detection_ids[*]))'],
    ['Map<Array<Bytes>> key', 'http.request.headers["x-token"][0] eq "a"', '(eq http.request.headers[x-token][0])'],
    ['Map each, nested each', 'any(http.request.headers[*][*] contains "evil")', '(any (contains http.request.headers[*][*]))'],
    ['Map<Int> key', 'cf.llm.prompt.custom_topic_categories["x"] gt 50', '(gt cf.llm.prompt.custom_topic_categories[x])'],
    ['Array<Array<Bytes>>', 'http.request.body.multipart.names[0][0] eq "file"', '(eq http.request.body.multipart.names[0][0])'],
    ['true alone', 'true', 'true'],
    ['false alone', ' false ', 'false'],
  ])('%s', (_name, source, expected) => {
    expect(shape(parse(source))).toBe(expected);
  });

  it('types function results: Bool calls stand alone, others need an operator', () => {
    expect(shape(parse('starts_with(http.request.uri.path, "/blog")'))).toBe('starts_with(http.request.uri.path,/blog)');
    expect(parseError('len(http.host)').reason).toBe('expected ComparisonOp');
  });
});

describe('literals', () => {
  const rhs = (source: string): unknown => stripSpans((parse(source) as ComparisonExpr).rhs);
  it.each([
    ['http.host eq "a\\"b\\\\c"', { type: 'bytes', value: 'a"b\\c' }],
    ['http.host eq "\\x41\\101\\x80"', { type: 'bytes', value: 'AA\x80' }],
    ['http.host eq "é"', { type: 'bytes', value: '\xc3\xa9' }],
    ['http.host eq "line\nbreak"', { type: 'bytes', value: 'line\nbreak' }],
    ['http.host eq r"a\\d"', { type: 'bytes', value: 'a\\d' }],
    ['http.host eq r#"say "hi""#', { type: 'bytes', value: 'say "hi"' }],
    ['http.host eq 6F:72-67.2e', { type: 'bytes', value: 'org.' }],
    ['cf.edge.server_port eq 0673', { type: 'int', value: 443n }],
    ['cf.edge.server_port eq 0x1bb', { type: 'int', value: 443n }],
    ['cf.edge.server_port eq -010', { type: 'int', value: -10n }],
    ['cf.edge.server_port eq 9223372036854775807', { type: 'int', value: 9223372036854775807n }],
    ['ip.src eq ::ffff:1.2.3.4', { type: 'ip', value: '::ffff:1.2.3.4' }],
    ['ip.src eq 2001:DB8:0:0:0:0:0:1', { type: 'ip', value: '2001:db8::1' }],
    ['http.host in {}', { type: 'set', items: [] }],
    ['cf.edge.server_port in {80 443 8000..8999}', {
      type: 'set', items: [{ type: 'int', value: 80n }, { type: 'int', value: 443n }, { type: 'int_range', start: 8000n, end: 8999n }],
    }],
    ['ip.src in {192.0.2.0/24 198.51.100.3..198.51.100.7 2001:db8::/32 ::1}', {
      type: 'set', items: [
        { type: 'ip_cidr', address: '192.0.2.0', prefix: 24 },
        { type: 'ip_range', start: '198.51.100.3', end: '198.51.100.7' },
        { type: 'ip_cidr', address: '2001:db8::', prefix: 32 },
        { type: 'ip', value: '::1' },
      ],
    }],
    ['http.host in {"a""b"}', { type: 'set', items: [{ type: 'bytes', value: 'a' }, { type: 'bytes', value: 'b' }] }],
    ['ip.src in $cf.open_proxies', { type: 'list', name: 'cf.open_proxies' }],
    ['http.host matches "login\\.php$"', { type: 'regex', pattern: 'login\\.php$' }],
    ['http.host matches "a\\"b[\\"]"', { type: 'regex', pattern: 'a"b[\\"]' }],
    ['http.host matches "[a-z\\"]+"', { type: 'regex', pattern: '[a-z\\"]+' }],
    ['http.host matches "[\\"]"', { type: 'regex', pattern: '[\\"]' }],
    ['http.host matches r"\\d+"', { type: 'regex', pattern: '\\d+' }],
    ['http.host wildcard "foo?*\\\\*\\\\\\\\"', { type: 'wildcard', value: 'foo?*\\*\\\\' }],
  ])('%s', (source, expected) => {
    expect(rhs(source)).toEqual(expected);
  });

  it('raw strings end at the first quote followed by enough hashes and consume exactly that many', () => {
    expect(rhs('http.host eq r##"a"#b"##')).toEqual({ type: 'bytes', value: 'a"#b' });
    // The third `#` is left over: unrecognised input.
    expect(parseError('http.host eq r##"a"###').errorKind).toBe('UnrecognisedInput');
    expect(rhs(`http.host eq r${'#'.repeat(255)}"x"${'#'.repeat(255)}`)).toEqual({ type: 'bytes', value: 'x' });
  });

  it('accepts the index forms of the real engine', () => {
    expect(shape(parse('http.request.headers.names[0x1] eq "a"'))).toBe('(eq http.request.headers.names[1])');
    expect(shape(parse('http.request.headers.names[ 2 ] eq "a"'))).toBe('(eq http.request.headers.names[2])');
    expect(shape(parse('http.request.headers["😍"][0] eq "a"'))).toBe('(eq http.request.headers[😍][0])');
  });
});

describe('lexical rules', () => {
  it('needs a word boundary after English keywords (zonewall choice 4)', () => {
    expect(parseError('notssl').errorKind).toBe('UnknownIdentifier');
    expect(parseError('ssl andssl').errorKind).toBe('UnrecognisedInput');
    expect(parseError('http.host containsx "a"').reason).toBe('expected ComparisonOp');
  });

  it('does not need spaces around symbols and before literals', () => {
    expect(shape(parse('http.host eq"x"'))).toBe('(eq http.host)');
    expect(shape(parse('cf.edge.server_port in{80}'))).toBe('(in cf.edge.server_port)');
    expect(shape(parse('ssl&&!cf.client.bot'))).toBe('(and ssl (not cf.client.bot))');
    expect(shape(parse('(ssl)or(ssl)'))).toBe('(or ssl ssl)');
  });

  it('treats space, CR and LF as whitespace but not TAB (except around the whole input)', () => {
    expect(shape(parse('ssl\r\nand\nssl'))).toBe('(and ssl ssl)');
    expect(parseError('ssl\tand ssl').errorKind).toBe('UnrecognisedInput');
    expect(shape(parse('\tssl\t'))).toBe('ssl');
  });

  it('allows no space before an index and exactly one inside "strict wildcard"', () => {
    expect(parseError('http.request.headers ["a"][0] eq "x"').reason).toBe('expected ComparisonOp');
    expect(parseError('http.host strict  wildcard "x"').reason).toBe('expected ComparisonOp');
  });

  it('accepts true/false only as the whole expression (zonewall choice 6)', () => {
    expect(parseError('true and ssl').errorKind).toBe('UnknownIdentifier');
    expect(parseError('(true)').errorKind).toBe('UnknownIdentifier');
    expect(parseError('ssl == true').errorKind).toBe('UnrecognisedInput');
  });
});

describe('function arguments (look-ahead heuristics of the real engine)', () => {
  it('a bare comparison argument does not extend over and/or; parentheses do', () => {
    expect(parseError('any(http.request.headers.names[*] == "a" and ssl)').reason).toBe('expected literal ")"');
    expect(shape(parse('any((http.request.headers.names[*] == "a" or http.request.headers.names[*] == "b"))')))
      .toBe('(any (or (eq http.request.headers.names[*]) (eq http.request.headers.names[*])))');
    expect(shape(parse('any(not http.request.headers.names[*] == "a")'))).toBe('(any (not (eq http.request.headers.names[*])))');
  });

  it('reads literal arguments as strings, IPs, integers or hex bytes', () => {
    expect(shape(parse('substring(http.host, 2, -1) eq "x"'))).toBe('(eq substring(http.host,2,-1))');
    expect(shape(parse('concat(http.host, r"x", "y") eq "x"'))).toBe('(eq concat(http.host,x,y))');
    expect(shape(parse('remove_bytes(http.host, 2e:77) eq "x"'))).toBe('(eq remove_bytes(http.host,.w))');
  });

  it('maps a function over [*] and compares each result', () => {
    expect(shape(parse('any(lower(http.request.headers.names[*])[*] eq "host")')))
      .toBe('(any (eq lower(http.request.headers.names[*])[*]))');
    expect(parseError('lower(http.request.headers.names[*]) eq "host"').reason)
      .toBe('cannot perform this operation on type Array<Bytes>');
  });

  it('allows all the functions of the firewall phase', () => {
    const sources = [
      'lower(http.host) eq "a"', 'upper(http.host) eq "A"', 'len(http.host) gt 3', 'len(http.request.headers.names) gt 3',
      'starts_with(http.host, "a")', 'ends_with(http.host, "a")', 'concat(http.host, "a") eq "b"',
      'concat(http.request.headers.names, http.request.headers.values)[0] eq "b"',
      'url_decode(http.request.uri.query) contains "<"', 'url_decode(http.request.uri.query, "r") contains "<"',
      'remove_bytes(http.host, "\\x2e\\x77") eq "a"', 'substring(http.host, 2, 5) eq "a"',
      'lookup_json_string(http.request.body.raw, "a", 0, "b") eq "x"', 'lookup_json_integer(http.request.body.raw, "n") eq 1',
      'decode_base64(http.request.headers["x"][0]) eq "a"', 'cidr(ip.src, 24, 64) eq 192.0.2.0', 'cidr6(ip.src, 64) eq 2001:db8::',
      'join(http.request.headers.names, ",") contains "a"',
      'is_timed_hmac_valid_v0("secret", http.request.uri, 100, http.request.timestamp.sec, 8)',
      'any(http.request.headers.names[*] eq "a")', 'all(http.request.headers.names[*] eq "a")',
    ];
    for (const source of sources) expect(() => parse(source), source).not.toThrow();
  });

  it('allows rewrite functions only in their phases', () => {
    const rewrite = [
      'to_string(ip.src.asnum) eq "1"', 'regex_replace(http.host, "^a(.)", "${1}") eq "b"',
      'wildcard_replace(http.host, "*.example.com", "${1}") eq "b"', 'remove_query_args(http.request.uri.query, "a") eq ""',
      'uuidv4(cf.random_seed) ne ""', 'encode_base64(http.host, "u") eq "a"', 'sha256(http.host) ne ""',
    ];
    for (const source of rewrite) {
      expect(() => parse(source, { phase: 'http_request_transform' }), source).not.toThrow();
      expect(parseError(source).hint, source).toMatch(/is not available in phase http_request_firewall_custom/);
    }
    expect(() => parse('split(http.host, ".", 2)[0] eq "a"', { phase: 'http_response_headers_transform' })).not.toThrow();
    expect(() => parse('http.response.code eq 404', { phase: 'http_response_headers_transform' })).not.toThrow();
    expect(parseError('http.response.code eq 404').errorKind).toBe('UnknownIdentifier');
  });
});

describe('spans', () => {
  it('records UTF-16 source ranges on nodes', () => {
    const source = '  ssl and http.host eq "é"';
    const expr = parse(source);
    if (expr.type !== 'logical') throw new Error('expected and');
    const cmp = expr.items[1] as ComparisonExpr;
    expect(source.slice(expr.span.start, expr.span.end)).toBe('ssl and http.host eq "é"');
    expect(source.slice(cmp.span.start, cmp.span.end)).toBe('http.host eq "é"');
    expect(source.slice(cmp.lhs.span.start, cmp.lhs.span.end)).toBe('http.host');
    expect(source.slice(cmp.rhs!.span.start, cmp.rhs!.span.end)).toBe('"é"');
  });
});

describe('deprecated field aliases', () => {
  it('accepts ip.geoip.* names', () => {
    expect(shape(parse('ip.geoip.country eq "GB"'))).toBe('(eq ip.geoip.country)');
  });
});
