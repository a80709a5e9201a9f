import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { compile, parse, type Phase, type RequestFields } from '../../src/expr/index.js';

const run = (source: string, request: RequestFields, phase?: Phase): boolean => compile(parse(source, { phase }))(request);
const T: Phase = 'http_request_transform';

describe('functions', () => {
  const req: RequestFields = {
    'http.host': 'WWW.Example.com',
    'http.request.uri.path': '/a%2Fb+c%252F',
    'http.request.uri.query': 'a=1&utm_source=x&b=2&utm_source=y',
    'http.request.headers.names': ['Host', 'Accept'],
    'http.request.headers': { 'x-b64': ['aGVsbG8='], 'x-json': ['{"a":[{"b":"c"}],"n":7,"f":1.5}'] },
    'ip.src': '203.0.113.77',
    'cf.edge.server_ip': '2001:db8:1234:5678::1',
    'ip.src.asnum': 13335,
    ssl: true,
    'cf.random_seed': Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex'),
  };
  it.each<[string, Phase | undefined]>([
    ['lower(http.host) eq "www.example.com"', undefined],
    ['upper(http.host) eq "WWW.EXAMPLE.COM"', undefined],
    ['len(http.host) eq 15', undefined],
    ['len(http.request.headers.names) eq 2', undefined],
    ['starts_with(http.host, "WWW.")', undefined],
    ['not starts_with(http.host, "www.")', undefined],
    ['ends_with(http.host, ".com")', undefined],
    ['concat(http.host, "/", "x") eq "WWW.Example.com/x"', undefined],
    ['concat(http.request.headers.names, http.request.headers.names)[3] eq "Accept"', undefined],
    ['url_decode(http.request.uri.path) eq "/a/b c%2F"', undefined],
    ['url_decode(http.request.uri.path, "r") eq "/a/b c/"', undefined],
    ['remove_bytes(http.host, "\\x2e\\x57") eq "Examplecom"', undefined],
    ['substring(http.host, 4) eq "Example.com"', undefined],
    ['substring(http.host, 4, 11) eq "Example"', undefined],
    ['substring(http.host, -3) eq "com"', undefined],
    ['substring(http.host, 0, -4) eq "WWW.Example"', undefined],
    ['substring(http.host, 10, 2) eq ""', undefined],
    ['lookup_json_string(http.request.headers["x-json"][0], "a", 0, "b") eq "c"', undefined],
    ['lookup_json_integer(http.request.headers["x-json"][0], "n") eq 7', undefined],
    ['not lookup_json_integer(http.request.headers["x-json"][0], "f") eq 1', undefined],
    ['decode_base64(http.request.headers["x-b64"][0]) eq "hello"', undefined],
    ['cidr(ip.src, 24, 48) eq 203.0.113.0', undefined],
    ['cidr(cf.edge.server_ip, 24, 48) eq 2001:db8:1234::', undefined],
    ['cidr6(cf.edge.server_ip, 32) eq 2001:db8::', undefined],
    ['cidr6(ip.src, 32) eq 203.0.113.77', undefined],
    ['join(http.request.headers.names, ", ") eq "Host, Accept"', undefined],
    ['any(http.request.headers.names[*] eq "Accept")', undefined],
    ['all(http.request.headers.names[*] ne "Cookie")', undefined],
    ['encode_base64(http.host) eq "V1dXLkV4YW1wbGUuY29t"', T],
    ['encode_base64("a?>", "up") eq "YT8-"', T],
    ['encode_base64("a?>") eq "YT8+"', T],
    ['sha256("abc") eq "\\xba\\x78\\x16\\xbf\\x8f\\x01\\xcf\\xea\\x41\\x41\\x40\\xde\\x5d\\xae\\x22\\x23\\xb0\\x03\\x61\\xa3\\x96\\x17\\x7a\\x9c\\xb4\\x10\\xff\\x61\\xf2\\x00\\x15\\xad"', T],
    ['to_string(ip.src.asnum) eq "13335"', T],
    ['to_string(ssl) eq "true"', T],
    ['to_string(cf.edge.server_ip) eq "2001:db8:1234:5678::1"', T],
    ['regex_replace(http.host, "^([A-Z]+)\\\\.(.*)$", "${2}-${1}$$") eq "Example.com-WWW$"', T],
    ['regex_replace(http.host, "nomatch", "x") eq "WWW.Example.com"', T],
    ['wildcard_replace(http.host, "*.example.*", "${2}/${1}") eq "com/WWW"', T],
    ['wildcard_replace(http.host, "*.example.*", "${2}/${1}", "s") eq "WWW.Example.com"', T],
    ['remove_query_args(http.request.uri.query, "utm_source") eq "a=1&b=2"', T],
    ['uuidv4(cf.random_seed) eq "00010203-0405-4607-8809-0a0b0c0d0e0f"', T],
  ])('%s', (source, phase) => {
    expect(run(source, req, phase)).toBe(true);
  });

  it('split (response header transform)', () => {
    const r: RequestFields = { 'http.host': 'a.b.c.d' };
    const phase: Phase = 'http_response_headers_transform';
    expect(run('split(http.host, ".", 2)[1] eq "b.c.d"', r, phase)).toBe(true);
    expect(run('len(split(http.host, ".", 128)) eq 4', r, phase)).toBe(true);
  });

  it('is_timed_hmac_valid_v0 validates a signed, fresh token', () => {
    const key = 'mysecrettoken';
    const message = '/download/cat.jpg';
    const ts = 1484063787;
    const mac = createHmac('sha256', key).update(`${message}${ts}`).digest('base64');
    const token = `${message}?verify=${ts}-${encodeURIComponent(mac)}`;
    const expr = `is_timed_hmac_valid_v0("${key}", http.request.uri, 10800, http.request.timestamp.sec, 8)`;
    expect(run(expr, { 'http.request.uri': token, 'http.request.timestamp.sec': ts + 60 })).toBe(true);
    expect(run(expr, { 'http.request.uri': token, 'http.request.timestamp.sec': ts + 20000 })).toBe(false);
    expect(run(expr.replace(key, 'other'), { 'http.request.uri': token, 'http.request.timestamp.sec': ts + 60 })).toBe(false);
    expect(run(expr, { 'http.request.uri': `${message}?verify=${ts}-AAAA`, 'http.request.timestamp.sec': ts })).toBe(false);
  });

  it('gives missing results for missing sources, except concat which skips them', () => {
    expect(run('lower(http.host) eq ""', {})).toBe(false);
    expect(run('not lower(http.host) eq ""', {})).toBe(true);
    expect(run('concat(http.host, "x") eq "x"', {})).toBe(true);
    expect(run('lookup_json_string(http.host, "a") eq ""', { 'http.host': 'not json' })).toBe(false);
    expect(run('decode_base64(http.host) eq ""', { 'http.host': '%%%' })).toBe(false);
  });

  it('checks literal arguments when the expression is parsed', () => {
    expect(() => parse('url_decode(http.host, "x") eq ""')).toThrow(/invalid value of argument #1/);
    expect(() => parse('split(http.host, "", 2)[0] eq ""', { phase: 'http_response_headers_transform' })).toThrow(/separator must not be empty/);
    expect(() => parse('regex_replace(http.host, "(", "") eq ""', { phase: T })).toThrow(/invalid value of argument #1/);
    expect(() => parse('wildcard_replace(http.host, "a**", "") eq ""', { phase: T })).toThrow(/double star/);
    expect(() => parse('remove_query_args(http.request.uri.path, "a") eq ""', { phase: T })).toThrow(/must be http.request.uri.query/);
    expect(() => parse('cidr6(ip.src, 0) eq ::')).toThrow(/between 1 and 128/);
  });
});
