/**
 * The migration config over HTTP: seed 002's OWASP mapping table row by row, actions (simulate
 * becomes log), the CloudFlare package's groups and rules, firewall rules that bypass WAF managed
 * rules, and the zones that start elsewhere (Free zones, zones created with `waf: 'new'`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ids, codes, configOf, execute, result, startWafKit, type WafKit } from './kit.js';

let kit: WafKit;
let n = 0;
beforeAll(async () => { kit = await startWafKit(); });
afterAll(async () => { await kit.h.cleanup(); });
const zone = (plan: 'free' | 'pro' | 'business' | 'enterprise' = 'business', waf?: 'previous' | 'new') => kit.zone(`map${++n}.example`, plan, waf);

function owaspRule(config: { rules: Record<string, unknown>[] }): Record<string, any> {
  return config.rules.find((r) => (r.action_parameters as { id: string }).id === Ids.owasp)!;
}

describe('OWASP mapping table, row by row', () => {
  it.each([
    ['high', 2, 40],
    ['medium', 1, 25],
    ['low', 1, 40],
    ['default', 2, 40],
  ] as const)('sensitivity %s -> PL%i, score threshold %i', async (sensitivity, pl, threshold) => {
    const z = await zone();
    if (sensitivity !== 'default') result(await kit.api('PATCH', `/zones/${z}/firewall/waf/packages/${Ids.owaspPackage}`, { sensitivity }));
    const owasp = owaspRule(await configOf(kit, z));
    const disabledLevels = (owasp.action_parameters.overrides.categories as { category: string; enabled: boolean }[])
      .filter((c) => !c.enabled).map((c) => Number(c.category.replace('paranoia-level-', '')));
    expect(disabledLevels).toEqual([1, 2, 3, 4].filter((l) => l > pl));
    expect(owasp.action_parameters.overrides.rules).toEqual([{ id: Ids.threshold, score_threshold: threshold, action: 'challenge' }]);
    expect(owasp.enabled).toBe(true);
  });

  it.each([['simulate', 'log'], ['block', 'block'], ['challenge', 'challenge']] as const)('action mode %s -> %s', async (mode, action) => {
    const z = await zone();
    result(await kit.api('PATCH', `/zones/${z}/firewall/waf/packages/${Ids.owaspPackage}`, { action_mode: mode }));
    expect(owaspRule(await configOf(kit, z)).action_parameters.overrides.rules[0].action).toBe(action);
  });

  it('sensitivity off deploys the OWASP ruleset disabled', async () => {
    const z = await zone();
    result(await kit.api('PATCH', `/zones/${z}/firewall/waf/packages/${Ids.owaspPackage}`, { sensitivity: 'off' }));
    expect(owaspRule(await configOf(kit, z)).enabled).toBe(false);
  });

  it('the migrated OWASP settings are accepted by the entry point as they are', async () => {
    const z = await zone();
    result(await kit.api('PATCH', `/zones/${z}/firewall/waf/packages/${Ids.owaspPackage}`, { sensitivity: 'medium', action_mode: 'simulate' }));
    const saved = result<{ rules: Record<string, any>[] }>(await kit.put(z, await configOf(kit, z), 'waf_migration=pending&phase_two=1'));
    expect(owaspRule(saved).action_parameters.overrides.rules).toEqual([{ id: Ids.threshold, score_threshold: 25, action: 'log' }]);
  });
});

describe('the rest of the config', () => {
  it('carries group and rule settings of the CloudFlare package as overrides', async () => {
    const z = await zone();
    const base = `/zones/${z}/firewall/waf/packages/${Ids.cloudflarePackage}`;
    result(await kit.api('PATCH', `${base}/groups/${Ids.wordpressGroup}`, { mode: 'off' }));
    result(await kit.api('PATCH', `${base}/rules/100514`, { mode: 'simulate' }));
    const managed = (await configOf(kit, z)).rules.find((r) => (r.action_parameters as { id: string }).id === Ids.managed)! as Record<string, any>;
    expect(managed.action_parameters.overrides.categories).toEqual([{ category: 'wordpress', enabled: false }]);
    expect(managed.action_parameters.overrides.rules).toContainEqual({ id: '5f6744fa026a4638bda5b3d7d5e015dd', action: 'log' });
  });

  it('turns bypass WAF firewall rules into skip rules placed first, and ignores other rules', async () => {
    const z = await zone();
    result(await kit.api('POST', `/zones/${z}/firewall/rules`, [
      { action: 'bypass', products: ['waf'], description: 'office', filter: { expression: 'ip.src in {192.0.2.0/24}' } },
      { action: 'block', filter: { expression: 'http.request.uri.path eq "/admin"' } },
    ]));
    const config = await configOf(kit, z);
    expect(config.rules.map((r) => r.action)).toEqual(['skip', 'execute', 'execute']);
    expect(config.rules[0]).toMatchObject({ expression: 'ip.src in {192.0.2.0/24}', enabled: true, action_parameters: { ruleset: 'current' } });
    expect(String(config.rules[0]!.description)).toMatch(/^Migrated from firewall rule [0-9a-f]{32}: office$/);
  });

  it('deploys everything disabled when the previous WAF is switched off', async () => {
    const z = await zone();
    result(await kit.api('PATCH', `/zones/${z}/settings/waf`, { value: 'off' }));
    expect((await configOf(kit, z)).rules.map((r) => r.enabled)).toEqual([false, false]);
    expect(result(await kit.status(z))).toMatchObject({ old_waf_status: 'disabled', waf_state: 'previous_only' });
  });
});

describe('before migrating', () => {
  it.each(['pro', 'business'] as const)('a %s zone may PUT the entry point without waf_migration only with every rule disabled', async (plan) => {
    const z = await zone(plan);
    const enabled = await kit.put(z, { rules: [execute(Ids.managed), execute(Ids.owasp, {}, false)] });
    expect([enabled.status, codes(enabled)]).toEqual([400, [11007]]);
    const disabled = await kit.put(z, { rules: [execute(Ids.managed, {}, false), execute(Ids.owasp, {}, false)] });
    expect(disabled.status).toBe(200);
    expect(result(await kit.status(z))).toMatchObject({ waf_state: 'previous_only', old_waf_status: 'enabled', new_waf_status: 'disabled' });
  });

  it('an Enterprise zone may enable managed rulesets before migrating (both run, still previous only)', async () => {
    const z = await zone('enterprise');
    expect((await kit.put(z, { rules: [execute(Ids.managed)] })).status).toBe(200);
    expect(result(await kit.status(z))).toMatchObject({ waf_state: 'previous_only', migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'enabled' });
  });
});

describe('zones that start elsewhere', () => {
  it('a zone created with waf new has already migrated', async () => {
    const z = await zone('pro', 'new');
    expect(result(await kit.status(z))).toEqual({
      migration_state: 'completed', old_waf_status: 'disabled', new_waf_status: 'disabled', waf_state: 'new_only',
      created: expect.any(String), source: 'zone_creation',
    });
    expect(codes(await kit.api('GET', `/zones/${z}/firewall/waf/packages`))).toEqual([11010]);
    expect(result(await kit.check(z))).toMatchObject({ compatible: false, migration_state: 'completed', phase: 2 });
    expect(codes(await kit.config(z))).toEqual([11005]);
    expect((await kit.put(z, { rules: [execute(Ids.managed)] })).status).toBe(200);
    expect(result(await kit.status(z))).toMatchObject({ new_waf_status: 'enabled' });
  });

  it('POST /zones takes waf too', async () => {
    const created = result<{ id: string }>(await kit.api('POST', '/zones', { name: 'born-new.example', plan_tier: 'business', waf: 'new' }));
    expect(result(await kit.status(created.id))).toMatchObject({ waf_state: 'new_only' });
  });

  it('a Free zone has no previous WAF: it deploys the Free ruleset without migrating, and cannot migrate', async () => {
    const z = await zone('free');
    expect(result(await kit.status(z))).toMatchObject({ waf_state: 'previous_only', old_waf_status: 'disabled' });
    expect(codes(await kit.api('GET', `/zones/${z}/firewall/waf/packages`))).toEqual([11011]);
    expect(result(await kit.check(z))).toMatchObject({ compatible: false });
    const managed = await kit.put(z, { rules: [execute(Ids.managed)] });
    expect([managed.status, codes(managed)]).toEqual([400, [20204]]);
    expect((await kit.put(z, { rules: [execute(Ids.free)] })).status).toBe(200);
    expect(codes(await kit.put(z, { rules: [execute(Ids.free)] }, 'waf_migration=pending&phase_two=1'))).toEqual([11006]);
    expect(result(await kit.status(z))).toMatchObject({ new_waf_status: 'enabled' });
  });
});
