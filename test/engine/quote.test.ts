/** `quote`: a request's value in a one-line message, bounded however deep or long the value is. */
import { describe, expect, it } from 'vitest';
import { quote } from '../../src/engine/body-reader.js';

describe('quote', () => {
  it('quotes a short value as its JSON text, as messages always did', () => {
    expect(quote('waf')).toBe('"waf"');
    expect(quote(42)).toBe('42');
    expect(quote(null)).toBe('null');
    expect(quote({ a: [1, 'b'] })).toBe('{"a":[1,"b"]}');
    expect(quote(undefined)).toBe('undefined');
  });

  it('names a long value by its type and length instead of copying it into the message', () => {
    expect(quote('x'.repeat(300))).toBe('string of 302 characters of JSON');
    expect(quote(Array.from({ length: 100 }, (_, i) => i))).toBe('array of 291 characters of JSON');
  });

  it('names a value nested too deep to serialise (JSON.stringify overflows the stack) by its type', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(quote(deep)).toBe('a deeply nested array');
  });
});
