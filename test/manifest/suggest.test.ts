import { describe, expect, it } from 'vitest';
import { closest } from '../../src/manifest/suggest.js';

describe('closest (did you mean)', () => {
  it('counts a swap of two adjacent letters as one edit', () => {
    expect(closest('owsap', ['managed', 'owasp', 'free', 'exposed_credentials'])).toBe('owasp');
    expect(closest('ratelimit', ['ratelimit', 'ratlimite'])).toBe('ratelimit');
    expect(closest('descirption', ['description', 'expression'])).toBe('description');
  });

  it('still finds insertions, deletions and substitutions, case aside', () => {
    expect(closest('blok', ['block', 'log'])).toBe('block');
    expect(closest('Expresion', ['expression', 'action'])).toBe('expression');
  });

  it('suggests nothing for a different word', () => {
    expect(closest('allow', ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log'])).toBeUndefined();
    expect(closest('sowap', ['owasp'])).toBeUndefined();
  });
});
