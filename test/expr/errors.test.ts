import { describe, expect, it } from 'vitest';
import { ExpressionError, parse, type ExpressionErrorKind } from '../../src/expr/index.js';
import { ZonewallError as BaseError } from '../../src/errors.js';
import { parseError } from './helpers.js';

// [source, kind, reason, line, column, span length]: positions follow the real engine's spans
// (wirefilter `LexError` = kind + the slice where lexing failed; often "the rest of the input").
const TABLE: Array<[string, string, string, number, number, number]> = [
  ['xyz', 'UnknownIdentifier', 'unknown identifier', 1, 1, 3],
  ['ssl and\nnum == true or', 'UnknownIdentifier', 'unknown identifier', 2, 1, 3],
  ['ssl AND ssl', 'UnrecognisedInput', 'unrecognised input', 1, 4, 8],
  ['http.host in {', 'UnrecognisedInput', 'unrecognised input', 1, 15, 1],
  ['ssl == true', 'UnrecognisedInput', 'unrecognised input', 1, 4, 8],
  ['http.host', 'ExpectedName', 'expected ComparisonOp', 1, 10, 1],
  ['http.request.uri.path ends_with ".html"', 'ExpectedName', 'expected ComparisonOp', 1, 23, 17],
  ['"www.example.com" == http.host', 'ExpectedName', 'expected identifier character', 1, 1, 30],
  ['', 'ExpectedName', 'expected identifier character', 1, 1, 1],
  ['http.host wildcard 61:62', 'ExpectedName', 'expected " or r', 1, 20, 5],
  ['http.host == 01;02', 'ExpectedName', 'expected byte separator', 1, 16, 1],
  ['ip.src eq ', 'ExpectedName', 'expected IP address character', 1, 10, 1],
  ['ssl and (ssl', 'ExpectedLiteral', 'expected literal ")"', 1, 13, 1],
  ['http.host in "x"', 'ExpectedLiteral', 'expected literal "{"', 1, 14, 3],
  ['http.request.headers[\'content-type\'][0] eq "x"', 'ExpectedLiteral', 'expected literal "expected quoted utf8 string or positive integer"', 1, 22, 25],
  ['http.request.headers.names[-1] == "x"', 'ExpectedLiteral', 'expected literal "expected positive integer as index"', 1, 28, 10],
  ['http.host eq 1x', 'ParseInt', 'invalid digit found in string while parsing with radix 16', 1, 14, 2],
  ['cf.edge.server_port == 9223372036854775808', 'ParseInt', 'number too large to fit in target type while parsing with radix 10', 1, 24, 19],
  ['cf.edge.server_port == 08', 'ParseInt', 'invalid digit found in string while parsing with radix 8', 1, 24, 2],
  ['ip.src==34', 'TypeMismatch', 'expected value of type Ip, but got Int', 1, 9, 2],
  ['ip.src == 1.2.3.0/24', 'ParseNetwork', "couldn't parse address in network: invalid IP address syntax", 1, 11, 10],
  ['ip.src in {10.0.0.1/8}', 'ParseNetwork', 'host part of address was not zero', 1, 12, 8],
  ['ip.src in {10.0.0.0/33}', 'ParseNetwork', 'invalid length for network: Network length 33 is too long for Ipv4 (maximum: 32)', 1, 12, 11],
  ['http.host matches "(a"', 'ParseRegex', 'error parsing regexp: missing closing ): `(a`', 1, 20, 2],
  ['http.host matches "(a)\\1"', 'ParseRegex', 'error parsing regexp: invalid escape sequence: `\\1`', 1, 20, 5],
  ['http.host matches "(?=a)"', 'ParseRegex', 'error parsing regexp: invalid or unsupported Perl syntax: `(?=`', 1, 20, 5],
  ['http.host wildcard "a\\\\b"', 'ParseWildcard', 'invalid wildcard: wildcard syntax error at position 1: invalid escape sequence', 1, 20, 6],
  ['http.host wildcard "a**"', 'ParseWildcard', 'wildcard contains a double star', 1, 20, 5],
  ['http.host == "\\n"', 'InvalidCharacterEscape', 'expected ", xHH or OOO after \\', 1, 16, 1],
  ['http.host == "abc', 'MissingEndingQuote', 'could not find an ending quote', 1, 15, 3],
  [`http.host == r${'#'.repeat(256)}"a"`, 'InvalidRawStringHashCount', "invalid raw string hash count, there can't be more than 255 #s", 1, 15, 259],
  ['http.host == a', 'CountMismatch', 'expected 2 characters, but found 1', 1, 14, 1],
  // A literal of another type: zonewall's type error where the real engine fails lexing the expected one.
  ['http.host == 80', 'TypeMismatch', 'expected value of type Bytes, but got Int', 1, 14, 2],
  ['http.host < 12', 'TypeMismatch', 'expected value of type Bytes, but got Int', 1, 13, 2],
  ['ip.src contains "1"', 'UnsupportedOp', 'cannot perform this operation on type Ip', 1, 8, 8],
  ['ip.src < 1.2.3.4', 'UnsupportedOp', 'cannot perform this operation on type Ip', 1, 8, 1],
  ['http.request.headers.names[*] == "x"', 'TypeMismatch', 'expected value of type Bool, but got Array<Bool>', 1, 37, 1],
  ['ssl and http.request.headers.names[*] == "x"', 'TypeMismatch', 'expected value of type Bool, but got Array<Bool>', 1, 45, 1],
  ['any(ssl)', 'TypeMismatch', 'expected value of type Array<Bool>, but got Bool', 1, 5, 3],
  ['http.host[0] == "a"', 'InvalidIndexAccess', 'cannot access index ArrayIndex(0) for type Bytes', 1, 10, 3],
  ['http.host[*] == "a"', 'InvalidIndexAccess', 'cannot access index MapEach for type Bytes', 1, 10, 3],
  ['len(http.host, http.host) == 1', 'InvalidArgumentsCount', 'invalid number of arguments', 1, 16, 15],
  ['len() == 1', 'InvalidArgumentsCount', 'invalid number of arguments', 1, 5, 6],
  ['lower("x") == "x"', 'InvalidArgumentKind', 'invalid kind of argument #0: expected argument of kind Field, but got Literal', 1, 7, 3],
  ['concat(0, 0) == 0', 'InvalidArgumentType', 'invalid type of argument #0: expected value of type Bytes or Array<_>, but got Int', 1, 8, 1],
  ['lower(ip.src) == "x"', 'InvalidArgumentType', 'invalid type of argument #0: expected value of type Bytes, but got Ip', 1, 7, 6],
  ['cidr(ip.src, 33, 64) == 1.2.3.4', 'InvalidArgumentValue', 'invalid value of argument #1: invalid argument: "value must be between 1 and 32"', 1, 14, 2],
  ['concat(http.host, http.request.headers.names[*]) == "x"', 'InvalidMapEachAccess', 'invalid use of map each access operator', 1, 19, 29],
  ['ip.src in $Office', 'InvalidListName', 'invalid list name "O"', 1, 12, 1],
  ['ip.src in {10.0.0.0..::1}', 'IncompatibleRangeBounds', 'incompatible range bounds', 1, 12, 13],
  ['cf.edge.server_port in {5..1}', 'IncompatibleRangeBounds', 'incompatible range bounds', 1, 25, 4],
  [`${'('.repeat(130)}ssl${')'.repeat(130)}`, 'NestingLimitExceeded', 'maximum nesting depth exceeded (limit: 128)', 1, 129, 135],
];

describe('error kinds with their positions', () => {
  it('covers every error kind', () => {
    const all: ExpressionErrorKind[] = [
      'UnknownIdentifier', 'UnrecognisedInput', 'ExpectedName', 'ExpectedLiteral', 'ParseInt', 'ParseNetwork', 'ParseRegex',
      'ParseWildcard', 'InvalidCharacterEscape', 'MissingEndingQuote', 'InvalidRawStringHashCount', 'CountMismatch',
      'UnsupportedOp', 'TypeMismatch', 'InvalidIndexAccess', 'InvalidArgumentsCount', 'InvalidArgumentKind',
      'InvalidArgumentType', 'InvalidArgumentValue', 'InvalidMapEachAccess', 'InvalidListName', 'IncompatibleRangeBounds',
      'NestingLimitExceeded', 'ExpressionTooLong',
    ];
    const covered = new Set([...TABLE.map((row) => row[1]), 'ExpressionTooLong']);
    expect([...covered].sort()).toEqual([...all].sort());
  });

  it.each(TABLE.map((row) => [row[0].slice(0, 60), ...row] as const))('%s', (_name, source, kind, reason, line, column, length) => {
    const err = parseError(source);
    expect({ kind: err.errorKind, reason: err.reason, line: err.line, column: err.column, length: err.length })
      .toEqual({ kind, reason, line, column, length });
  });
});

describe('ExpressionError', () => {
  it('is a ZonewallError with code ERR_EXPRESSION and user kind', () => {
    const err = parseError('xyz');
    expect(err).toBeInstanceOf(ExpressionError);
    expect(err).toBeInstanceOf(BaseError);
    expect(err.code).toBe('ERR_EXPRESSION');
    expect(err.kind).toBe('user');
  });

  it('renders like the real engine, caret run under the span', () => {
    const err = parseError('ip.src in {10.0.0.1/8}');
    expect(err.message).toBe('Filter parsing error (1:12):\nip.src in {10.0.0.1/8}\n           ^^^^^^^^ host part of address was not zero');
    expect(err.snippet).toBe('ip.src in {10.0.0.1/8}\n           ^^^^^^^^');
    expect(err.offset).toBe(11);
  });

  it('clips the caret run to the offending line and counts lines from 1', () => {
    const err = parseError('ssl\nand http.host eq "a" AND\nssl');
    expect(err.line).toBe(2);
    expect(err.column).toBe(21);
    expect(err.snippet).toBe('and http.host eq "a" AND\n                    ^^^^');
    expect(err.offset).toBe(24);
  });

  it('suggests the closest field for an unknown one', () => {
    expect(parseError('http.request.path eq "/"').hint).toBe('did you mean "http.request.uri.path"?');
    expect(parseError('http.hots eq "a"').message).toMatch(/\ndid you mean "http.host"\?$/);
    expect(parseError('lowr(http.host) eq "a"').hint).toBe('did you mean "lower"?');
    expect(parseError('zzzzzzzzzz').hint).toBeUndefined();
  });

  it('says when a field exists but not in the phase', () => {
    const err = parseError('http.response.code eq 200');
    expect(err.errorKind).toBe('UnknownIdentifier');
    expect(err.hint).toBe('field http.response.code is not available in phase http_request_firewall_custom');
  });
});

describe('limits', () => {
  it('refuses expressions over 4,096 characters, pointing at the first character over', () => {
    const long = `http.host eq "${'a'.repeat(4100)}"`;
    const err = parseError(long);
    expect(err.errorKind).toBe('ExpressionTooLong');
    expect(err.offset).toBe(4096);
    expect(err.reason).toMatch(/longer than 4096 characters/);
  });

  it('counts characters, not UTF-16 units, and honours maxLength', () => {
    const fits = `http.host eq "${'😀'.repeat(4000)}"`;
    expect(fits.length).toBeGreaterThan(4096);
    expect(() => parse(fits)).not.toThrow();
    expect(parseError(`http.host eq "${'😀'.repeat(4100)}"`).errorKind).toBe('ExpressionTooLong');
    expect(parseError('ssl and ssl', { maxLength: 5 }).errorKind).toBe('ExpressionTooLong');
  });

  it('turns deep nesting into an error, not a stack overflow', () => {
    for (const source of ['('.repeat(4000), 'not '.repeat(1000) + 'ssl', '!'.repeat(4000) + 'ssl', 'lower('.repeat(600)]) {
      expect(parseError(source).errorKind).toBe('NestingLimitExceeded');
    }
    expect(() => parseError(`${'('.repeat(128)}ssl${')'.repeat(128)}`)).toThrow(/expected .* to fail/);
  });

  it('refuses regexes over the compiled size limit', () => {
    const err = parseError('http.host matches "(?:(?:[a-z]{1,1000}){1,100}){1,10}"');
    expect(err.errorKind).toBe('ParseRegex');
  });
});

describe('non-string input', () => {
  it('is an ExpressionError too', () => {
    expect(() => parse(42 as unknown as string)).toThrow(ExpressionError);
  });
});

describe('a right-hand side of another type is a type error naming both types', () => {
  it.each([
    ['http.request.uri.path gt 5', 'expected value of type Bytes, but got Int', 'http.request.uri.path is of type Bytes: write the value as a quoted string, e.g. "5"', 26, 1],
    ['http.request.uri.path eq 500', 'expected value of type Bytes, but got Int', 'http.request.uri.path is of type Bytes: write the value as a quoted string, e.g. "500"', 26, 3],
    ['http.host contains 5', 'expected value of type Bytes, but got Int', 'http.host is of type Bytes: write the value as a quoted string, e.g. "5"', 20, 1],
    ['lower(http.host) eq 5', 'expected value of type Bytes, but got Int', 'lower(http.host) is of type Bytes: write the value as a quoted string, e.g. "5"', 21, 1],
    ['http.host eq 192.0.2.1', 'expected value of type Bytes, but got Ip', 'http.host is of type Bytes: write the value as a quoted string, e.g. "192.0.2.1"', 14, 9],
    ['http.host matches 5', 'expected value of type Bytes (a quoted pattern), but got Int', 'http.host is of type Bytes: write the pattern as a quoted string, e.g. "5"', 19, 1],
    ['http.host wildcard 5', 'expected value of type Bytes (a quoted pattern), but got Int', 'http.host is of type Bytes: write the pattern as a quoted string, e.g. "5"', 20, 1],
    ['http.host in {"a" 2}', 'expected value of type Bytes, but got Int', 'http.host is of type Bytes: write the value as a quoted string, e.g. "2"', 19, 1],
    ['cf.edge.server_port gt "80"', 'expected value of type Int, but got Bytes', 'cf.edge.server_port is of type Int: write the integer without quotes: 80', 24, 4],
    ['cf.edge.server_port bitwise_and "x"', 'expected value of type Int, but got Bytes', 'cf.edge.server_port is of type Int: write an integer, e.g. 443', 33, 3],
    ['cf.edge.server_port in {80 "443"}', 'expected value of type Int, but got Bytes', 'cf.edge.server_port is of type Int: write the integer without quotes: 443', 28, 5],
    ['len(http.host) eq "x"', 'expected value of type Int, but got Bytes', 'len(http.host) is of type Int: write an integer, e.g. 443', 19, 3],
    ['ip.src eq "192.0.2.1"', 'expected value of type Ip, but got Bytes', 'ip.src is of type Ip: write the address without quotes: 192.0.2.1', 11, 11],
    ['ip.src in {192.0.2.1 80}', 'expected value of type Ip, but got Int', 'ip.src is of type Ip: write an IP address, e.g. 192.0.2.1', 22, 2],
  ])('%s', (source, reason, hint, column, length) => {
    const err = parseError(source);
    expect({ kind: err.errorKind, reason: err.reason, hint: err.hint, column: err.column, length: err.length })
      .toEqual({ kind: 'TypeMismatch', reason, hint, column, length });
  });

  it.each([
    ['ip.src contains "1"', 'ip.src is of type Ip, which takes eq, ne, in'],
    ['cf.edge.server_port matches "a"', 'cf.edge.server_port is of type Int, which takes eq, ne, lt, le, gt, ge, in, bitwise_and'],
    ['http.request.headers.names eq "x"', 'http.request.headers.names is of type Array<Bytes>: compare its items with any(http.request.headers.names[*] ...) or all(...), or one item by index (http.request.headers.names[0])'],
    ['http.request.headers eq "x"', 'http.request.headers is of type Map<Array<Bytes>>: compare one entry by key first (http.request.headers["key"])'],
    ['ssl eq 1', 'ssl is of type Bool: write it alone (ssl, not ssl), without an operator'],
    ['ip.src eq 10.0.0.0/24', 'a network or range is a set item: write ip.src in {10.0.0.0/24}'],
    ['ip.src ne 10.0.0.1..10.0.0.9', 'a network or range is a set item: write not ip.src in {10.0.0.1..10.0.0.9}'],
    ['cf.threat_score eq 1.5', 'cf.threat_score is of type Int: it takes whole numbers only'],
  ])('%s: the hint names the type and what it takes', (source, hint) => {
    expect(parseError(source).hint).toBe(hint);
  });
});
