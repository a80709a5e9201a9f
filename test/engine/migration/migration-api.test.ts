/**
 * The WAF migration over HTTP: every row of seed 002's state table and errors table, both spellings
 * of the modes, the Enterprise-only validation mode, the override deletion that unblocks a zone, and
 * the previous WAF's APIs refusing calls after the migration.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ids, codes, configOf, execute, result, startWafKit, withoutServerFields, type WafKit } from './kit.js';

let kit: WafKit;
let n = 0;
beforeAll(async () => { kit = await startWafKit(); });
afterAll(async () => { await kit.h.cleanup(); });
const zone = (plan: 'free' | 'pro' | 'business' | 'enterprise' = 'enterprise') => kit.zone(`m${++n}.example`, plan);

async function state(z: string): Promise<Record<string, unknown>> {
  return result(await kit.status(z));
}

describe('state table', () => {
  it.each(['validation', '2'])('previous only -> both with waf_migration=%s on a compatible Enterprise zone', async (mode) => {
    const z = await zone();
    expect(await state(z)).toEqual({ migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'disabled', waf_state: 'previous_only' });
    const put = await kit.put(z, withoutServerFields(await configOf(kit, z)), `waf_migration=${mode}&phase_two=1`);
    expect([put.status, put.body.errors, put.body.messages]).toEqual([200, [], []]);
    const s = await state(z);
    expect(s).toMatchObject({ migration_state: 'validation', old_waf_status: 'enabled', new_waf_status: 'enabled', waf_state: 'both', source: 'api' });
    expect(typeof s.created).toBe('string');
    expect(result(await kit.check(z))).toMatchObject({ compatible: true, migration_state: 'validation', phase: 2, reasons: [] });
    // Both WAFs' APIs answer in validation mode.
    expect((await kit.api('GET', `/zones/${z}/firewall/waf/packages`)).status).toBe(200);
  });

  it.each(['pending', '1'])('both -> new only with waf_migration=%s; the previous WAF is disabled', async (mode) => {
    const z = await zone();
    const config = await configOf(kit, z);
    result(await kit.put(z, withoutServerFields(config), 'waf_migration=validation&phase_two=1'));
    const put = await kit.put(z, config, `waf_migration=${mode}&phase_two=1`);
    expect(put.status).toBe(200);
    expect(await state(z)).toMatchObject({ migration_state: 'completed', old_waf_status: 'disabled', new_waf_status: 'enabled', waf_state: 'new_only' });
  });

  it.each([
    ['pro', 'pending'], ['pro', '1'], ['business', 'pending'], ['business', '1'], ['enterprise', 'pending'], ['enterprise', '1'],
  ] as const)('previous only -> new only on a %s zone with waf_migration=%s (previous WAF disabled automatically)', async (plan, mode) => {
    const z = await zone(plan);
    const put = await kit.put(z, await configOf(kit, z), `waf_migration=${mode}&phase_two=1`);
    expect(put.status).toBe(200);
    expect(result<{ rules: unknown[]; version: string }>(put).version).toBe('1');
    expect(await state(z)).toMatchObject({ waf_state: 'new_only', old_waf_status: 'disabled', new_waf_status: 'enabled' });
  });

  it('dashboard rows map to the same operations: Review = GET config, Deploy = PUT (pending on Pro/Business, validation on Enterprise), Turn off previous version = PUT pending', async () => {
    const business = await zone('business');
    result(await kit.put(business, await configOf(kit, business), 'waf_migration=pending&phase_two=1'));
    expect((await state(business)).waf_state).toBe('new_only');
    const enterprise = await zone('enterprise');
    const reviewed = await configOf(kit, enterprise);
    result(await kit.put(enterprise, withoutServerFields(reviewed), 'waf_migration=validation&phase_two=1'));
    expect((await state(enterprise)).waf_state).toBe('both');
    result(await kit.put(enterprise, reviewed, 'waf_migration=pending&phase_two=1'));
    expect((await state(enterprise)).waf_state).toBe('new_only');
  });

  it('new only is final: no way back to validation, and a repeated finish is a plain PUT', async () => {
    const z = await zone();
    const config = await configOf(kit, z);
    result(await kit.put(z, config, 'waf_migration=pending&phase_two=1'));
    const back = await kit.put(z, withoutServerFields(config), 'waf_migration=validation&phase_two=1');
    expect([back.status, codes(back)]).toEqual([400, [11005]]);
    expect(result(await kit.put(z, config, 'waf_migration=1&phase_two=1'))).toMatchObject({ version: '2' });
    expect((await state(z)).waf_state).toBe('new_only');
    expect(result(await kit.check(z))).toMatchObject({ compatible: false, migration_state: 'completed', phase: 2 });
  });

  it('an invalid configuration is not saved and does not move the zone', async () => {
    const z = await zone();
    const bad = await kit.put(z, { name: 'default', rules: [execute('0123456789abcdef0123456789abcdef')] }, 'waf_migration=pending&phase_two=1');
    expect([bad.status, codes(bad)]).toEqual([400, [20201]]);
    expect((await state(z)).waf_state).toBe('previous_only');
    expect((await kit.getEntrypoint(z)).status).toBe(404);
  });

  it('refuses an unknown waf_migration value', async () => {
    const z = await zone();
    const bad = await kit.put(z, await configOf(kit, z), 'waf_migration=finish&phase_two=1');
    expect([bad.status, codes(bad)]).toEqual([400, [11008]]);
  });
});

describe('errors table', () => {
  it('a zone with URI-based overrides is not eligible: check says compatible false, the PUT is refused', async () => {
    const z = await zone();
    result(await kit.api('POST', `/zones/${z}/firewall/waf/overrides`, { urls: ['m.example/admin/*'], rules: { '100514': 'disable' } }));
    const check = await kit.check(z);
    expect(result(check)).toMatchObject({ compatible: false, migration_state: 'start', phase: 2 });
    expect(result<{ reasons: unknown[] }>(check).reasons).toEqual([expect.objectContaining({ code: 11001 })]);
    expect(check.body.messages).toEqual([]);
    for (const mode of ['validation', 'pending']) {
      const put = await kit.put(z, await configOf(kit, z), `waf_migration=${mode}&phase_two=1`);
      expect([put.status, codes(put)]).toEqual([400, [11001]]);
    }
    expect((await state(z)).waf_state).toBe('previous_only');
  });

  it('more than 200 firewall rules to migrate: refused with the reason; 200 are fine', async () => {
    const z = await zone();
    const rules = Array.from({ length: 201 }, (_, i) => ({ action: 'bypass', products: ['waf'], filter: { expression: `ip.src eq 198.51.100.${i % 250} and http.request.uri.path eq "/p${i}"` } }));
    const created = result<{ id: string }[]>(await kit.api('POST', `/zones/${z}/firewall/rules`, rules));
    const check = await kit.check(z);
    expect(result(check)).toMatchObject({ compatible: false });
    expect(result<{ reasons: unknown[] }>(check).reasons[0]).toMatchObject({ code: 11002, message: expect.stringContaining('201 firewall rules') });
    const put = await kit.put(z, await configOf(kit, z), 'waf_migration=pending&phase_two=1');
    expect([put.status, codes(put)]).toEqual([400, [11002]]);
    result(await kit.api('DELETE', `/zones/${z}/firewall/rules/${created[0]!.id}`));
    expect(result(await kit.check(z))).toMatchObject({ compatible: true });
    const config = await configOf(kit, z);
    expect(config.rules.filter((r) => r.action === 'skip')).toHaveLength(200);
  });

  it('a firewall rule expression over 4 KB to migrate: refused naming the rule', async () => {
    const z = await zone();
    const expression = `http.request.uri.path contains "${'é'.repeat(2100)}"`;
    const [rule] = result<{ id: string }[]>(await kit.api('POST', `/zones/${z}/firewall/rules`, [{ action: 'bypass', products: ['waf'], filter: { expression } }]));
    const check = await kit.check(z);
    expect(result(check)).toMatchObject({ compatible: false });
    expect(result<{ reasons: unknown[] }>(check).reasons[0]).toMatchObject({ code: 11003, message: expect.stringContaining(`firewall rule ${rule!.id}`) });
    const put = await kit.put(z, await configOf(kit, z), 'waf_migration=validation&phase_two=1');
    expect(codes(put)).toEqual([11003]);
  });

  it('previous WAF APIs called after the migration no longer work (403, 11010, pointing at the Rulesets API)', async () => {
    const z = await zone('pro');
    const [override] = [result<{ id: string }>(await kit.api('POST', `/zones/${z}/firewall/waf/overrides`, { urls: ['x.example/*'], rules: { '100514': 'disable' } }))];
    result(await kit.api('DELETE', `/zones/${z}/firewall/waf/overrides/${override!.id}`));
    result(await kit.put(z, await configOf(kit, z), 'waf_migration=pending&phase_two=1'));
    const P = `/zones/${z}/firewall/waf/packages`;
    const calls: [string, string, unknown?][] = [
      ['GET', P], ['GET', `${P}/${Ids.owaspPackage}`], ['PATCH', `${P}/${Ids.owaspPackage}`, { sensitivity: 'low' }],
      ['GET', `${P}/${Ids.cloudflarePackage}/groups`], ['GET', `${P}/${Ids.cloudflarePackage}/groups/${Ids.specialsGroup}`],
      ['PATCH', `${P}/${Ids.cloudflarePackage}/groups/${Ids.specialsGroup}`, { mode: 'off' }],
      ['GET', `${P}/${Ids.cloudflarePackage}/rules`], ['GET', `${P}/${Ids.cloudflarePackage}/rules/100514`],
      ['PATCH', `${P}/${Ids.cloudflarePackage}/rules/100514`, { mode: 'block' }],
      ['GET', `/zones/${z}/firewall/waf/overrides`], ['POST', `/zones/${z}/firewall/waf/overrides`, { urls: ['x.example/*'], rules: { '100514': 'disable' } }],
      ['DELETE', `/zones/${z}/firewall/waf/overrides/${override!.id}`], ['PATCH', `/zones/${z}/settings/waf`, { value: 'off' }],
    ];
    for (const [method, path, body] of calls) {
      const reply = await kit.api(method, path, body);
      expect([method, path, reply.status, codes(reply)]).toEqual([method, path, 403, [11010]]);
      expect(reply.body.errors[0]!.message).toContain('Rulesets API');
    }
    expect(result(await kit.api('GET', `/zones/${z}/settings/waf`))).toMatchObject({ value: 'off', editable: false });
  });

  it.each([['pro', 'validation'], ['business', '2'], ['pro', '2'], ['business', 'validation']] as const)(
    'validation mode is Enterprise only: a %s zone gets 403 11004 (waf_migration=%s)', async (plan, mode) => {
      const z = await zone(plan);
      const put = await kit.put(z, withoutServerFields(await configOf(kit, z)), `waf_migration=${mode}&phase_two=1`);
      expect([put.status, codes(put)]).toEqual([403, [11004]]);
      expect((await state(z)).waf_state).toBe('previous_only');
    },
  );

  it('successful responses carry empty errors and messages', async () => {
    const z = await zone();
    for (const reply of [await kit.check(z), await kit.config(z), await kit.status(z)]) {
      expect([reply.body.success, reply.body.errors, reply.body.messages]).toEqual([true, [], []]);
    }
  });
});

describe('URI-based overrides and the delete-a-WAF-override operation', () => {
  it('deleting the overrides unblocks the migration', async () => {
    const z = await zone('business');
    const ids: string[] = [];
    for (const url of ['m.example/a/*', 'm.example/b/*']) {
      ids.push(result<{ id: string }>(await kit.api('POST', `/zones/${z}/firewall/waf/overrides`, { urls: [url], groups: { [Ids.wordpressGroup]: 'disable' } })).id);
    }
    expect(result<{ reasons: { message: string }[] }>(await kit.check(z)).reasons[0]!.message).toContain('2 URI-based WAF overrides');
    expect(result(await kit.api('DELETE', `/zones/${z}/firewall/waf/overrides/${ids[0]}`))).toEqual({ id: ids[0] });
    expect(result(await kit.check(z))).toMatchObject({ compatible: false });
    result(await kit.api('DELETE', `/zones/${z}/firewall/waf/overrides/${ids[1]}`));
    expect(result(await kit.check(z))).toMatchObject({ compatible: true, migration_state: 'start', phase: 2, reasons: [] });
    expect((await kit.put(z, await configOf(kit, z), 'waf_migration=pending&phase_two=1')).status).toBe(200);
    expect((await state(z)).waf_state).toBe('new_only');
  });

  it('an override created during validation mode blocks finishing until it is deleted', async () => {
    const z = await zone();
    const config = await configOf(kit, z);
    result(await kit.put(z, withoutServerFields(config), 'waf_migration=validation&phase_two=1'));
    const o = result<{ id: string }>(await kit.api('POST', `/zones/${z}/firewall/waf/overrides`, { urls: ['m.example/*'], rules: { '990012': 'disable' } }));
    expect(result(await kit.check(z))).toMatchObject({ compatible: false, migration_state: 'validation', phase: 2 });
    expect(codes(await kit.put(z, config, 'waf_migration=pending&phase_two=1'))).toEqual([11001]);
    result(await kit.api('DELETE', `/zones/${z}/firewall/waf/overrides/${o.id}`));
    expect((await kit.put(z, config, 'waf_migration=pending&phase_two=1')).status).toBe(200);
  });
});
