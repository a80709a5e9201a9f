import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clearRegexCache, compileRegex } from '../../src/expr/regex.js';
import { isPlainRegex } from '../../src/expr/regex-plain.js';
import { parse } from '../../src/expr/index.js';

const compiles = (p: string): boolean => {
  try {
    compileRegex(p);
    return true;
  } catch {
    return false;
  }
};

describe('isPlainRegex: the parser skips compiling only patterns the compiler certainly accepts', () => {
  it('accepts the patterns rules write', () => {
    for (const p of ['(?i)scanner-1/[0-9]+', '^/api/v[12]/.*\\.php$', '(?i)(sqlmap|nikto|curl)', 'a+?b*?c??', '\\d{0}'.slice(0, 2), '[a-zA-Z0-9_.]+', '(?:x|y)', '[\\-\\]a]', '[a-]', '(?is)^\\s*\\w+\\b'])
      expect(isPlainRegex(p), p).toBe(true);
  });

  it('leaves everything else to the compiler, valid or not', () => {
    for (const p of ['a**', '*a', '^*', '(?i)*', 'a{2,3}', '[z-a]', '[]a]', '[-a]', '(?P<n>a)', '(?u)x', '(?ii)a', 'é', '\\p{Greek}', '\\x41', '(a', 'a)', '[a', '\\', '[[:alpha:]]', '\\z', '(?=a)'])
      expect(isPlainRegex(p), p).toBe(false);
  });

  it('never accepts a pattern the compiler refuses (property)', () => {
    const unit = fc.constantFrom('a', 'Z', '0', '9', '-', '/', '.', '*', '+', '?', '|', '(', ')', '[', ']', '^', '$', '\\', 'd', 'b', 'w', 's', ':', '{', '}', ',', 'i', ' ', '[a-z]', '[^0-9]', '(?:', '\\.', '+?', '[a-]', '[\\d_]');
    fc.assert(
      fc.property(fc.boolean(), fc.string({ unit, maxLength: 14 }), (flag, body) => {
        const p = (flag ? '(?i)' : '') + body;
        if (isPlainRegex(p)) {
          clearRegexCache();
          expect(compiles(p), p).toBe(true);
        }
      }),
      { numRuns: 4000 },
    );
  });

  it('a pattern outside the subset still gets the compiler\'s error at its position', () => {
    expect(() => parse('http.user_agent matches "a**"')).toThrow(/repetition|\*\*/);
    expect(() => parse('http.user_agent matches "[z-a]"')).toThrow(/range/i);
    expect(() => parse('http.user_agent matches "(?i)bot[0-9]+"')).not.toThrow();
  });
});
