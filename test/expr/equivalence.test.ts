/**
 * The equivalence key: expressions that differ only in how a set literal is written share a key,
 * and only those that evaluate identically do (checked by evaluating both on sample requests).
 */
import { describe, expect, it } from 'vitest';
import { canonicalForms, compile, parse } from '../../src/expr/index.js';

const key = (s: string) => canonicalForms(s).key;

/** Requests over the values the sets below talk about. */
const samples = [
  ...['10.0.0.0', '10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.255', '10.0.1.0', '192.0.2.1', '2001:db8::', '2001:db8::1', '2001:db8::2', '::ffff:10.0.0.1']
    .map((ip) => ({ 'ip.src': ip })),
  ...[79, 80, 81, 443, 444, 8080].map((port) => ({ 'cf.edge.server_port': port })),
  ...['a', 'b', 'A', 'c'].map((host) => ({ 'http.host': host })),
];

function sameVerdicts(a: string, b: string): boolean {
  const fa = compile(parse(a));
  const fb = compile(parse(b));
  // A field a request leaves out is missing: never in a set, the same on both sides.
  return samples.every((r) => fa(r) === fb(r));
}

describe('equivalence key', () => {
  it.each([
    ['ip.src in {10.0.0.1 10.0.0.2}', 'ip.src in {10.0.0.2 10.0.0.1}'],
    ['ip.src in {10.0.0.1 10.0.0.2}', 'ip.src in {10.0.0.2 10.0.0.1 10.0.0.2 10.0.0.1}'],
    ['ip.src in {10.0.0.0/31}', 'ip.src in {10.0.0.1 10.0.0.0}'],
    ['ip.src in {10.0.0.0..10.0.0.3}', 'ip.src in {10.0.0.2/31 10.0.0.0/31}'],
    ['ip.src in {10.0.0.1/32}', 'ip.src in {10.0.0.1}'],
    ['ip.src in {2001:db8::/127 10.0.0.1}', 'ip.src in {10.0.0.1 2001:db8:0::1 2001:db8::0}'],
    ['cf.edge.server_port in {80 443}', 'cf.edge.server_port in {443 80 443}'],
    ['cf.edge.server_port in {80..81 79}', 'cf.edge.server_port in {79..81}'],
    ['http.host in {"a" "b"}', 'http.host in {"b" "a" "a"}'],
    ['not ip.src in {10.0.0.1 10.0.0.2} and http.host in {"b" "a"}', 'not ip.src in {10.0.0.2 10.0.0.1} and http.host in {"a" "b"}'],
    ['any(http.request.headers.names[*] in {"x" "a"})', 'any(http.request.headers.names[*] in {"a" "x"})'],
  ])('%s and %s share a key and verdicts', (a, b) => {
    expect(key(a)).toBe(key(b));
    expect(sameVerdicts(a, b)).toBe(true);
  });

  it.each([
    ['ip.src in {10.0.0.1}', 'ip.src in {::ffff:10.0.0.1}'], // no IPv4-mapped conversion
    ['ip.src in {10.0.0.0/31}', 'ip.src in {10.0.0.0/30}'],
    ['http.host in {"a"}', 'http.host in {"A"}'], // `in` on strings is case-sensitive
    ['cf.edge.server_port in {80 443}', 'cf.edge.server_port in {80 444}'],
    ['http.host in {"a" "b"}', 'http.host in {"a"}'],
    ['ip.src in {10.0.0.1} and http.host in {"a"}', 'http.host in {"a"} and ip.src in {10.0.0.1}'], // operand order is not a set
  ])('%s and %s keep apart', (a, b) => {
    expect(key(a)).not.toBe(key(b));
  });

  it('keeps the canonical text as written: only the key normalises', () => {
    expect(canonicalForms('ip.src in {10.0.0.2 10.0.0.1}')).toEqual({ canonical: 'ip.src in {10.0.0.2 10.0.0.1}', key: 'ip.src in {10.0.0.1..10.0.0.2}' });
    expect(canonicalForms('http.host eq "{x}"')).toEqual({ canonical: 'http.host eq "{x}"', key: 'http.host eq "{x}"' });
  });
});
