/**
 * `zonewall validate --format sarif` (the built CLI): the log validates against the vendored SARIF
 * 2.1.0 schema (schemas/sarif-2.1.0.schema.json, with ajv), each check fires on the fixture made for
 * it (test/fixtures/lint) with its rule id, level, message and the manifest region, and the
 * linter's checks fire on none of the examples. Also the checks' cover logic, where it can and
 * cannot decide.
 */
import fs from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { describe, expect, it } from 'vitest';
import { parse } from '../../src/expr/index.js';
import { conditionFindings, covers } from '../../src/manifest/index.js';
import { root, zonewall } from '../migrate/cli.js';

const schema = JSON.parse(fs.readFileSync(path.join(root, 'schemas', 'sarif-2.1.0.schema.json'), 'utf8')) as object;
const fixtures = path.join(root, 'test', 'fixtures', 'lint');

interface SarifLog { version: string; runs: { tool: { driver: { rules: { id: string }[] } }; results: { ruleId: string; level: string; message: { text: string }; locations: { physicalLocation: { artifactLocation: { uri: string }; region?: { startLine: number; startColumn: number } } }[] }[] }[] }

async function sarif(...paths: string[]): Promise<{ code: number; log: SarifLog }> {
  const r = await zonewall(['validate', ...paths, '--format', 'sarif'], { cwd: root });
  return { code: r.code, log: JSON.parse(r.stdout) as SarifLog };
}

function validator() {
  // `format` (uri, date-time) is not asserted: ajv without ajv-formats ignores it, as the draft allows.
  const ajv = new Ajv.default({ strict: false, allErrors: true, validateFormats: false });
  return ajv.compile(schema);
}

const cases: [string, string, string, number, RegExp][] = [
  ['invalid.yaml', 'ZW001', 'error', 5, /custom_rules\.bad\.action: must be one of/],
  ['retired-field.yaml', 'ZW101', 'warning', 6, /cf\.threat_score is retired/],
  ['unreachable-rule.yaml', 'ZW102', 'warning', 10, /earlier rule block-admin \(block\) matches every request this rule matches/],
  ['shadowed-ip-range.yaml', 'ZW103', 'warning', 10, /wider range of the earlier rule block-network/],
  ['duplicate-condition.yaml', 'ZW104', 'warning', 7, /appears twice in one and/],
  ['contradictory-condition.yaml', 'ZW105', 'warning', 5, /its negation in one and: this never matches/],
  ['skip-skips-nothing.yaml', 'ZW106', 'warning', 11, /this skip rule skips nothing: `ruleset: current` skips the custom rules after it/],
];

describe('validate --format sarif', () => {
  it('the vendored schema is a draft-07 schema that refuses what SARIF 2.1.0 refuses', () => {
    const validate = validator();
    expect(validate({ version: '2.1.0', runs: [] })).toBe(true);
    expect(validate({ version: '2.0.0', runs: [] })).toBe(false);
    expect(validate({ version: '2.1.0', runs: [{ tool: {} }] })).toBe(false);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ ruleId: 'a', message: { text: 'm' }, level: 'fatal' }] }] })).toBe(false);
    expect(validate({ version: '2.1.0', runs: [{ tool: { driver: { name: 'x' } }, results: [{ message: { text: 'm' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'a' }, region: { startLine: 0 } } }] }] }] })).toBe(false);
  });

  for (const [file, id, level, line, message] of cases) {
    it(`${id} fires on ${file}, with its level, message and region`, { timeout: 60_000 }, async () => {
      const { code, log } = await sarif(path.join('test', 'fixtures', 'lint', file));
      expect(code).toBe(level === 'error' ? 1 : 0);
      const validate = validator();
      expect(validate(log), JSON.stringify(validate.errors)).toBe(true);
      const results = log.runs[0]!.results;
      expect(results.map((r) => r.ruleId)).toEqual([id]);
      const [result] = results;
      expect(result!.level).toBe(level);
      expect(result!.message.text).toMatch(message);
      expect(result!.locations[0]!.physicalLocation.artifactLocation.uri).toBe(`test/fixtures/lint/${file}`);
      expect(result!.locations[0]!.physicalLocation.region!.startLine).toBe(line);
      expect(log.runs[0]!.tool.driver.rules.map((r) => r.id)).toContain(id);
    });
  }

  it('no check fires on the examples', { timeout: 60_000 }, async () => {
    const { code, log } = await sarif('examples', path.join('examples', 'upgrade'));
    expect(code).toBe(0);
    expect(validator()(log)).toBe(true);
    expect(log.runs[0]!.results).toEqual([]);
  });

  it('text and json carry the same findings with their ids', { timeout: 60_000 }, async () => {
    const text = await zonewall(['validate', path.join(fixtures, 'shadowed-ip-range.yaml')], { cwd: root });
    expect(text.stdout).toMatch(/warning: .*shadowed-ip-range\.yaml:10:17: custom_rules\.challenge-host\.expression: .* \[ZW103 shadowed-ip-range\]\n1 manifest valid\n$/);
    const json = await zonewall(['validate', path.join(fixtures, 'duplicate-condition.yaml'), '--format', 'json'], { cwd: root });
    expect((JSON.parse(json.stdout) as { lint: { rule: string }[] }).lint.map((l) => l.rule)).toEqual(['ZW104']);
  });
});

describe('covers: sound where it decides, silent where it cannot', () => {
  const c = (a: string, b: string) => covers(parse(a), parse(b));
  it('decides by structure, equivalence keys and IP ranges', () => {
    expect(c('true', 'http.host eq "a"')).toBe('same');
    expect(c('ip.src in {10.0.0.2 10.0.0.1}', 'ip.src in {10.0.0.1..10.0.0.2}')).toBe('same');
    expect(c('http.host eq "a" or http.host eq "b"', 'http.host eq "b" and ip.src eq 10.0.0.1')).toBe('same');
    expect(c('ip.src in {10.0.0.0/8}', 'ip.src eq 10.1.2.3')).toBe('ip');
    expect(c('ip.src in {10.0.0.0/8 2001:db8::/32}', 'ip.src in {2001:db8:1::/48 10.9.0.0/16}')).toBe('ip');
  });
  it('says nothing where it cannot decide or it is not so', () => {
    expect(c('ip.src in {10.0.0.0/8}', 'ip.src in {10.0.0.0/7}')).toBeUndefined();
    expect(c('ip.src in {10.0.0.0/8}', 'ip.src in {::ffff:10.0.0.1}')).toBeUndefined();
    expect(c('http.host matches "^a"', 'http.host eq "a"')).toBeUndefined();
    expect(c('starts_with(http.host, "a")', 'http.host eq "ab"')).toBeUndefined();
    expect(c('http.host eq "a" and ip.src eq 10.0.0.1', 'http.host eq "a"')).toBeUndefined();
    expect(c('not http.host eq "a"', 'http.host eq "b"')).toBeUndefined();
  });
  it('finds duplicates and contradictions in nested and/or, not across xor', () => {
    expect(conditionFindings(parse('(a.b eq 1 or http.host eq "x") and not (a.b eq 1 or http.host eq "x")'.replace(/a\.b/g, 'ip.geoip.asnum'))).map((f) => f.kind)).toEqual(['contradiction']);
    expect(conditionFindings(parse('http.host eq "x" or http.host eq "y" or http.host eq "x"')).map((f) => [f.kind, f.op])).toEqual([['duplicate', 'or']]);
    expect(conditionFindings(parse('http.host eq "x" xor http.host eq "x"'))).toEqual([]);
  });
});
