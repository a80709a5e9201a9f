/**
 * The schema's fast path for valid manifests (src/manifest/schema-quick.ts): it must accept exactly
 * what the full validator accepts, and the built one must be what validation runs first, with the
 * issues of an invalid manifest unchanged (they come from the full validator either way).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { validateManifestText, type ManifestResult } from '../../src/manifest/index.js';
import { compiledValidator, manifestSchema, manifestSchemaHash } from '../../src/manifest/schema.js';
import { keyedSections, sectionKeysValid } from '../../src/manifest/schema-keys.js';
import { createQuickAjv, quickManifestSchema } from '../../src/manifest/schema-quick.js';
import { repoRoot, requireBuild } from '../helpers/e2e-cli.js';

type Accept = (data: unknown) => boolean;

const examples = readdirSync(join(repoRoot, 'examples'))
  .filter((n) => n.endsWith('.yaml'))
  .map((n) => parseYaml(readFileSync(join(repoRoot, 'examples', n), 'utf8')) as unknown);

const keys = ['zone', 'plan', 'filters', 'firewall_rules', 'custom_rules', 'rate_limiting_rules', 'managed_rules', 'previous_waf', 'page_rules', 'waf_migration',
  'expression', 'description', 'paused', 'renamed_from', 'action', 'filter', 'priority', 'products', 'ruleset', 'overrides', 'rules',
  'categories', 'id', 'enabled', 'logging', 'action_parameters', 'response', 'status_code', 'content_type', 'content', 'phases', 'url',
  'disable_security', 'waf', 'status', 'paranoia_level', 'score_threshold', 'packages', 'groups', 'sensitivity', 'a', 'bad key', 'k'.repeat(51)];
/** Values near the schema's edges: enum members and near misses, lengths at the limits, every type. */
const value = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('block', 'bypass', 'log', 'skip', 'blok', 'owasp', 'free', 'current', 'waf', 'hot', 'on', 'off', 'active', 'medium',
      'text/html', 'http_ratelimit', 'pending', 'enterprise', 'ip.src eq 1.1.1.1', '', 'a', 'x'.repeat(50), 'x'.repeat(51),
      'd'.repeat(500), 'd'.repeat(501), '0123456789abcdef0123456789abcdef', '😀'.repeat(26),
      // Astral characters count once in the full validator and twice in the fast path's maxLength.
      '😀'.repeat(25), '😀'.repeat(50), '😀'.repeat(51), '😀', `x${'😀'.repeat(24)}`, '😀'.repeat(250), '😀'.repeat(251),
      `${'d'.repeat(499)}😀`, `${'d'.repeat(250)}${'😀'.repeat(250)}`, '😀'.repeat(500), '😀'.repeat(501), '\ud83d', 'a\ude00'),
    fc.constantFrom(0, 1, 4, 5, 399, 400, 499, 500, 1000, 1001, 2147483647, 2147483648, -1, 1.5),
    fc.boolean(), fc.constant(null),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...keys), tie('node'), { maxKeys: 4 }),
  ),
})).node;

/** `data` with the value at a path (chosen by `choices`) replaced, removed (`undefined`) or doubled into a list. */
function mutate(data: unknown, choices: readonly number[], replacement: unknown): unknown {
  if (choices.length === 0 || data === null || typeof data !== 'object') return replacement;
  const keysOf = Object.keys(data);
  if (keysOf.length === 0) return replacement;
  const key = keysOf[choices[0] % keysOf.length];
  const copy: Record<string, unknown> = Array.isArray(data) ? [...data] as unknown as Record<string, unknown> : { ...data };
  const inner = mutate((data as Record<string, unknown>)[key], choices.slice(1), replacement);
  if (inner === undefined) delete copy[key];
  else copy[key] = inner;
  return copy;
}

const mutated = fc.tuple(fc.constantFrom(...examples), fc.array(fc.nat(), { maxLength: 5 }), fc.oneof(value, fc.constant(undefined)))
  .map(([doc, path, replacement]) => mutate(doc, path, replacement));

const surrogate = /[\ud800-\udfff]/;

/**
 * Every answer of `quick` (with the section keys it leaves to `sectionKeysValid`) is the full
 * validator's, on the examples, their variants and random documents; except that a document with
 * astral characters may be refused by `quick` alone (it counts maxLength in UTF-16 units): then the
 * full validator answers, so a "valid" must still be right.
 */
function expectSameAnswers(quickAlone: Accept): void {
  const full = compiledValidator();
  const sections = keyedSections(manifestSchema);
  const quick = (doc: unknown) => quickAlone(doc) && sectionKeysValid(doc, sections);
  for (const doc of examples) expect(quick(doc)).toBe(true);
  let astral = 0;
  fc.assert(fc.property(fc.oneof(mutated, value), (doc) => {
    const q = quick(doc);
    const f = full(doc);
    if (!surrogate.test(JSON.stringify(doc) ?? '')) return q === f;
    astral++;
    return !q || f;
  }), { numRuns: 3000 });
  expect(astral).toBeGreaterThan(100);
}

describe('the fast path of the manifest schema', () => {
  it('accepts exactly what the full validator accepts', () => {
    expectSameAnswers(createQuickAjv().compile(quickManifestSchema(manifestSchema)));
  });

  it('leaves the keys of the keyed sections to sectionKeysValid, and only those', () => {
    const quick = quickManifestSchema(manifestSchema);
    const properties = quick.properties as Record<string, { propertyNames?: unknown }>;
    expect(keyedSections(manifestSchema)).toEqual(['filters', 'firewall_rules', 'custom_rules', 'rate_limiting_rules', 'page_rules']);
    for (const name of keyedSections(manifestSchema)) expect(properties[name].propertyNames).toBeUndefined();
    // Other maps' keys (previous WAF ids) are still the fast path's.
    expect(JSON.stringify(quick)).toContain('propertyNames');
    const accept = createQuickAjv().compile(quick);
    const doc = { zone: 'example.com', filters: { 'bad key': { expression: 'ip.src eq 1.1.1.1' } } };
    expect(accept(doc)).toBe(true);
    expect(sectionKeysValid(doc, keyedSections(manifestSchema))).toBe(false);
    expect(compiledValidator()(doc)).toBe(false);
  });

  it('inlines $refs (with their siblings, as allOf) and drops annotations', () => {
    const schema = {
      $defs: { key: { type: 'string', description: 'a key', maxLength: 3 }, pair: { type: 'object', properties: { k: { $ref: '#/$defs/key' } } } },
      type: 'object',
      properties: { p: { $ref: '#/$defs/pair', minProperties: 1, title: 'P' }, k: { $ref: '#/$defs/key', default: 'x' } },
    };
    expect(quickManifestSchema(schema)).toEqual({
      type: 'object',
      properties: {
        p: { minProperties: 1, allOf: [{ type: 'object', properties: { k: { type: 'string', maxLength: 3 } } }] },
        k: { type: 'string', maxLength: 3 },
      },
    });
  });

  it('writes if/then/else as anyOfs whose first branch passes for the usual entry', () => {
    const schema = {
      type: 'object',
      properties: { action: { enum: ['block', 'bypass', 'log'] } },
      if: { required: ['action'], properties: { action: { const: 'bypass' } } },
      then: { required: ['products'] },
      else: { properties: { products: { not: {} } } },
    };
    expect(quickManifestSchema(schema)).toEqual({
      type: 'object',
      properties: { action: { enum: ['block', 'bypass', 'log'] } },
      allOf: [
        { anyOf: [{ properties: { action: { enum: ['block', 'log'] } } }, { required: ['products'] }] },
        { anyOf: [{ properties: { products: { not: {} } } }, { required: ['action'], properties: { action: { const: 'bypass' } } }] },
      ],
    });
    const accept = createQuickAjv().compile(quickManifestSchema(schema));
    const full = createQuickAjv().compile(schema);
    for (const doc of [{}, { action: 'block' }, { action: 'bypass' }, { action: 'bypass', products: [] }, { action: 'log', products: [] }, { products: 1 }]) {
      expect(accept(doc)).toBe(full(doc));
    }
    // Another condition, with a `then`, stays an `if`.
    const other = { if: { required: ['a'] }, then: { required: ['b'] } };
    expect(quickManifestSchema(other)).toEqual(other);
  });

  it('counts minLength above 1 in code points, as the full validator does (its maxLength counts UTF-16 units)', () => {
    const schema = { type: 'string', minLength: 3, maxLength: 4 };
    expect(quickManifestSchema(schema)).toEqual({ type: 'string', maxLength: 4, allOf: [{ pattern: '^[\\s\\S]{3,}$' }] });
    const accept = createQuickAjv().compile(quickManifestSchema(schema));
    // A lone surrogate is one code point for both.
    expect(['ab', 'a😀', 'abc', 'ab\ud83d', 'a😀b', 'abcd', 'abcde'].map((s) => accept(s))).toEqual([false, false, true, true, true, true, false]);
    // Fewer than 4 code points but more than 4 UTF-16 units: refused here, so the full validator answers.
    expect(accept('😀😀😀')).toBe(false);
  });

  it('refuses what it cannot carry over to draft-07 unchanged: recursion, foreign refs, other keywords', () => {
    expect(() => quickManifestSchema({ $defs: { a: { items: { $ref: '#/$defs/a' } } }, $ref: '#/$defs/a' })).toThrow(/recursive/);
    expect(() => quickManifestSchema({ $ref: 'other.json#/x' })).toThrow(/not one of \$defs/);
    expect(() => quickManifestSchema({ prefixItems: [{ type: 'string' }] })).toThrow(/prefixItems/);
    expect(() => quickManifestSchema({ items: [{ type: 'string' }] })).toThrow(/items/);
    expect(() => quickManifestSchema({ unevaluatedProperties: false })).toThrow(/unevaluatedProperties/);
  });
});

describe('the fast path built with the CLI', () => {
  let built: { schemaHash: string; quick?: Accept };
  let builtValidate: (text: string, file: string) => ManifestResult;
  beforeAll(async () => {
    requireBuild();
    built = createRequire(import.meta.url)(join(repoRoot, 'dist/manifest/schema-validator.cjs')) as typeof built;
    // dist/'s own modules: they find the validators the build wrote beside them.
    ({ validateManifestText: builtValidate } = await import(join(repoRoot, 'dist/manifest/index.js')) as { validateManifestText: typeof builtValidate });
  });

  it('sits beside the full validator, from the current schema, and answers as it does', () => {
    expect(built.schemaHash).toBe(manifestSchemaHash);
    expect(typeof built.quick).toBe('function');
    expectSameAnswers(built.quick!);
  });

  it('leaves the issues of invalid manifests as the full validator alone reports them', () => {
    fc.assert(fc.property(mutated, (doc) => {
      const text = stringify(doc) ?? '';
      const expected = validateManifestText(text, 'zone.yaml');
      expect(builtValidate(text, 'zone.yaml')).toEqual(expected);
    }), { numRuns: 400 });
  });
});
