import { describe, expect, it } from 'vitest';
import { inspect, parse } from '../../src/expr/index.js';

describe('inspect', () => {
  it('lists fields, functions and canonical operators', () => {
    const used = inspect(parse('(http.request.uri.path ~ "^/api/" && !ssl) or any(lower(http.request.headers.names[*])[*] == "x") xor ip.geoip.country in {"GB"}'));
    expect([...used.fields].sort()).toEqual(['http.request.headers.names', 'http.request.uri.path', 'ip.geoip.country', 'ssl']);
    expect([...used.functions].sort()).toEqual(['any', 'lower']);
    expect([...used.operators].sort()).toEqual(['and', 'eq', 'in', 'matches', 'not', 'or', 'xor']);
  });

  it('finds matches inside function arguments too (plan entitlements)', () => {
    expect(inspect(parse('any((http.request.headers.names[*] matches "a" or http.request.headers.names[*] eq "b"))')).operators.has('matches')).toBe(true);
    expect(inspect(parse('http.host contains "a"')).operators.has('matches')).toBe(false);
  });
});
