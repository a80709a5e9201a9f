import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { resolvePlain } from '../../src/manifest/fast-scalars.js';

describe('resolvePlain', () => {
  // The letter shortcut (`f12` is a string without trying every core tag) against `yaml` itself.
  it.each(['f12', 'f', 'n0', 'nul1', 'null', 'Null', 'NULL', 'nULL', 'true', 'True', 'TRUE', 'tru3', 'false', 'False', 'FALSE', 'fals3', 'block', 't.e', 'F-1'])(
    '%j as yaml reads it', (word) => {
      expect(resolvePlain(word)).toStrictEqual(parse(word));
    },
  );

  it('agrees with yaml on plain words that start with a letter', () => {
    const letter = fc.constantFrom('n', 'N', 'u', 'l', 'L', 't', 'T', 'r', 'e', 'E', 'f', 'F', 'a', 's', 'x');
    const unit = fc.oneof(letter, fc.constantFrom('1', '0', '.', '-'));
    fc.assert(fc.property(letter, fc.string({ unit, maxLength: 5 }), (first, rest) => {
      expect(resolvePlain(first + rest)).toStrictEqual(parse(first + rest));
    }), { numRuns: 5_000 });
  });
});
