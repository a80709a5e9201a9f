/**
 * Three defects of issue 13, over HTTP: `phase_two` was ignored (phase 1's admission rules now apply
 * without it, on check, config and the entry point PUT); `waf_migration=pending` with no enabled
 * execute rule moved a zone to `new only` with both WAFs off (now 400 11014, nothing changes); an
 * incompatible check answered with `messages` (now empty, the reasons in the result).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ids, codes, configOf, execute, result, startWafKit, type WafKit } from './kit.js';

let kit: WafKit;
let n = 0;
beforeAll(async () => { kit = await startWafKit(); });
afterAll(async () => { await kit.h.cleanup(); });

async function zone(plan: 'pro' | 'business' | 'enterprise' = 'business'): Promise<string> {
  return kit.zone(`pp${++n}.example`, plan);
}
const checkPhase1 = async (z: string) => kit.api('GET', `/zones/${z}/waf_migration/check`);
const wafState = async (z: string) => result<{ waf_state: string; old_waf_status: string }>(await kit.status(z));

describe('pending needs an enabled execute rule', () => {
  it.each([
    ['every rule disabled', (c: { rules: Record<string, unknown>[] }) => ({ name: 'default', rules: c.rules.map((r) => ({ ...r, enabled: false })) })],
    ['no rules', () => ({ name: 'default', rules: [] })],
    ['only a skip rule', () => ({ rules: [{ action: 'skip', expression: 'true', action_parameters: { ruleset: 'current' } }] })],
  ])('%s: 400 11014, the zone stays previous only with its WAF on', async (_what, body) => {
    const z = await zone();
    const put = await kit.put(z, body(await configOf(kit, z)), 'waf_migration=pending&phase_two=1');
    expect([put.status, codes(put)]).toEqual([400, [11014]]);
    expect(put.body.errors[0]!.message).toContain('at least one enabled execute rule');
    expect(await wafState(z)).toMatchObject({ waf_state: 'previous_only', old_waf_status: 'enabled' });
    expect((await kit.getEntrypoint(z)).status).toBe(404);
  });

  it('finishing from validation mode is refused the same way', async () => {
    const z = await zone('enterprise');
    result(await kit.put(z, { rules: [execute(Ids.managed)] }, 'waf_migration=validation&phase_two=1'));
    const put = await kit.put(z, { rules: [execute(Ids.managed, {}, false)] }, 'waf_migration=1&phase_two=1');
    expect(codes(put)).toEqual([11014]);
    expect((await wafState(z)).waf_state).toBe('both');
  });
});

describe('the check answers a success with empty messages', () => {
  it('an incompatible zone: compatible false, the reasons in result.reasons, messages []', async () => {
    const z = await zone();
    result(await kit.api('POST', `/zones/${z}/firewall/waf/overrides`, { urls: ['pp.example/x*'], rules: { '100514': 'disable' } }));
    const check = await kit.check(z);
    expect([check.body.success, check.body.errors, check.body.messages]).toEqual([true, [], []]);
    expect(result(check)).toEqual({ compatible: false, migration_state: 'start', phase: 2, reasons: [{ code: 11001, message: expect.stringContaining('URI-based WAF override') }] });
  });
});

describe('phase_two', () => {
  it('without it, phase 1 refuses a zone whose OWASP package is on (check, config and PUT)', async () => {
    const z = await zone();
    expect(result(await checkPhase1(z))).toEqual({ compatible: false, migration_state: 'start', phase: 1, reasons: [{ code: 11012, message: expect.stringContaining('OWASP package is on (sensitivity high)') }] });
    const config = await kit.api('GET', `/zones/${z}/waf_migration/config`);
    expect([config.status, codes(config)]).toEqual([400, [11012]]);
    const body = await configOf(kit, z);
    expect(codes(await kit.put(z, body, 'waf_migration=pending'))).toEqual([11012]);
    expect((await wafState(z)).waf_state).toBe('previous_only');
    expect((await kit.put(z, body, 'waf_migration=pending&phase_two=1')).status).toBe(200);
  });

  it('phase 1 admits the WAF off, or only the vendor package', async () => {
    const off = await zone();
    result(await kit.api('PATCH', `/zones/${off}/settings/waf`, { value: 'off' }));
    expect(result(await checkPhase1(off))).toMatchObject({ compatible: true, phase: 1, reasons: [] });
    const vendorOnly = await zone('pro');
    result(await kit.api('PATCH', `/zones/${vendorOnly}/firewall/waf/packages/${Ids.owaspPackage}`, { sensitivity: 'off' }));
    expect(result(await checkPhase1(vendorOnly))).toMatchObject({ compatible: true, phase: 1 });
    expect((await kit.api('GET', `/zones/${vendorOnly}/waf_migration/config?phase_two=0`)).status).toBe(200);
    expect((await kit.put(vendorOnly, await configOf(kit, vendorOnly), 'waf_migration=pending')).status).toBe(200);
  });

  it('phase 1 refuses firewall rules and Page Rules that bypass or switch the WAF (11013); phase 2 migrates them', async () => {
    const z = await zone();
    result(await kit.api('PATCH', `/zones/${z}/firewall/waf/packages/${Ids.owaspPackage}`, { sensitivity: 'off' }));
    result(await kit.api('POST', `/zones/${z}/firewall/rules`, [{ action: 'bypass', products: ['waf'], paused: true, filter: { expression: 'ip.src eq 192.0.2.9' } }]));
    result(await kit.api('POST', `/zones/${z}/pagerules`, { targets: [{ target: 'url', constraint: { operator: 'matches', value: `pp${n}.example/a/*` } }], actions: [{ id: 'waf', value: 'off' }] }));
    const reasons = result<{ reasons: { code: number; message: string }[] }>(await checkPhase1(z)).reasons;
    expect(reasons).toEqual([{ code: 11013, message: expect.stringContaining('1 firewall rule bypassing WAF managed rules and 1 Page Rule with disable_security or waf') }]);
    expect(result(await kit.check(z))).toMatchObject({ compatible: true, phase: 2 });
  });

  it('refuses a phase_two value other than 1/true/0/false with 11015', async () => {
    const z = await zone();
    expect(codes(await kit.api('GET', `/zones/${z}/waf_migration/check?phase_two=2`))).toEqual([11015]);
    expect(codes(await kit.put(z, await configOf(kit, z), 'waf_migration=pending&phase_two=yes'))).toEqual([11015]);
  });
});
