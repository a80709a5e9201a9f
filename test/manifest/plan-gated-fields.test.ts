/**
 * Plan-gated fields in custom rules (issue 33, rules-language.md §2.1): `validate --plan TIER` and
 * `plan` refuse what the engine refuses with 20204 (the same table, `src/api`'s `PlanGatedFields`),
 * as an error at the rule's expression.
 */
import { describe, expect, it } from 'vitest';
import { checkAgainstZone, formatIssue, validateManifestText } from '../../src/manifest/index.js';
import { tierFindings } from '../../src/plan/tier.js';

const manifest = (expression: string) => ['zone: x', 'custom_rules:', '  r:', '    action: block', `    expression: '${expression}'`, ''].join('\n');

function issues(expression: string, plan: 'free' | 'pro' | 'business' | 'enterprise'): string[] {
  const r = validateManifestText(manifest(expression), 'zone.yaml');
  expect(r.issues).toEqual([]);
  return checkAgainstZone(r.zone!, { plan }).map(formatIssue);
}

describe('plan-gated fields', () => {
  it('attack scores need Enterprise, the score class Business', () => {
    expect(issues('cf.waf.score lt 20', 'free')).toEqual([
      'zone.yaml:5:17: custom_rules.r.expression: cf.waf.score (attack scores) needs an Enterprise plan or higher (the zone is on the free plan)',
    ]);
    expect(issues('cf.waf.score.sqli lt 20', 'business')).toHaveLength(1);
    expect(issues('cf.waf.score lt 20', 'enterprise')).toEqual([]);
    expect(issues('cf.waf.score.class eq "attack"', 'pro')).toEqual([
      'zone.yaml:5:17: custom_rules.r.expression: cf.waf.score.class (the attack score class) needs a Business plan or higher (the zone is on the pro plan)',
    ]);
    expect(issues('cf.waf.score.class eq "attack"', 'business')).toEqual([]);
  });

  it('subdivisions and is_in_european_union need Business; bot management and body fields Enterprise', () => {
    expect(issues('ip.src.subdivision_1_iso_code eq "GB-ENG"', 'pro')).toHaveLength(1);
    expect(issues('ip.src.subdivision_1_iso_code eq "GB-ENG"', 'business')).toEqual([]);
    expect(issues('ip.src.is_in_european_union', 'pro')).toHaveLength(1);
    expect(issues('cf.bot_management.score lt 30 and http.request.body.raw contains "x"', 'business').length).toBe(2);
    expect(issues('http.host eq "subdivision_1.example"', 'free')).toEqual([]);
  });

  it('plan reports them as tier findings', () => {
    const r = validateManifestText(manifest('cf.waf.score lt 20'), 'zone.yaml');
    const findings = tierFindings(r.zone!, { zone: { id: 'z', name: 'x', plan: 'pro' } } as never);
    expect(findings.map((f) => [f.code, f.level, f.location?.line])).toEqual([['tier', 'error', 5]]);
    expect(findings[0]!.message).toContain('cf.waf.score (attack scores) needs an Enterprise plan');
  });

  it('validate --plan TIER reports them with the tier given', () => {
    const r = validateManifestText(manifest('cf.waf.score lt 20'), 'zone.yaml', { tier: 'free' });
    expect(r.issues.map(formatIssue)).toEqual(['zone.yaml:5:17: custom_rules.r.expression: cf.waf.score (attack scores) needs an Enterprise plan or higher (the zone is on the free plan)']);
  });
});

/** Every kind's expressions: filters (and inline filters), rate limiting rules, managed-rules exceptions. */
describe('plan-gated fields in every kind', () => {
  function check(text: string, plan: 'free' | 'pro' | 'business' | 'enterprise'): string[] {
    const r = validateManifestText(text, 'zone.yaml');
    expect(r.issues.map(formatIssue)).toEqual([]);
    return checkAgainstZone(r.zone!, { plan, waf: 'new' }).map(formatIssue);
  }

  it('a filter, and the inline filter of a firewall rule', () => {
    const text = ['zone: x', 'waf_migration: none', 'filters:', '  eu:', '    expression: ip.src.is_in_european_union', 'firewall_rules:',
      '  eu:', '    action: block', '    filter: eu', '  bots:', '    action: block', '    filter:', '      expression: cf.bot_management.score lt 30', ''].join('\n');
    expect(check(text, 'pro')).toEqual([
      'zone.yaml:5:17: filters.eu.expression: ip.src.is_in_european_union (geo subdivisions and is_in_european_union) needs a Business plan or higher (the zone is on the pro plan)',
      'zone.yaml:13:19: firewall_rules.bots.filter.expression: cf.bot_management.score (Bot Management fields (an Enterprise add-on)) needs an Enterprise plan or higher (the zone is on the pro plan)',
    ]);
    expect(check(text, 'business')).toHaveLength(1);
    expect(check(text, 'enterprise')).toEqual([]);
    // validate --plan TIER: the same issues, with the tier given.
    expect(validateManifestText(text, 'zone.yaml', { tier: 'pro' }).issues.map(formatIssue)).toEqual(check(text, 'pro'));
  });

  it('a rate limiting rule: its counting expression (response fields allowed), and its expression once', () => {
    const text = (expression: string, counting: string) => ['zone: x', 'rate_limiting_rules:', '  login:', '    action: block', `    expression: '${expression}'`,
      '    ratelimit:', '      characteristics: [ip.src]', '      period: 10', '      requests_per_period: 5', '      mitigation_timeout: 10',
      `      counting_expression: '${counting}'`, ''].join('\n');
    expect(check(text('http.request.uri.path eq "/login"', 'http.response.code eq 401 and cf.waf.score lt 20'), 'business')).toEqual([
      'zone.yaml:11:28: rate_limiting_rules.login.ratelimit.counting_expression: cf.waf.score (attack scores) needs an Enterprise plan or higher (the zone is on the business plan)',
    ]);
    expect(check(text('http.request.uri.path eq "/login"', 'ip.src.subdivision_1_iso_code eq "GB-ENG"'), 'business')).toEqual([]);
    expect(check(text('cf.waf.score lt 20', 'http.response.code eq 401'), 'business')).toHaveLength(1);
  });

  it('a managed-rules exception and a deployment, at their place in managed_rules', () => {
    const text = ['zone: x', 'managed_rules:', '  - ruleset: managed', '  - ref: own-scanner', '    skip:', '      rulesets: [owasp]',
      '    expression: http.request.body.raw contains "x"', '  - ruleset: owasp', '    expression: ip.src.subdivision_1_iso_code eq "GB-ENG"', ''].join('\n');
    expect(check(text, 'pro')).toEqual([
      'zone.yaml:7:17: managed_rules[1].expression: http.request.body.raw (request body fields) needs an Enterprise plan or higher (the zone is on the pro plan)',
      'zone.yaml:9:17: managed_rules[2].expression: ip.src.subdivision_1_iso_code (geo subdivisions and is_in_european_union) needs a Business plan or higher (the zone is on the pro plan)',
    ]);
    expect(check(text, 'enterprise')).toEqual([]);
    // A free zone's refusal of a managed ruleset names the item's place too (after the exception).
    expect(check(text, 'free').filter((i) => i.includes('.ruleset:'))).toEqual([
      expect.stringMatching(/^zone\.yaml:3:14: managed_rules\[0\]\.ruleset: this managed ruleset needs a Pro plan/),
      expect.stringMatching(/^zone\.yaml:8:14: managed_rules\[2\]\.ruleset: this managed ruleset needs a Pro plan/),
    ]);
  });
});
