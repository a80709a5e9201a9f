/**
 * WAF custom rules in the trace: the pure evaluator (`traceCustomRules`, what `zonewall test` runs
 * offline) and `traceZone`'s order (firewall rules, custom rules, the managed phase, the previous
 * WAF), then the same over `POST /zones/{id}/trace` on a real server with rules written through the
 * Rulesets API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExecutionContext, requestFields, type RequestDescription } from '../../../src/expr/index.js';
import { traceCustomRules, traceZone, type StoredRuleset, type ZoneTraceInput } from '../../../src/engine/index.js';
import { defaultSettings } from '../../../src/engine/previous-waf/model.js';
import { Ids, execute, result, startWafKit, type WafKit } from '../migration/kit.js';

const req = (d: RequestDescription) => new ExecutionContext(requestFields(d));
const admin = req({ path: '/admin', ip: '192.0.2.1' });
const log4j = req({ path: '/', headers: { 'X-Api-Version': '${jndi:ldap://x/a}' } });

function custom(...rules: [ref: string, action: string, expression: string, params?: unknown, enabled?: boolean][]): StoredRuleset {
  return {
    id: 'c', name: 'default', description: '', version: '1', last_updated: '',
    rules: rules.map(([ref, action, expression, params, enabled = true]) => ({
      id: `id-${ref}`, ref, version: '1', last_updated: '', action, expression, description: '', enabled,
      ...(params !== undefined ? { action_parameters: params } : {}),
    })),
  };
}

describe('traceCustomRules', () => {
  it('runs rules in list order: log goes on, the first terminating action wins, disabled rules never run', () => {
    const t = traceCustomRules(custom(
      ['off', 'block', 'true', undefined, false],
      ['audit', 'log', 'http.request.uri.path eq "/admin"'],
      ['other', 'block', 'http.request.uri.path eq "/other"'],
      ['guard', 'managed_challenge', 'http.request.uri.path eq "/admin"'],
      ['later', 'block', 'true'],
    ), admin);
    expect(t.matched.map((m) => [m.ref, m.action])).toEqual([['audit', 'log'], ['guard', 'managed_challenge']]);
    expect([t.action, t.rule?.ref, t.enabled]).toEqual(['managed_challenge', 'guard', true]);
  });

  it('skip ruleset current ends the custom rules; phases and products are recorded and evaluation goes on', () => {
    const t = traceCustomRules(custom(
      ['no-waf', 'skip', 'true', { phases: ['http_request_firewall_managed'], products: ['waf'] }],
      ['office', 'skip', 'ip.src eq 192.0.2.1', { ruleset: 'current' }],
      ['block-all', 'block', 'true'],
    ), admin);
    expect([t.action, t.rule, t.ended_by, t.skipped_phases, t.skipped_products]).toEqual([null, null, 'office', ['http_request_firewall_managed'], ['waf']]);
    expect(traceCustomRules(custom(['office', 'skip', 'ip.src eq 192.0.2.1', { ruleset: 'current' }], ['block-all', 'block', 'true']), req({ ip: '198.51.100.1' })).rule?.ref).toBe('block-all');
  });

  it('skip phase current ends the custom phase like ruleset current (no zone custom rulesets run after it); products are recorded', () => {
    const t = traceCustomRules(custom(
      ['office', 'skip', 'ip.src eq 192.0.2.1', { phase: 'current', products: ['waf'] }],
      ['block-all', 'block', 'true'],
    ), admin);
    expect([t.action, t.rule, t.ended_by, t.skipped_phases, t.skipped_products]).toEqual([null, null, 'office', [], ['waf']]);
    expect(traceCustomRules(custom(['office', 'skip', 'ip.src eq 192.0.2.1', { phase: 'current' }], ['block-all', 'block', 'true']), req({ ip: '198.51.100.1' })).rule?.ref).toBe('block-all');
  });

  it('reports a custom block response status and an empty entry point as not enabled', () => {
    const t = traceCustomRules(custom(['api', 'block', 'true', { response: { status_code: 429, content_type: 'text/plain', content: 'slow' } }]), admin);
    expect(t.rule).toEqual({ ref: 'api', id: 'id-api', action: 'block', status_code: 429 });
    expect(traceCustomRules(undefined, admin)).toMatchObject({ enabled: false, action: null, matched: [] });
  });
});

describe('traceZone with custom rules', () => {
  const zone = (over: Partial<ZoneTraceInput>): ZoneTraceInput => ({
    wafState: 'new_only', plan: 'enterprise', firewallRules: [], entrypoint: undefined, previousWaf: defaultSettings(), ...over,
  });
  const managedEntry = { id: 'e', name: 'default', description: '', version: '1', last_updated: '', rules: [
    { id: 'm', ref: 'm', version: '1', last_updated: '', action: 'execute' as const, expression: 'true', description: '', enabled: true, action_parameters: { id: Ids.managed } },
  ] };

  it('a terminating custom rule decides before the managed phase, named by ref', () => {
    const t = traceZone(zone({ entrypoint: managedEntry, customRules: custom(['deny-log4j', 'block', 'any(http.request.headers.values[*] contains "jndi")']) }), log4j);
    expect([t.action, t.decided_by, t.custom_rules?.rule?.ref]).toEqual(['block', 'custom_rules', 'deny-log4j']);
    expect(t.managed_rules?.skipped_by).toBe('custom rule deny-log4j (block) ended the request before the WAF');
  });

  it('without a custom match the managed phase decides; a skip of the phase lets the request through', () => {
    const none = traceZone(zone({ entrypoint: managedEntry, customRules: custom(['x', 'block', 'http.host eq "nope"']) }), log4j);
    expect([none.decided_by, none.custom_rules?.action]).toEqual(['managed_rules', null]);
    const skipped = traceZone(zone({ entrypoint: managedEntry, customRules: custom(['trust', 'skip', 'true', { phases: ['http_request_firewall_managed'] }]) }), log4j);
    expect([skipped.action, skipped.decided_by, skipped.managed_rules?.skipped_by]).toEqual([null, null, 'a custom rule skips http_request_firewall_managed']);
  });

  it('firewall rules still run first where the zone has them, and products waf skips the previous WAF', () => {
    const fw = { rule: { id: 'fw1', filterId: 'f1', action: 'allow', priority: null, paused: false, description: '', ref: '', products: [], createdOn: '', modifiedOn: '' }, filter: { id: 'f1', expression: 'true', paused: false } } as never;
    const t = traceZone(zone({ firewallRules: [fw], customRules: custom(['all', 'block', 'true']) }), admin);
    expect([t.action, t.decided_by, t.custom_rules?.skipped_by]).toEqual(['allow', 'firewall_rules', 'firewall rule fw1 (allow) skipped the remaining firewall and custom rules']);
    const prev = traceZone(zone({ wafState: 'previous_only', plan: 'pro', customRules: custom(['no-legacy', 'skip', 'true', { products: ['waf'] }]) }), log4j);
    expect(prev.previous_waf?.skipped).toBe('a custom rule skips waf (the previous WAF)');
    expect(traceZone(zone({ wafState: 'previous_only', plan: 'pro' }), log4j).previous_waf?.action).not.toBeNull();
  });

  it('leaves custom_rules out for a zone without the entry point', () => {
    expect(traceZone(zone({}), admin)).not.toHaveProperty('custom_rules');
  });
});

describe('POST /zones/{id}/trace with custom rules', () => {
  let kit: WafKit;
  beforeAll(async () => { kit = await startWafKit(); });
  afterAll(async () => { await kit.h.cleanup(); });

  it('answers with the custom rule that decided, by ref, before the managed phase', async () => {
    const z = await kit.zone('trace-custom.example', 'enterprise', 'new');
    result(await kit.put(z, { rules: [execute(Ids.managed)] }));
    result(await kit.api('PUT', `/zones/${z}/rulesets/phases/http_request_firewall_custom/entrypoint`, { rules: [
      { ref: 'office', action: 'skip', expression: 'ip.src eq 192.0.2.1', action_parameters: { ruleset: 'current', phases: ['http_request_firewall_managed'] } },
      { ref: 'admin', action: 'block', expression: 'http.request.uri.path eq "/admin"' },
    ] }));
    const blocked = result<any>(await kit.trace(z, { path: '/admin', ip: '198.51.100.1' }));
    expect([blocked.action, blocked.decided_by, blocked.custom_rules.rule.ref]).toEqual(['block', 'custom_rules', 'admin']);
    const office = result<any>(await kit.trace(z, { path: '/admin', ip: '192.0.2.1', headers: { 'X-Api-Version': '${jndi:ldap://x/a}' } }));
    expect([office.action, office.custom_rules.ended_by, office.managed_rules.skipped_by]).toEqual([null, 'office', 'a custom rule skips http_request_firewall_managed']);
  });
});
