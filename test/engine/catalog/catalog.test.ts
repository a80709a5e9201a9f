import { describe, expect, it } from 'vitest';
import { parse } from '../../../src/expr/index.js';
import {
  CloudflarePackageId,
  ExposedCredentialsRulesetId,
  FreeRulesetId,
  ManagedRulesetId,
  ManagedRulesets,
  OwaspPackageId,
  OwaspRulesetId,
  OwaspThresholdRuleId,
  PreviousWafPackages,
  allowedModes,
  defaultRuleMode,
  findManagedRule,
  findManagedRuleset,
  findPackage,
  hasCategory,
  legacyRuleExpression,
  managedRulesetView,
  replacementOf,
} from '../../../src/engine/catalog/index.js';

describe('managed rulesets', () => {
  it('ship the real public ids', () => {
    expect(ManagedRulesetId).toBe('efb7b8c949ac4650a09736fc376e9aee');
    expect(OwaspRulesetId).toBe('4814384a9e5d4991b9815dcfc25d2f1f');
    expect(FreeRulesetId).toBe('77454fe2d30c4220b5701f6fdfb893ba');
    expect(ManagedRulesets.map((r) => r.id)).toEqual([ManagedRulesetId, OwaspRulesetId, FreeRulesetId, ExposedCredentialsRulesetId]);
    expect(ExposedCredentialsRulesetId).toBe('c2e184081120413c86c3ab7e14069605');
    expect(findManagedRuleset('owasp')?.name).toBe('Cloudflare OWASP Core Ruleset');
  });

  it('carry the real rules of the reference with their legacy ids and defaults', () => {
    const managed = findManagedRuleset(ManagedRulesetId)!;
    const log4j = findManagedRule(managed, '5f6744fa026a4638bda5b3d7d5e015dd')!;
    expect([log4j.legacy_id, log4j.description, log4j.action, log4j.enabled]).toEqual(['100514', 'Log4j Headers', 'block', true]);
    const nextjs = findManagedRule(managed, '34583778093748cc83ff7b38f472013e')!;
    expect([nextjs.legacy_id, nextjs.enabled]).toEqual(['100739', false]);
    expect(findManagedRule(managed, '23ee7cebe6e8443e99ecf932ab579455')?.description).toBe('Apache Struts - Open Redirect - CVE:CVE-2013-2248');
    expect(managed.rules.length).toBeGreaterThanOrEqual(25);
  });

  it('have the OWASP anomaly score rule 949110 with its real id, ref, threshold and action', () => {
    const owasp = findManagedRuleset(OwaspRulesetId)!;
    const rule = findManagedRule(owasp, OwaspThresholdRuleId)!;
    expect(rule).toMatchObject({
      description: '949110: Inbound Anomaly Score Exceeded', action: 'block', score_threshold: 40, ref: 'ad0beb2fce9f149e565ee78d6e659d47', version: '35',
    });
    expect(owasp.rules.at(-1)!.id).toBe(OwaspThresholdRuleId);
    expect(owasp.anomaly).toBe(true);
  });

  it('tag every OWASP scoring rule with its paranoia level and give it a score', () => {
    const owasp = findManagedRuleset(OwaspRulesetId)!;
    const scoring = owasp.rules.filter((r) => r.action === 'score');
    expect(new Set(scoring.map((r) => r.paranoia_level))).toEqual(new Set([1, 2, 3, 4]));
    for (const r of scoring) {
      expect(r.categories).toContain(`paranoia-level-${r.paranoia_level}`);
      expect(r.score).toBeGreaterThan(0);
      expect(r.description).toMatch(/^9\d{5}: /);
    }
    for (const pl of [1, 2, 3, 4]) expect(hasCategory(owasp, `paranoia-level-${pl}`)).toBe(true);
  });

  it('use unique 32-hex ids and minimum plans (Free only for the Free ruleset)', () => {
    const ids = ManagedRulesets.flatMap((rs) => rs.rules.map((r) => r.id));
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{32}$/);
    expect(ManagedRulesets.map((r) => r.minimum_plan)).toEqual(['pro', 'pro', 'free', 'pro']);
  });

  it('give every catalog expression a valid Rules language expression of the managed phase', () => {
    let count = 0;
    for (const rs of ManagedRulesets) {
      for (const r of rs.rules) {
        if (r.expression === undefined) continue;
        count++;
        expect(() => parse(r.expression!, { phase: 'http_request_firewall_managed' }), `${rs.alias} ${r.id}`).not.toThrow();
      }
    }
    for (const pkg of PreviousWafPackages) {
      for (const g of pkg.groups) for (const r of g.rules) {
        const e = legacyRuleExpression(pkg, r);
        if (e !== undefined) expect(() => parse(e, { phase: 'http_request_firewall_managed' }), `${pkg.alias} ${r.id}`).not.toThrow();
      }
    }
    expect(count).toBeGreaterThan(40);
  });

  it('show managed rulesets in the Rulesets API shape without zonewall fields', () => {
    const view = managedRulesetView(findManagedRuleset(OwaspRulesetId)!, true);
    expect(view).toMatchObject({ kind: 'managed', phase: 'http_request_firewall_managed', source: 'firewall_managed', version: '36' });
    const threshold = (view.rules as Record<string, unknown>[]).find((r) => r.id === OwaspThresholdRuleId)!;
    expect(threshold.score_threshold).toBe(40);
    expect(threshold).not.toHaveProperty('expression');
    expect(managedRulesetView(findManagedRuleset(ManagedRulesetId)!, false)).not.toHaveProperty('rules');
  });
});

describe('previous WAF packages', () => {
  it('ship the real package ids, names and detection modes', () => {
    expect(findPackage(CloudflarePackageId)).toMatchObject({ name: 'CloudFlare', detection_mode: 'traditional' });
    expect(findPackage(OwaspPackageId)).toMatchObject({ name: 'OWASP ModSecurity Core Rule Set', detection_mode: 'anomaly' });
    expect(CloudflarePackageId).toBe('1e334934fd7ae32ad705667f8c1057aa');
    expect(OwaspPackageId).toBe('c504870194831cd12c3fc0284f294abb');
  });

  it('have the real group names and known ids', () => {
    const cf = findPackage('cloudflare')!;
    expect(cf.groups.map((g) => g.name)).toEqual(['Cloudflare Specials', 'Cloudflare WordPress', 'Cloudflare Drupal', 'Cloudflare Plone', 'Cloudflare Php']);
    expect(cf.groups.find((g) => g.name === 'Cloudflare Php')!.id).toBe('c8485e461f935bead889fa0fe87dd76e');
    const owasp = findPackage('owasp')!;
    expect(owasp.groups.find((g) => g.name === 'OWASP Bad Robots')!.id).toBe('07d700cf30fda7548be94ff01087d0c4');
    expect(owasp.groups).toHaveLength(20);
    for (const g of owasp.groups) expect(g.name.startsWith('OWASP ')).toBe(true);
  });

  it('give rules the real modes: anomaly and allow rules on/off, deny rules five modes', () => {
    const owasp = findPackage('owasp')!;
    const crawler = owasp.groups[0]!.rules.find((r) => r.id === '990012')!;
    expect(allowedModes(owasp, crawler)).toEqual(['on', 'off']);
    expect(defaultRuleMode(owasp, crawler)).toBe('on');
    const cf = findPackage('cloudflare')!;
    const padding = cf.groups[0]!.rules.find((r) => r.id === '100048')!;
    expect(allowedModes(cf, padding)).toEqual(['default', 'disable', 'simulate', 'block', 'challenge']);
    expect([padding.default_mode, defaultRuleMode(cf, padding)]).toEqual(['disable', 'default']);
    const jetpack = cf.groups[1]!.rules.find((r) => r.kind === 'allow')!;
    expect(allowedModes(cf, jetpack)).toEqual(['on', 'off']);
  });

  it('map every CloudFlare deny rule and group to something that exists in the new WAF', () => {
    const cf = findPackage('cloudflare')!;
    const managed = findManagedRuleset(cf.replaced_by)!;
    for (const g of cf.groups) {
      if (g.category !== undefined) expect(hasCategory(managed, g.category), g.name).toBe(true);
      for (const r of g.rules) if (r.new_rule_id !== undefined) expect(replacementOf(cf, r)?.legacy_id, r.id).toBe(r.id);
    }
  });
});
