/**
 * The fast reader's process-wide cache of keys (src/manifest/key-cache.ts): whatever is in a slot,
 * and whatever hash the caller passes, the key returned is the text asked for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cachedKey, hashStep } from '../../src/manifest/key-cache.js';

function hashOf(text: string, at: number, stop: number): number {
  let hash = 0;
  for (let i = at; i < stop; i++) hash = hashStep(hash, text.charCodeAt(i));
  return hash;
}

describe('cachedKey', () => {
  it('returns the text at the range, with its own hash or a colliding one', () => {
    const text = fc.string({ unit: fc.constantFrom(...'ab01_.-/:'), minLength: 1, maxLength: 40 });
    fc.assert(fc.property(fc.array(fc.tuple(text, fc.nat(), fc.nat(), fc.boolean()), { minLength: 1, maxLength: 30 }), (cases) => {
      for (const [t, x, y, collide] of cases) {
        const at = x % t.length;
        const stop = at + 1 + (y % (t.length - at));
        // A constant hash puts every key in one slot: each must still come back as its own text.
        const hash = collide ? 7 : hashOf(t, at, stop);
        expect(cachedKey(t, at, stop, hash)).toBe(t.slice(at, stop));
      }
    }), { numRuns: 2000 });
  });

  it('gives back the cached string for the same text in another manifest', () => {
    const first = cachedKey('  f17:\n', 2, 5, hashOf('  f17:\n', 2, 5));
    const again = cachedKey('x:\n  f17: 1\n', 5, 8, hashOf('x:\n  f17: 1\n', 5, 8));
    expect(again).toBe('f17');
    expect(again).toBe(first);
  });
});
