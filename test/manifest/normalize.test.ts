import { describe, expect, it } from 'vitest';
import { validateManifestText, type DesiredZone } from '../../src/manifest/index.js';
import { checkExpressions } from '../../src/manifest/check-expressions.js';
import { Locator } from '../../src/manifest/locate.js';
import { normalize } from '../../src/manifest/normalize.js';
import { readManifestYaml } from '../../src/manifest/read.js';
import { checkSchema } from '../../src/manifest/schema.js';
import { LineIndex } from '../../src/manifest/source.js';
import { Checks } from '../../src/manifest/view.js';
import { doc } from './helpers/issues.js';

function zoneOf(text: string): DesiredZone {
  const r = validateManifestText(text, 'zone.yaml');
  expect(r.issues).toEqual([]);
  return r.zone!;
}

const z = 'zone: example.com';

describe('normalisation into a DesiredZone', () => {
  it('turns keys into refs, inline filters into filters, and fills defaults', () => {
    const zone = zoneOf(doc(z, 'filters:', '  api:', '    expression: http.request.uri.path  matches  "^/api/"',
      'firewall_rules:', '  r1:', '    action: block', '    filter: api', '  r2:', '    action: bypass', '    products: [waf, bic]',
      '    filter: {expression: ip.src eq 192.0.2.1, description: office, paused: true}', '    renamed_from: old-r2'));
    expect(zone.filters.map((f) => [f.ref, f.expression, f.inline, f.paused, f.description, f.renamedFrom])).toEqual([
      ['api', 'http.request.uri.path matches "^/api/"', false, false, '', undefined],
      ['r2', 'ip.src eq 192.0.2.1', true, true, 'office', 'old-r2'],
    ]);
    expect(zone.firewallRules.map((r) => [r.ref, r.filterRef, r.priority, r.products, r.renamedFrom])).toEqual([
      ['r1', 'api', 1, [], undefined],
      ['r2', 'r2', 2, ['bic', 'waf'], 'old-r2'],
    ]);
    expect(zone.filters[0].location).toEqual({ file: 'zone.yaml', line: 3, column: 3 });
    expect(zone.firewallRules[1].fieldLocations?.action).toEqual({ file: 'zone.yaml', line: 10, column: 13 });
    expect(zone.managedRules).toBeUndefined();
    expect(zone.previousWaf).toBeUndefined();
    expect(zone.wafMigration).toBeUndefined();
  });

  it('leaves out the entries that failed a check, without gaps, in a partial zone', () => {
    const text = doc(z, 'filters:', '  a: {expression: ip.src eq 10.0.0.1}', '  b: {expression: ip.src eq}', '  c: {expression: ip.src eq 10.0.0.3}',
      'firewall_rules:', '  r1: {action: block, filter: a}', '  r2: {action: block, filter: {expression: http.host eq}}',
      '  r3: {action: blok, filter: c}', '  r4: {action: log, filter: {expression: http.host eq "x"}}');
    const lines = new LineIndex(text);
    const parsed = readManifestYaml(text, lines);
    const locator = new Locator('zone.yaml', parsed, lines);
    const checks = new Checks(locator, checkSchema(parsed.data, locator).dirty);
    const data = parsed.data as Record<string, unknown>;
    const zone = normalize(checks, data, checkExpressions(checks, data));
    expect(zone.filters.map((f) => f.ref)).toEqual(['a', 'c', 'r4']);
    expect(zone.firewallRules.map((r) => r.ref)).toEqual(['r1', 'r4']);
    expect(Object.keys(zone.filters)).toEqual(['0', '1', '2']);
    expect(Object.keys(zone.firewallRules)).toEqual(['0', '1']);
  });

  it('keeps field locations in field order, whatever order the fields are written in', () => {
    const zone = zoneOf(doc(z, 'filters:', '  a:', '    expression: ip.src eq 10.0.0.1', '  b:', '    description: office', '    expression: ip.src eq 10.0.0.2',
      'firewall_rules:', '  r1:', '    filter: a', '    action: block', '  r2:', '    priority: 7', '    action: block', '    filter: b'));
    const at = (line: number, column: number) => ({ file: 'zone.yaml', line, column });
    expect(zone.filters.map((f) => Object.entries(f.fieldLocations!))).toEqual([
      [['expression', at(4, 17)]],
      [['expression', at(7, 17)], ['description', at(6, 18)]],
    ]);
    expect(zone.firewallRules.map((r) => Object.entries(r.fieldLocations!))).toEqual([
      [['action', at(11, 13)], ['filter', at(10, 13)]],
      [['action', at(14, 13)], ['filter', at(15, 13)], ['priority', at(13, 15)]],
    ]);
  });

  it('computes effective priorities: key order, explicit priorities win, null stays null', () => {
    const rule = (k: string, extra: string[] = []): string[] => [`  ${k}:`, '    action: block', `    filter: {expression: http.host eq "${k}"}`, ...extra];
    const zone = zoneOf(doc(z, 'firewall_rules:', ...rule('a'), ...rule('b', ['    priority: 100']), ...rule('c'), ...rule('d', ['    priority: 50']),
      ...rule('e'), ...rule('f', ['    priority: null'])));
    expect(zone.firewallRules.map((r) => [r.ref, r.priority])).toEqual([['a', 1], ['b', 100], ['c', 101], ['d', 50], ['e', 51], ['f', null]]);
  });

  it('folds OWASP shorthands into overrides, sorted', () => {
    const zone = zoneOf(doc(z, 'managed_rules:', '  - ruleset: owasp', '    paranoia_level: 1', '    score_threshold: high',
      '    action: log', '    overrides:', '      categories: [{category: xss, enabled: false}]',
      '      rules: [{id: fa54f3d75ed446e78c22b4ea57b90acf, action: block}, {id: a6be45d4905042b9964ff81dc12e41d2, enabled: false}]'));
    expect(zone.managedRules).toEqual([expect.objectContaining({
      ref: 'owasp', rulesetId: '4814384a9e5d4991b9815dcfc25d2f1f', enabled: true, expression: 'true', description: '',
      overrides: {
        categories: [
          { category: 'paranoia-level-2', enabled: false }, { category: 'paranoia-level-3', enabled: false },
          { category: 'paranoia-level-4', enabled: false }, { category: 'xss', enabled: false },
        ],
        rules: [
          { id: '6179ae15870a4bb7b2d480d4843b323c', action: 'log', score_threshold: 25 },
          { id: 'a6be45d4905042b9964ff81dc12e41d2', enabled: false },
          { id: 'fa54f3d75ed446e78c22b4ea57b90acf', action: 'block' },
        ],
      },
    })]);
  });

  it('maps score threshold levels and keeps numbers', () => {
    const thresholds = (['low', 'medium', 'high', '33'] as const).map((t) => {
      const zone = zoneOf(doc(z, 'managed_rules:', '  - ruleset: owasp', `    score_threshold: ${t}`));
      return zone.managedRules![0].overrides.rules[0].score_threshold;
    });
    expect(thresholds).toEqual([60, 40, 25, 33]);
  });

  it('treats action as overrides.action for rulesets other than OWASP, and resolves ids and refs', () => {
    const zone = zoneOf(doc(z, 'managed_rules:', '  - ruleset: managed', '    action: log', '    enabled: false',
      '  - ruleset: 77454fe2d30c4220b5701f6fdfb893ba', '    expression: http.host eq "x"', '    description: free'));
    expect(zone.managedRules).toEqual([
      expect.objectContaining({ ref: 'managed', rulesetId: 'efb7b8c949ac4650a09736fc376e9aee', enabled: false, overrides: { action: 'log', categories: [], rules: [] } }),
      expect.objectContaining({ ref: '77454fe2d30c4220b5701f6fdfb893ba', rulesetId: '77454fe2d30c4220b5701f6fdfb893ba', expression: 'http.host eq "x"', description: 'free' }),
    ]);
  });

  it('resolves previous WAF package aliases and keeps the migration mode and plan', () => {
    const zone = zoneOf(doc(z, 'plan: business', 'waf_migration: none', 'previous_waf:', '  packages:', '    owasp: {sensitivity: low, action_mode: block}',
      '  groups: {07d700cf30fda7548be94ff01087d0c4: "off"}', '  rules: {100048: disable, WP0025B: block}'));
    expect(zone.plan).toBe('business');
    expect(zone.wafMigration).toBe('none');
    expect(zone.previousWaf).toEqual({
      packages: { c504870194831cd12c3fc0284f294abb: { sensitivity: 'low', action_mode: 'block' } },
      groups: { '07d700cf30fda7548be94ff01087d0c4': 'off' },
      rules: { 100048: 'disable', WP0025B: 'block' },
      location: { file: 'zone.yaml', line: 4, column: 1 },
      // Each id where it was written (an alias at its key), for findings about one of them.
      keyLocations: {
        packages: { c504870194831cd12c3fc0284f294abb: { file: 'zone.yaml', line: 6, column: 5 } },
        groups: { '07d700cf30fda7548be94ff01087d0c4': { file: 'zone.yaml', line: 7, column: 12 } },
        rules: { 100048: { file: 'zone.yaml', line: 8, column: 11 }, WP0025B: { file: 'zone.yaml', line: 8, column: 28 } },
      },
    });
    expect(Object.keys(zone.locations).sort()).toEqual(['plan', 'previous_waf', 'waf_migration', 'zone']);
  });

  it('reads keys as written (00123 stays 00123)', () => {
    const zone = zoneOf(doc(z, 'previous_waf:', '  rules:', '    00123: "on"'));
    expect(Object.keys(zone.previousWaf!.rules)).toEqual(['00123']);
  });
});
