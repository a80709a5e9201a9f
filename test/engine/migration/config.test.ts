import { describe, expect, it } from 'vitest';
import { CloudflarePackageId, ManagedRulesetId, OwaspPackageId, OwaspRulesetId, OwaspThresholdRuleId, findManagedRuleset, findPackage } from '../../../src/engine/catalog/index.js';
import type { FirewallRuleLike } from '../../../src/engine/migration/check.js';
import { deriveConfig, orderForEvaluation, ruleOverride } from '../../../src/engine/migration/config.js';
import { defaultSettings, type PreviousWafSettings } from '../../../src/engine/previous-waf/model.js';

const WP_GROUP = 'c956a7bf4225adc26448b0badc12f17a';
const SPECIALS = '4096833576e7a68a222fbc5993f98101';

function params(config: ReturnType<typeof deriveConfig>, rulesetId: string): any {
  return config.rules.find((r) => r.action === 'execute' && (r.action_parameters as { id: string }).id === rulesetId)!;
}

describe('deriveConfig', () => {
  it('has the seed shape: name default, empty id/version/ref, expression true', () => {
    const config = deriveConfig(defaultSettings(), []);
    expect(config.name).toBe('default');
    expect(config.rules).toHaveLength(2);
    for (const r of config.rules) {
      expect(r).toMatchObject({ id: '', version: '', ref: '', action: 'execute', expression: 'true', enabled: true });
      expect(Object.keys(r).slice(0, 8)).toEqual(['id', 'version', 'action', 'expression', 'description', 'ref', 'enabled', 'action_parameters']);
    }
  });

  it('maps default OWASP settings with the Default row: PL2, threshold 40, challenge', () => {
    const owasp = params(deriveConfig(defaultSettings(), []), OwaspRulesetId);
    expect(owasp.action_parameters.overrides).toEqual({
      categories: [{ category: 'paranoia-level-3', enabled: false }, { category: 'paranoia-level-4', enabled: false }],
      rules: [{ id: OwaspThresholdRuleId, score_threshold: 40, action: 'challenge' }],
    });
  });

  it.each([
    ['high', 'block', 2, 40, 'block'],
    ['medium', 'simulate', 1, 25, 'log'],
    ['low', 'challenge', 1, 40, 'challenge'],
  ] as const)('maps sensitivity %s / action %s to PL%i, %i, %s', (sensitivity, mode, pl, threshold, action) => {
    const s = defaultSettings();
    s.packages.set(OwaspPackageId, { sensitivity, action_mode: mode });
    const owasp = params(deriveConfig(s, []), OwaspRulesetId);
    expect(owasp.action_parameters.overrides.categories).toHaveLength(4 - pl);
    expect(owasp.action_parameters.overrides.rules).toEqual([{ id: OwaspThresholdRuleId, score_threshold: threshold, action }]);
    expect(owasp.enabled).toBe(true);
  });

  it('deploys OWASP disabled when its sensitivity is off', () => {
    const s = defaultSettings();
    s.packages.set(OwaspPackageId, { sensitivity: 'off', action_mode: null });
    expect(params(deriveConfig(s, []), OwaspRulesetId).enabled).toBe(false);
    expect(params(deriveConfig(s, []), ManagedRulesetId).enabled).toBe(true);
  });

  it('deploys both rulesets disabled when the previous WAF is off', () => {
    const s: PreviousWafSettings = { ...defaultSettings(), enabled: false };
    expect(deriveConfig(s, []).rules.map((r) => r.enabled)).toEqual([false, false]);
  });

  it('turns a group that is off into a category override, and a group without category into rule overrides', () => {
    const s = defaultSettings();
    s.groupModes.set(`${CloudflarePackageId}/${WP_GROUP}`, 'off');
    s.groupModes.set(`${CloudflarePackageId}/${SPECIALS}`, 'off');
    const overrides = params(deriveConfig(s, []), ManagedRulesetId).action_parameters.overrides;
    expect(overrides.categories).toEqual([{ category: 'wordpress', enabled: false }]);
    expect(overrides.rules).toContainEqual({ id: '5f6744fa026a4638bda5b3d7d5e015dd', enabled: false });
  });

  it('turns rule modes into the overrides that keep their behaviour', () => {
    const s = defaultSettings();
    s.ruleModes.set(`${CloudflarePackageId}/100514`, 'simulate');
    s.ruleModes.set(`${CloudflarePackageId}/100061`, 'disable');
    s.ruleModes.set(`${CloudflarePackageId}/100739`, 'block');
    s.ruleModes.set(`${CloudflarePackageId}/100625`, 'block');
    const rules = params(deriveConfig(s, []), ManagedRulesetId).action_parameters.overrides.rules;
    expect(rules).toContainEqual({ id: '5f6744fa026a4638bda5b3d7d5e015dd', action: 'log' });
    expect(rules).toContainEqual({ id: '23ee7cebe6e8443e99ecf932ab579455', enabled: false });
    expect(rules).toContainEqual({ id: '34583778093748cc83ff7b38f472013e', enabled: true });
    expect(rules.find((r: { id: string }) => r.id === 'f3c07b95144e40169abed3ee901523c0')).toBeUndefined();
  });

  it('leaves out rules whose default already matches the new rule', () => {
    const cf = findPackage('cloudflare')!;
    const managed = findManagedRuleset(ManagedRulesetId)!;
    const log4j = cf.groups[0]!.rules.find((r) => r.id === '100514')!;
    expect(ruleOverride(managed, log4j, 'default')).toBeUndefined();
    const scanner = cf.groups[0]!.rules.find((r) => r.id === '100532')!;
    expect(ruleOverride(managed, scanner, 'default')).toEqual({ id: '0242110ae62e44028a13bf4834780914', action: 'challenge' });
  });

  it('turns firewall rules that bypass WAF managed rules into skip rules, in evaluation order', () => {
    const rules: FirewallRuleLike[] = [
      { id: 'a', action: 'bypass', priority: null, paused: false, products: ['waf'], expression: 'ip.src eq 192.0.2.1', description: 'office' },
      { id: 'b', action: 'bypass', priority: 5, paused: true, products: ['waf', 'uaBlock'], expression: 'http.request.uri.path eq "/hook"' },
      { id: 'c', action: 'bypass', priority: 1, paused: false, products: ['uaBlock'], expression: 'true' },
      { id: 'd', action: 'block', priority: 2, paused: false, expression: 'true' },
    ];
    const config = deriveConfig(defaultSettings(), rules);
    expect(config.rules.slice(0, 2)).toEqual([
      { id: '', version: '', action: 'skip', expression: 'http.request.uri.path eq "/hook"', description: 'Migrated from firewall rule b', ref: '', enabled: false, action_parameters: { ruleset: 'current' }, logging: { enabled: true } },
      { id: '', version: '', action: 'skip', expression: 'ip.src eq 192.0.2.1', description: 'Migrated from firewall rule a: office', ref: '', enabled: true, action_parameters: { ruleset: 'current' }, logging: { enabled: true } },
    ]);
    expect(config.rules).toHaveLength(4);
  });

  it('orders by priority with null last, stable otherwise', () => {
    expect(orderForEvaluation([{ priority: null, n: 1 }, { priority: 3, n: 2 }, { priority: 1, n: 3 }, { priority: 3, n: 4 }]).map((r) => r.n)).toEqual([3, 2, 4, 1]);
  });
});
