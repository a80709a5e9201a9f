import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatIp, parseIpv4 } from '../../src/expr/ip.js';

/** The regular-expression reading parseIpv4 replaced (digit by digit, for cold starts): the oracle. */
function parseIpv4ByRegex(text: string): number | undefined {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!m) return undefined;
  let n = 0;
  for (let i = 1; i <= 4; i++) {
    const part = m[i]!;
    if (part.length > 1 && part[0] === '0') return undefined;
    const v = Number(part);
    if (v > 255) return undefined;
    n = n * 256 + v;
  }
  return n;
}

describe('parseIpv4', () => {
  it.each([
    ['0.0.0.0', 0], ['192.0.2.1', 0xc0000201], ['255.255.255.255', 0xffffffff],
    ['256.0.0.1', undefined], ['01.2.3.4', undefined], ['1.2.3', undefined], ['1.2.3.4.', undefined],
    ['1.2.3.4 ', undefined], ['1..3.4', undefined], ['1.2.3.1000', undefined], ['', undefined], ['1.2.3.４', undefined],
  ])('%j', (text, expected) => {
    expect(parseIpv4(text)).toBe(expected);
    expect(parseIpv4ByRegex(text)).toBe(expected);
  });

  it('agrees with the regular-expression reading on any text of digits and dots', () => {
    const unit = fc.constantFrom('0', '1', '2', '5', '9', '.', '.', 'a', ' ', '\n', '٣');
    fc.assert(fc.property(fc.string({ unit, maxLength: 17 }), (text) => {
      expect(parseIpv4(text)).toBe(parseIpv4ByRegex(text));
    }), { numRuns: 20_000 });
    fc.assert(fc.property(fc.ipV4(), (text) => {
      expect(parseIpv4(text)).toBe(parseIpv4ByRegex(text));
    }));
  });
});

describe('formatIp', () => {
  it('prints IPv4 as the dotted quad', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (n) => {
      expect(formatIp(n)).toBe([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255].join('.'));
    }));
  });
});
