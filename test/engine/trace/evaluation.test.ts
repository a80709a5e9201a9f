import { describe, expect, it } from 'vitest';
import { ExecutionContext, requestFields, type RequestDescription } from '../../../src/expr/index.js';
import { CloudflarePackageId, OwaspPackageId, OwaspThresholdRuleId, findManagedRule, findManagedRuleset } from '../../../src/engine/catalog/index.js';
import type { RuleWithFilter } from '../../../src/engine/firewall-rules/store.js';
import { defaultSettings } from '../../../src/engine/previous-waf/model.js';
import type { Entrypoint, EntrypointRule } from '../../../src/engine/rulesets/types.js';
import { traceEntrypoint, traceFirewallRules, tracePreviousWaf, urlMatches } from '../../../src/engine/trace/index.js';
import { effectiveRule } from '../../../src/engine/trace/overrides.js';
import { wildcard } from '../../../src/engine/trace/url-pattern.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const req = (d: RequestDescription) => new ExecutionContext(requestFields(d));
const log4j = req({ path: '/', headers: { 'X-Api-Version': '${jndi:ldap://x/a}' } });
const owaspOnly = req({ path: '/search', query: "id=1 union select 1&x=' or '1'='1&u=javascript:alert(1)&i=<img src=x>", headers: { 'User-Agent': 'Mozilla/5.0', Accept: '*/*' } });
const xssSqli = req({ path: '/search', query: "q=<script>alert(1)</script>&id=1 union select 1", headers: { 'User-Agent': 'Mozilla/5.0', Accept: '*/*' } });

let seq = 0;
function fw(action: string, expression: string, over: Partial<RuleWithFilter['rule']> = {}, filterPaused = false): RuleWithFilter {
  const id = `fw${++seq}`;
  return {
    rule: { id, filterId: `f${id}`, action: action as never, priority: null, paused: false, description: '', ref: '', products: [], createdOn: '', modifiedOn: '', ...over },
    filter: { id: `f${id}`, expression, paused: filterPaused } as never,
  };
}
function entry(...rules: Partial<EntrypointRule>[]): Entrypoint {
  return {
    id: 'e', name: 'default', description: '', version: '1', last_updated: '',
    rules: rules.map((r, i) => ({ id: `r${i}`, ref: `r${i}`, version: '1', last_updated: '', action: 'execute', expression: 'true', description: '', enabled: true, action_parameters: { id: MANAGED }, ...r }) as EntrypointRule),
  };
}

describe('firewall rules', () => {
  it('run log and bypass without stopping and stop at the first terminating rule', () => {
    const rules = [fw('log', 'true'), fw('bypass', 'true', { products: ['waf', 'uaBlock'] }), fw('block', 'http.request.uri.path eq "/nope"'), fw('challenge', 'true'), fw('block', 'true')];
    const t = traceFirewallRules(rules, req({}));
    expect(t.matched.map((m) => m.action)).toEqual(['log', 'bypass', 'challenge']);
    expect([t.action, t.rule?.id, t.bypassed]).toEqual(['challenge', rules[3]!.rule.id, ['waf', 'uaBlock']]);
  });

  it('skip paused rules and rules whose filter is paused or gone', () => {
    const gone = fw('block', 'true');
    const t = traceFirewallRules([fw('block', 'true', { paused: true }), fw('block', 'true', {}, true), { ...gone, filter: undefined }], req({}));
    expect(t).toEqual({ matched: [], action: null, rule: null, bypassed: [] });
  });
});

describe('overrides', () => {
  const managed = findManagedRuleset(MANAGED)!;
  const owasp = findManagedRuleset(OWASP)!;
  const log4jRule = findManagedRule(managed, '5f6744fa026a4638bda5b3d7d5e015dd')!;
  it('take rule over category over ruleset over default, field by field', () => {
    expect(effectiveRule(managed, log4jRule, undefined)).toEqual({ enabled: true, action: 'block' });
    expect(effectiveRule(managed, log4jRule, { action: 'log', enabled: false })).toEqual({ enabled: false, action: 'log' });
    expect(effectiveRule(managed, log4jRule, { action: 'log', categories: [{ category: 'log4j', action: 'managed_challenge', enabled: true }] })).toEqual({ enabled: true, action: 'managed_challenge' });
    expect(effectiveRule(managed, log4jRule, { enabled: false, categories: [{ category: 'log4j', action: 'log' }], rules: [{ id: log4jRule.id, enabled: true }] })).toEqual({ enabled: true, action: 'log' });
  });
  it('let the last of several category overrides win', () => {
    expect(effectiveRule(managed, log4jRule, { categories: [{ category: 'java', action: 'log' }, { category: 'log4j', action: 'challenge' }] }).action).toBe('challenge');
  });
  it('keep OWASP scoring rules scoring unless a rule override sets their action', () => {
    const scoring = owasp.rules[0]!;
    expect(effectiveRule(owasp, scoring, { action: 'log' }).action).toBe('score');
    expect(effectiveRule(owasp, scoring, { rules: [{ id: scoring.id, action: 'block' }] }).action).toBe('block');
    const threshold = findManagedRule(owasp, OwaspThresholdRuleId)!;
    expect(effectiveRule(owasp, threshold, { action: 'log', rules: [{ id: threshold.id, score_threshold: 25 }] })).toEqual({ enabled: true, action: 'log', score_threshold: 25 });
  });
});

describe('the new WAF', () => {
  it('blocks Log4j headers with the Cloudflare Managed Ruleset', () => {
    const t = traceEntrypoint(entry({}), log4j);
    expect([t.enabled, t.action, t.rule?.rule_id, t.rule?.description]).toEqual([true, 'block', '5f6744fa026a4638bda5b3d7d5e015dd', 'Log4j Headers']);
  });

  it('honours log overrides (non-terminating) and skip rules', () => {
    const logged = traceEntrypoint(entry({ action_parameters: { id: MANAGED, overrides: { action: 'log' } } }), log4j);
    expect([logged.action, logged.matched.map((m) => m.action)]).toEqual([null, ['log']]);
    const skipped = traceEntrypoint(entry({ action: 'skip', expression: 'http.request.uri.path eq "/"', action_parameters: { ruleset: 'current' } }, {}), log4j);
    // The trace says which exception skipped which managed rules that match the request (issue 28).
    expect([skipped.action, skipped.skipped]).toEqual([null, [{ entrypoint_rule: 'r0', skip: { ruleset: 'current' },
      rules: [expect.objectContaining({ entrypoint_rule: 'r1', ruleset_id: MANAGED, rule_id: '5f6744fa026a4638bda5b3d7d5e015dd', action: 'block' })] }]]);
    const oneRule = traceEntrypoint(entry({ action: 'skip', action_parameters: { rules: { [MANAGED]: ['5f6744fa026a4638bda5b3d7d5e015dd'] } } }, {}), log4j);
    expect(oneRule.action).toBe(null);
    expect(oneRule.skipped[0]!.rules!.map((m) => m.rule_id)).toEqual(['5f6744fa026a4638bda5b3d7d5e015dd']);
  });

  it('scores OWASP rules and applies the threshold rule at the threshold', () => {
    const t = traceEntrypoint(entry({ action_parameters: { id: OWASP } }), xssSqli);
    expect(t.owasp!.score).toBeGreaterThanOrEqual(15);
    const strict = traceEntrypoint(entry({ action_parameters: { id: OWASP, overrides: { rules: [{ id: OwaspThresholdRuleId, score_threshold: 10, action: 'managed_challenge' }] } } }), xssSqli);
    expect([strict.action, strict.rule?.rule_id, strict.owasp?.exceeded, strict.owasp?.threshold]).toEqual(['managed_challenge', OwaspThresholdRuleId, true, 10]);
    const lax = traceEntrypoint(entry({ action_parameters: { id: OWASP, overrides: { rules: [{ id: OwaspThresholdRuleId, score_threshold: 60 }] } } }), xssSqli);
    expect([lax.action, lax.owasp?.exceeded]).toEqual([null, false]);
  });

  it('evaluates only the paranoia levels that category overrides leave enabled', () => {
    const quote = req({ path: '/', query: "name=o'brien", headers: { 'User-Agent': 'x', Accept: '*/*' } });
    const pl3 = traceEntrypoint(entry({ action_parameters: { id: OWASP, overrides: { categories: [{ category: 'paranoia-level-4', enabled: false }] } } }), quote);
    expect(pl3.owasp).toMatchObject({ score: 3, paranoia_levels: [1, 2, 3] });
    const pl1 = traceEntrypoint(entry({ action_parameters: { id: OWASP, overrides: { categories: ['2', '3', '4'].map((n) => ({ category: `paranoia-level-${n}`, enabled: false })) } } }), quote);
    expect(pl1.owasp).toMatchObject({ score: 0, paranoia_levels: [1], exceeded: false });
  });

  it('does nothing when every deployment is disabled', () => {
    expect(traceEntrypoint(entry({ enabled: false }), log4j)).toMatchObject({ enabled: false, action: null, matched: [] });
  });
});

describe('the previous WAF', () => {
  it('blocks with the CloudFlare package and challenges by mode', () => {
    expect(tracePreviousWaf(defaultSettings(), log4j, 'example.com', '/').rule).toMatchObject({ rule_id: '100514', action: 'block', mode: 'default' });
    const s = defaultSettings();
    s.ruleModes.set(`${CloudflarePackageId}/100514`, 'challenge');
    expect(tracePreviousWaf(s, log4j, 'example.com', '/').action).toBe('challenge');
    s.ruleModes.set(`${CloudflarePackageId}/100514`, 'simulate');
    const sim = tracePreviousWaf(s, log4j, 'example.com', '/');
    expect([sim.action, sim.matched[0]?.action]).toEqual([null, 'log']);
  });

  it('scores the OWASP package against the sensitivity threshold with the action mode', () => {
    const high = tracePreviousWaf(defaultSettings(), owaspOnly, 'example.com', '/search');
    expect(high.owasp).toMatchObject({ score: 25, sensitivity: 'high', threshold: 25, action_mode: 'challenge', exceeded: true });
    expect(high.rule).toMatchObject({ rule_id: '981176', action: 'challenge', score: 25 });
    expect(high.matched.filter((m) => m.action === 'score').map((m) => m.rule_id).sort()).toEqual(['950901', '958000', '959073', '973300', '981173', '981242']);
    const s = defaultSettings();
    s.packages.set(OwaspPackageId, { sensitivity: 'low', action_mode: 'block' });
    expect(tracePreviousWaf(s, owaspOnly, 'example.com', '/search').owasp).toMatchObject({ threshold: 60, exceeded: false });
    s.packages.set(OwaspPackageId, { sensitivity: 'medium', action_mode: 'simulate' });
    const simulated = tracePreviousWaf(s, owaspOnly, 'example.com', '/search');
    expect([simulated.action, simulated.owasp?.exceeded]).toEqual([null, false]);
    s.packages.set(OwaspPackageId, { sensitivity: 'off', action_mode: null });
    expect(tracePreviousWaf(s, owaspOnly, 'example.com', '/search').owasp).toBeUndefined();
  });

  it('applies the first matching URI-based override', () => {
    const s = defaultSettings();
    s.overrides.push(
      { id: 'o2', description: null, urls: ['example.com/*'], priority: 5, paused: false, groups: {}, rules: { '100514': 'simulate' }, rewrite_action: {} },
      { id: 'o1', description: null, urls: ['example.com/api/*'], priority: 1, paused: false, groups: { '4096833576e7a68a222fbc5993f98101': 'disable' }, rules: {}, rewrite_action: {} },
    );
    const api = tracePreviousWaf(s, log4j, 'example.com', '/api/x');
    expect([api.override, api.action]).toEqual(['o1', null]);
    const root = tracePreviousWaf(s, log4j, 'example.com', '/');
    expect([root.override, root.action, root.matched[0]?.action]).toEqual(['o2', null, 'log']);
    s.overrides[0]!.rewrite_action = { simulate: 'block' };
    expect(tracePreviousWaf(s, log4j, 'EXAMPLE.com', '/').action).toBe('block');
  });
});

describe('URL patterns of overrides', () => {
  it.each([
    ['example.com/*', 'example.com', '/a/b', true],
    ['example.com', 'example.com', '/anything', true],
    ['*.example.com/admin*', 'shop.example.com', '/admin/users', true],
    ['*.example.com/admin*', 'example.com', '/admin', false],
    ['https://example.com/api/*', 'example.com', '/api/v1', true],
    ['example.com/a\\*', 'example.com', '/a*', true],
    ['example.com/a\\*', 'example.com', '/ab', false],
  ] as const)('%s covers %s%s: %s', (pattern, host, path, expected) => expect(urlMatches(pattern, host, path)).toBe(expected));

  it('does not blow up on many stars', () => {
    expect(wildcard('*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(5000))).toBe(false);
  });
});
