/**
 * The fast path's own check of section keys (src/manifest/schema-keys.ts) must accept exactly what
 * the schema's `$defs/key` accepts, as the full validator (ajv, code points) checks it; and it must
 * step aside when `$defs/key` says anything else.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createManifestAjv, manifestSchema } from '../../src/manifest/schema.js';
import { isManifestKey, keyedSections, sectionKeysValid } from '../../src/manifest/schema-keys.js';

const keySchema = createManifestAjv().compile({ ...manifestSchema.$defs.key, $id: 'urn:test:key' });

/** Characters near the edges of the key pattern: both sides of each range, the other ASCII marks, non-ASCII and astral ones. */
const edgeChars = fc.constantFrom(...'09AZaz/:@[`{_.-$+ #~\t\n\u0000\u007f\u00e9\u0130\u212a', '😀', '\ud83d', '\ude00');
const keys = fc.oneof(
  fc.array(edgeChars, { maxLength: 8 }).map((cs) => cs.join('')),
  fc.string({ maxLength: 60 }),
  fc.tuple(fc.integer({ min: 45, max: 55 }), edgeChars).map(([n, c]) => 'k'.repeat(n) + c),
  fc.integer({ min: 0, max: 60 }).map((n) => 'a'.repeat(n)),
);

describe('isManifestKey', () => {
  it('accepts exactly what $defs/key accepts', () => {
    fc.assert(fc.property(keys, (key) => isManifestKey(key) === keySchema(key)), { numRuns: 20_000 });
  });

  it('answers the edges as the schema does', () => {
    const cases = ['', 'a', 'A', '0', 'f17', 'a_b.c-d', '_a', '.a', '-a', 'a b', 'a/b', 'a$', '__proto__', 'x'.repeat(50), 'x'.repeat(51), 'é', 'a😀'];
    expect(cases.map(isManifestKey)).toEqual(cases.map((k) => keySchema(k)));
  });
});

describe('keyedSections', () => {
  it('names the top-level maps whose keys are $defs/key', () => {
    expect(keyedSections(manifestSchema)).toEqual(['filters', 'firewall_rules', 'custom_rules', 'rate_limiting_rules', 'page_rules']);
  });

  it('names none when $defs/key is not the definition isManifestKey implements', () => {
    const key = manifestSchema.$defs.key;
    for (const changed of [{ maxLength: 64 }, { pattern: '^[a-z]+$' }, { minLength: 2 }, { format: 'hostname' }]) {
      expect(keyedSections({ ...manifestSchema, $defs: { ...manifestSchema.$defs, key: { ...key, ...changed } } })).toEqual([]);
    }
    const { maxLength: _, ...withoutMax } = key;
    expect(keyedSections({ ...manifestSchema, $defs: { ...manifestSchema.$defs, key: withoutMax } })).toEqual([]);
  });
});

describe('sectionKeysValid', () => {
  it('checks the keys of each present section, as keysOf gives them', () => {
    expect(sectionKeysValid({ filters: { a: {}, b: {} } }, ['filters', 'firewall_rules'])).toBe(true);
    expect(sectionKeysValid({ filters: { a: {} }, firewall_rules: { 'b c': {} } }, ['filters', 'firewall_rules'])).toBe(false);
    expect(sectionKeysValid({ other: { 'b c': {} } }, ['filters'])).toBe(true);
    expect(sectionKeysValid({ filters: { a: {} } }, ['filters'], () => ['_bad'])).toBe(false);
  });
});
