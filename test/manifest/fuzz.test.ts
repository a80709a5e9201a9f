import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parse as parseYaml, stringify } from 'yaml';
import { validateManifestText, type ManifestResult } from '../../src/manifest/index.js';

/** Every answer is either a zone, or at least one issue, each positioned inside the text. */
function expectPositionedAnswer(text: string, result: ManifestResult): void {
  const lines = text.split('\n');
  if (result.zone !== undefined) {
    expect(result.issues).toEqual([]);
    return;
  }
  expect(result.issues.length).toBeGreaterThan(0);
  for (const issue of result.issues) {
    expect(issue.message).not.toMatch(/internal error/);
    expect(issue.message.length).toBeGreaterThan(0);
    expect(issue.line).toBeGreaterThanOrEqual(1);
    expect(issue.line).toBeLessThanOrEqual(lines.length);
    expect(issue.column).toBeGreaterThanOrEqual(1);
    expect(issue.column).toBeLessThanOrEqual(lines[issue.line - 1].length + 1);
  }
}

function check(text: string): void {
  let result: ManifestResult | undefined;
  expect(() => { result = validateManifestText(text, 'fuzz.yaml'); }).not.toThrow();
  expectPositionedAnswer(text, result!);
}

const examples = ['quickstart', 'shared-filters', 'managed-overrides', 'previous-waf', 'enterprise-migration']
  .map((n) => readFileSync(`examples/${n}.yaml`, 'utf8'));

const yamlish = fc.array(fc.constantFrom(
  'zone: x\n', 'filters:\n', '  a:\n', '    expression: ', 'ssl', 'http.host eq "x"', '\n', ' ', '  ', '\t', ':', '- ', '[', ']', '{', '}',
  ',', '"', "'", '#', '|', '>', '&a ', '*a', '!!str ', '---\n', '...\n', '%YAML 1.2\n', '\r\n', '\uFEFF', 'é', '\\', '? ', 'null', '~',
  'firewall_rules:\n', 'action: block\n', 'filter: a\n', 'priority: ', '-1', '1e999', '0x10', 'managed_rules:\n', 'previous_waf:\n',
), { maxLength: 40 }).map((parts) => parts.join(''));

const manifestKeys = ['zone', 'plan', 'filters', 'firewall_rules', 'managed_rules', 'previous_waf', 'waf_migration', 'expression',
  'action', 'filter', 'priority', 'products', 'ruleset', 'overrides', 'rules', 'categories', 'id', 'paranoia_level', 'score_threshold',
  'packages', 'groups', 'sensitivity', 'renamed_from', 'a', 'b'];
const value = fc.letrec<{ node: unknown }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small' },
    fc.constantFrom('block', 'owasp', 'ssl', 'http.host eq "x"', 'a', '', 'on', 'medium', 'http.hots eq 1', 'x'.repeat(60)),
    fc.integer({ min: -3, max: 3_000_000_000 }), fc.boolean(), fc.constant(null), fc.double(),
    fc.array(tie('node'), { maxLength: 3 }),
    fc.dictionary(fc.constantFrom(...manifestKeys), tie('node'), { maxKeys: 4 }),
  ),
})).node;

/** Replaces the value at a random path of `data` with `replacement`. */
function mutate(data: unknown, choices: number[], replacement: unknown): unknown {
  if (choices.length === 0 || data === null || typeof data !== 'object') return replacement;
  const keys = Object.keys(data);
  if (keys.length === 0) return replacement;
  const key = keys[choices[0] % keys.length];
  const copy: Record<string, unknown> = Array.isArray(data) ? [...data] as unknown as Record<string, unknown> : { ...data };
  copy[key] = mutate((data as Record<string, unknown>)[key], choices.slice(1), replacement);
  return copy;
}

describe('validate never crashes and always answers with positioned errors', () => {
  it('on malformed YAML', () => {
    fc.assert(fc.property(yamlish, check), { numRuns: 1000 });
  });

  it('on arbitrary text', () => {
    fc.assert(fc.property(fc.string({ maxLength: 200, unit: 'binary' }), check), { numRuns: 400 });
  });

  it('on random documents', () => {
    fc.assert(fc.property(value, (data) => check(stringify(data))), { numRuns: 500 });
  });

  it('on examples with one part replaced by something random', () => {
    fc.assert(fc.property(fc.constantFrom(...examples), fc.array(fc.nat(), { maxLength: 5 }), value, (text, path, replacement) => {
      check(stringify(mutate(parseYaml(text), path, replacement)));
    }), { numRuns: 400 });
  });

  it('on examples cut short or with a line removed', () => {
    fc.assert(fc.property(fc.constantFrom(...examples), fc.nat(), fc.boolean(), (text, n, cut) => {
      const lines = text.split('\n');
      check(cut ? text.slice(0, n % text.length) : lines.filter((_, i) => i !== n % lines.length).join('\n'));
    }), { numRuns: 300 });
  });
});
