import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadManifests, validateManifestText } from '../../src/manifest/index.js';

const examples = readdirSync('examples').filter((f) => f.endsWith('.yaml')).sort();

describe('examples', () => {
  it('has the six documented examples', () => {
    expect(examples).toEqual(expect.arrayContaining(['custom-rules.yaml', 'enterprise-migration.yaml', 'managed-overrides.yaml', 'previous-waf.yaml', 'quickstart.yaml', 'shared-filters.yaml']));
  });

  it.each(examples)('%s validates, with the editor completion line', (name) => {
    const text = readFileSync(`examples/${name}`, 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/zone-manifest.schema.json');
    const result = validateManifestText(text, `examples/${name}`);
    expect(result.issues).toEqual([]);
    expect(result.zone?.zone).toMatch(/\.example\.com$/);
  });

  it('the examples directory loads as one set of zones', async () => {
    const { zones, errors } = await loadManifests(['examples']);
    expect(errors).toEqual([]);
    expect(zones.map((z) => z.zone)).toEqual(expect.arrayContaining([
      'custom.example.com', 'enterprise.example.com', 'managed.example.com', 'legacy.example.com', 'quickstart.example.com', 'shared.example.com',
    ]));
  });

  it('each example shows what it is named after', async () => {
    const { zones } = await loadManifests(examples.map((e) => `examples/${e}`));
    const byFile = new Map(zones.map((z) => [z.file.replace('examples/', ''), z]));
    expect(byFile.get('quickstart.yaml')!.filters.every((f) => f.inline)).toBe(true);
    expect(byFile.get('shared-filters.yaml')!.firewallRules.filter((r) => !byFile.get('shared-filters.yaml')!.filters.find((f) => f.ref === r.filterRef)?.inline).length).toBeGreaterThan(1);
    expect(byFile.get('managed-overrides.yaml')!.managedRules!.some((m) => m.overrides.categories.length > 0 && m.overrides.rules.length > 0)).toBe(true);
    expect(byFile.get('previous-waf.yaml')!.previousWaf).toBeDefined();
    expect(byFile.get('previous-waf.yaml')!.wafMigration).toBe('none');
    expect(byFile.get('enterprise-migration.yaml')!.wafMigration).toBe('validation');
    expect(byFile.get('enterprise-migration.yaml')!.plan).toBe('enterprise');
    const custom = byFile.get('custom-rules.yaml')!.customRules!;
    expect(custom.map((r) => r.action)).toEqual(expect.arrayContaining(['skip', 'block', 'managed_challenge', 'js_challenge']));
    expect(custom.some((r) => r.actionParameters?.response !== undefined) && custom.some((r) => !r.enabled)).toBe(true);
  });
});
