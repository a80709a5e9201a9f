import { describe, expect, it } from 'vitest';
import { checkAgainstZone, formatIssue, validateManifestText, type DesiredZone } from '../../src/manifest/index.js';
import { recordMatches } from '../../src/manifest/plan-tier.js';
import { doc, issuesOf } from './helpers/issues.js';

function zoneOf(text: string): DesiredZone {
  const r = validateManifestText(text, 'zone.yaml');
  expect(r.issues).toEqual([]);
  return r.zone!;
}

const rules = (n: number, paused = 0): string[] => Array.from({ length: n }, (_, i) => [
  `  r${i}:`, '    action: block', `    filter: {expression: http.host eq "h${i}"}`, ...(i < paused ? ['    paused: true'] : []),
]).flat();

describe('checkAgainstZone (plan tiers)', () => {
  it('reports nothing when the tier is unknown', () => {
    const zone = zoneOf(doc('zone: x', 'firewall_rules:', '  audit:', '    action: log', '    filter: {expression: http.host matches "a"}'));
    expect(checkAgainstZone(zone, {})).toEqual([]);
  });

  it('log needs enterprise; matches needs business', () => {
    const zone = zoneOf(doc('zone: x', 'firewall_rules:', '  audit:', '    action: log', '    filter: {expression: http.host matches "a"}'));
    expect(checkAgainstZone(zone, { plan: 'pro' }).map(formatIssue)).toEqual([
      'zone.yaml:4:13: firewall_rules.audit.action: log needs an Enterprise plan (the zone is on the pro plan)',
      'zone.yaml:5:36: firewall_rules.audit.filter.expression: the matches operator needs a Business or Enterprise plan (the zone is on the pro plan)',
    ]);
    expect(checkAgainstZone(zone, { plan: 'business' }).map((i) => i.path)).toEqual(['firewall_rules.audit.action']);
    expect(checkAgainstZone(zone, { plan: 'enterprise' })).toEqual([]);
  });

  it('points the matches caret at the operator, also in quoted and multi-line expressions', () => {
    const zone = zoneOf(doc('zone: x', 'filters:', '  quoted:', '    expression: "ssl and http.host ~ \\"a\\""', '  block:', '    expression: >-',
      '      ssl and', '      http.host matches "b"'));
    expect(checkAgainstZone(zone, { plan: 'pro' }).map(formatIssue)).toEqual([
      'zone.yaml:4:36: filters.quoted.expression: the matches operator needs a Business or Enterprise plan (the zone is on the pro plan)',
      'zone.yaml:8:17: filters.block.expression: the matches operator needs a Business or Enterprise plan (the zone is on the pro plan)',
    ]);
  });

  it('counts active rules against the plan quota (paused rules do not count)', () => {
    expect(checkAgainstZone(zoneOf(doc('zone: x', 'firewall_rules:', ...rules(7, 2))), { plan: 'free' })).toEqual([]);
    expect(checkAgainstZone(zoneOf(doc('zone: x', 'firewall_rules:', ...rules(6))), { plan: 'free' }).map(formatIssue)).toEqual([
      'zone.yaml:18:3: firewall_rules.r5: the free plan allows 5 active firewall rules and this is active rule 6 of 6: pause or remove 1, or use a higher plan',
    ]);
  });

  it('counts Page Rules against the plan quota (disabled ones count too)', () => {
    const pages = (n: number) => Array.from({ length: n }, (_, i) => [`  p${i}:`, `    url: "x/p${i}/*"`, '    disable_security: true', ...(i === 0 ? ['    status: disabled'] : [])]).flat();
    expect(checkAgainstZone(zoneOf(doc('zone: x', 'page_rules:', ...pages(3))), { plan: 'free' })).toEqual([]);
    expect(checkAgainstZone(zoneOf(doc('zone: x', 'page_rules:', ...pages(4))), { plan: 'free' }).map((i) => `${i.path}: ${i.message}`)).toEqual([
      'page_rules.p3: the free plan allows 3 Page Rules and this is rule 4 of 4 (disabled ones count too): remove 1, or use a higher plan',
    ]);
  });

  it('free zones deploy only the free managed ruleset and have no previous WAF', () => {
    const zone = zoneOf(doc('zone: x', 'managed_rules:', '  - ruleset: free', '  - ruleset: managed', 'previous_waf:', '  rules: {"100048": disable}'));
    expect(checkAgainstZone(zone, { plan: 'free' }).map(formatIssue)).toEqual([
      'zone.yaml:4:14: managed_rules[1].ruleset: this managed ruleset needs a Pro plan or higher (the zone is on the free plan); a free zone can deploy only the free ruleset',
      'zone.yaml:5:1: previous_waf: the previous WAF needs a Pro plan or higher (the zone is on the free plan)',
    ]);
    expect(checkAgainstZone(zone, { plan: 'pro', waf: 'new' })).toEqual([]);
    // Offline, a pro zone is one as created: on the previous WAF, where enabled managed rulesets are refused (11007, issue 31).
    expect(checkAgainstZone(zone, { plan: 'pro' }).map((i) => i.path)).toEqual(['managed_rules[0]', 'managed_rules[1]']);
  });

  it('validation mode needs enterprise', () => {
    const zone = zoneOf(doc('zone: x', 'waf_migration: validation', 'managed_rules: []'));
    expect(checkAgainstZone(zone, { plan: 'pro' }).map((i) => i.path)).toEqual(['waf_migration']);
  });

  it('validate uses the manifest plan offline, and an explicit tier wins over it', () => {
    const text = doc('zone: x', 'plan: enterprise', 'firewall_rules:', '  audit:', '    action: log', '    filter: {expression: ssl}');
    expect(issuesOf(text)).toEqual([]);
    expect(issuesOf(text, 'business')).toEqual(['zone.yaml:5:13: firewall_rules.audit.action: log needs an Enterprise plan (the zone is on the business plan)']);
  });

  it('`~` is matches too', () => {
    expect(issuesOf(doc('zone: x', 'plan: pro', 'filters:', '  a:', '    expression: http.host ~ "tilde"'))).toEqual([
      'zone.yaml:5:27: filters.a.expression: the matches operator needs a Business or Enterprise plan (the zone is on the pro plan)']);
  });

  it('knows whether an expression uses matches from the expression check, without parsing it again', () => {
    const zone = zoneOf(doc('zone: x', 'filters:', '  a:', '    expression: ip.src eq 192.0.2.177'));
    expect(checkAgainstZone(zone, { plan: 'pro' })).toEqual([]);
    // What the expression check recorded is what the tier check answers (a wrong record shows it).
    recordMatches(zone.filters[0].expression, true);
    try {
      // A copy: the zone itself was checked on this tier already, and is answered as it was (`lastChecks`).
      expect(checkAgainstZone({ ...zone }, { plan: 'pro' }).map((i) => i.message)).toEqual([
        'the matches operator needs a Business or Enterprise plan (the zone is on the pro plan)']);
    } finally {
      recordMatches(zone.filters[0].expression, false);
    }
  });
});

describe('validate --plan TIER checks the generation the manifest means', () => {
  // A manifest that says nothing means the new WAF (issue 32); --plan assumed the previous one and
  // refused enabled managed rulesets on Pro (11007) that the service accepts on a zone it creates today.
  it('no 11007 for a manifest that says nothing; 11007 for one that keeps the previous WAF', () => {
    const says = (extra: string[]) => validateManifestText(doc('zone: x', 'managed_rules:', '  - ruleset: managed', ...extra), 'zone.yaml', { tier: 'pro' }).issues.map(formatIssue);
    expect(says([]).filter((m) => m.includes('11007'))).toEqual([]);
    expect(says(['waf_migration: none']).some((m) => m.includes('11007'))).toBe(true);
  });
});

describe('11007 names the item where it is in managed_rules', () => {
  // It counted the deployments only: an exception before the deployment made it name managed_rules[0].
  it('counts the exceptions before the deployment', () => {
    const text = doc('zone: x', 'managed_rules:', '  - ref: health', '    skip: current', '    expression: http.request.uri.path eq "/health"', '  - ruleset: managed', 'waf_migration: none');
    const issues = validateManifestText(text, 'zone.yaml', { tier: 'pro' }).issues.map(formatIssue).filter((m) => m.includes('11007'));
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatch(/^zone\.yaml:6:5: managed_rules\[1\]: /);
  });
});
