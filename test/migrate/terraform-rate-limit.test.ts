/**
 * `cloudflare_rate_limit` (the previous rate limiting API) from provider v4 and v5 state, converted
 * into `rate_limiting_rules` as the service upgraded such rules: rounding, modes, quota, report rows.
 */
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { checkConvertedManifest, convertTerraform, renderConversionReport, renderConvertedManifest } from '../../src/migrate/index.js';
import { nearest, UpgradePeriods, UpgradeTimeouts } from '../../src/migrate/terraform-rate-limit.js';

const zone = (plan: string) => ({ address: 'cloudflare_zone.z', type: 'cloudflare_zone', name: 'z', attributes: { id: 'z1', zone: 'rl.test', plan } });
/** Provider v4: nested blocks as one-element lists, "" and 0 unset. */
const v4 = { address: 'cloudflare_rate_limit.login', type: 'cloudflare_rate_limit', name: 'login', attributes: {
  id: 'aaaa1111bbbb2222', zone_id: 'z1', threshold: 20, period: 50, disabled: false, description: 'Login', bypass_url_patterns: ['rl.test/login/health'],
  match: [{ request: [{ url_pattern: 'rl.test/login*', schemes: ['_ALL_'], methods: ['POST'] }], response: [{ statuses: [401, 403], origin_traffic: true, headers: [] }] }],
  action: [{ mode: 'ban', timeout: 500, response: [{ content_type: 'application/json', body: '{"error":"slow down"}' }] }],
  correlate: [],
} };
/** Provider v5: objects, null unset. */
const v5 = { ...v4, attributes: {
  id: 'aaaa1111bbbb2222', zone_id: 'z1', threshold: 20, period: 50, disabled: false, description: 'Login', bypass: [{ name: 'url', value: 'rl.test/login/health' }],
  match: { request: { url: 'rl.test/login*', schemes: ['_ALL_'], methods: ['POST'] }, response: { statuses: [401, 403], origin_traffic: true, headers: null } },
  action: { mode: 'ban', timeout: 500, response: { content_type: 'application/json', body: '{"error":"slow down"}' } },
  correlate: null,
} };

describe('cloudflare_rate_limit', () => {
  it('rounds to the nearest supported value, a tie to the longer', () => {
    expect(nearest(50, UpgradePeriods)).toBe(45);
    expect(nearest(500, UpgradeTimeouts)).toBe(600);
    expect(nearest(35, UpgradePeriods)).toBe(40);
    expect(nearest(60, UpgradePeriods)).toBe(60);
  });

  it('v4 and v5 give the same rule, as the upgrade wrote it, in a manifest that validates', () => {
    const texts = [v4, v5].map((r) => renderConvertedManifest(convertTerraform([zone('enterprise'), r]), 'state'));
    expect(texts[0]).toBe(texts[1]);
    checkConvertedManifest(texts[0]!, 'state');
    expect(parse(texts[0]!).rate_limiting_rules).toEqual({ login: {
      action: 'block', description: 'Login',
      expression: 'http.request.full_uri wildcard "*://rl.test/login*" and http.request.method in {"POST"} and not http.request.full_uri wildcard "*://rl.test/login/health"',
      action_parameters: { response: { content_type: 'application/json', content: '{"error":"slow down"}' } },
      ratelimit: { characteristics: ['ip.src'], period: 45, requests_per_period: 20, mitigation_timeout: 600, counting_expression: 'http.response.code in {401 403}', requests_to_origin: true },
    } });
  });

  it('reports each rule with what the upgrade changed, and the state rm step', () => {
    const c = convertTerraform([zone('enterprise'), v4]);
    expect(c.notes).toContainEqual({ address: 'cloudflare_rate_limit.login', severity: 'warning', message: expect.stringMatching(/^previous rate limit converted to rate_limiting_rules\.login as the service upgraded it: action ban -> block, period 50 s -> 45 s, timeout 500 s -> 600 s;/) });
    expect(renderConversionReport(c, 'z.yaml')).toContain('terraform state rm cloudflare_rate_limit.login');
  });

  it('keeps the plan quota: a free zone keeps one rule, simulate becomes log', () => {
    const second = { ...v5, address: 'cloudflare_rate_limit.search', name: 'search', attributes: { ...v5.attributes, description: 'Search', action: { mode: 'simulate', timeout: 60, response: null } } };
    const c = convertTerraform([zone('free'), second, v5]);
    expect(Object.keys(c.rateLimitRules!.rules)).toEqual(['login']);
    expect(c.notes).toContainEqual({ address: 'cloudflare_rate_limit.search', severity: 'skipped', message: expect.stringMatching(/beyond the free plan's quota of 1/) });
    const enterprise = convertTerraform([zone('enterprise'), second]);
    expect(enterprise.rateLimitRules!.rules.search).toMatchObject({ action: 'log', ratelimit: { period: 45 } });
    expect(enterprise.rateLimitRules!.rules.search!.ratelimit).not.toHaveProperty('mitigation_timeout');
  });
});
