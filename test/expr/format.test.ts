import { describe, expect, it } from 'vitest';
import { canonicalize, equalExpressions, format, parse } from '../../src/expr/index.js';

describe('canonical form', () => {
  it.each([
    ['http.host == "x"', 'http.host eq "x"'],
    ['  http.host   eq\n"x"  ', 'http.host eq "x"'],
    ['ssl && (cf.client.bot || ssl)', 'ssl and (cf.client.bot or ssl)'],
    ['(ssl and ssl) or ssl', 'ssl and ssl or ssl'],
    ['ssl xor (cf.client.bot and ssl)', 'ssl xor cf.client.bot and ssl'],
    ['(ssl or ssl) xor ssl', '(ssl or ssl) xor ssl'],
    ['ssl or (ssl or (ssl or ssl))', 'ssl or ssl or ssl or ssl'],
    ['not (ssl)', 'not ssl'],
    ['!(ssl || ssl)', 'not (ssl or ssl)'],
    ['!!ssl', 'not not ssl'],
    ['http.host eq "\\x41\\102"', 'http.host eq "AB"'],
    ['http.host eq r"a\\b"', 'http.host eq "a\\\\b"'],
    ['http.host eq "\\x80\\xff"', 'http.host eq "\\x80\\xff"'],
    ['http.host eq "\\xc3\\xa9"', 'http.host eq "é"'],
    ['http.host eq "tab\\x09nl\n"', 'http.host eq "tab\\x09nl\\x0a"'],
    ['http.host eq 6F:72:67', 'http.host eq "org"'],
    ['http.host eq r#"say "hi""#', 'http.host eq "say \\"hi\\""'],
    ['cf.edge.server_port == 0x1bb', 'cf.edge.server_port eq 443'],
    ['cf.edge.server_port == 0673', 'cf.edge.server_port eq 443'],
    ['ip.src == 2001:DB8:0:0::0:1', 'ip.src eq 2001:db8::1'],
    ['ip.src in { 10.0.0.0/8   192.0.2.1..192.0.2.9 }', 'ip.src in {10.0.0.0/8 192.0.2.1..192.0.2.9}'],
    ['cf.edge.server_port in{ 80 443 1000..2000 }', 'cf.edge.server_port in {80 443 1000..2000}'],
    ['http.host in {}', 'http.host in {}'],
    ['ip.src in $cf.open_proxies', 'ip.src in $cf.open_proxies'],
    ['http.host ~ r"\\d+\\.example"', 'http.host matches "\\d+\\.example"'],
    ['http.host ~ r#"a"b"#', 'http.host matches "a\\"b"'],
    ['http.host ~ r#"[""]"#', 'http.host matches "[""]"'],
    ['http.host ~ r#"a\\"b"#', 'http.host matches r#"a\\"b"#'],
    ['http.host matches "[\\"]"', 'http.host matches "[\\"]"'],
    ['http.host wildcard r"*.example.com\\*"', 'http.host wildcard "*.example.com\\\\*"'],
    ['http.host strict wildcard "*"', 'http.host strict wildcard "*"'],
    ['any( http.request.headers.names[ * ] == "a" )', 'any(http.request.headers.names[*] eq "a")'],
    ['any((http.request.headers.names[*] == "a" || http.request.headers.names[*] == "b"))',
      'any((http.request.headers.names[*] eq "a" or http.request.headers.names[*] eq "b"))'],
    ['lower( http.host )=="x"', 'lower(http.host) eq "x"'],
    ['concat(http.host,"a",r"b")=="x"', 'concat(http.host, "a", "b") eq "x"'],
    ['http.request.headers[ "X" ][0x0]=="x"', 'http.request.headers["X"][0] eq "x"'],
    ['cf.edge.server_port & 0x10', 'cf.edge.server_port bitwise_and 16'],
    [' true ', 'true'],
  ])('%s', (source, canonical) => {
    expect(canonicalize(source)).toBe(canonical);
    // Stable: the canonical form is its own canonical form and parses to the same tree.
    expect(canonicalize(canonical)).toBe(canonical);
    expect(equalExpressions(parse(canonical), parse(source))).toBe(true);
  });

  it('gives different spellings of one meaning the same text', () => {
    const variants = ['http.host == "x" && !ssl', 'http.host eq "x" and not ssl', '(http.host eq "x")and(not(ssl))', 'http.host eq r"x" and not ssl'];
    const forms = new Set(variants.map((v) => canonicalize(v)));
    expect([...forms]).toEqual(['http.host eq "x" and not ssl']);
  });

  it('keeps different meanings apart', () => {
    expect(canonicalize('ssl and (cf.client.bot or ssl)')).not.toBe(canonicalize('ssl and cf.client.bot or ssl'));
    expect(canonicalize('http.host eq "X"')).not.toBe(canonicalize('http.host eq "x"'));
  });

  it('is what format prints for a parsed tree', () => {
    expect(format(parse('ssl'))).toBe('ssl');
  });
});
