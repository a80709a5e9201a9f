/**
 * The previous WAF's APIs over HTTP: packages (defaults, PATCH of anomaly packages only), groups
 * (mode on/off, counts), rules (mode within allowed modes, list filters), URI-based overrides
 * (create, get, update, delete, not found), the zone setting `waf`, and the Free plan refusal.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ids, codes, result, startWafKit, type WafKit } from '../migration/kit.js';

let kit: WafKit;
let n = 0;
let z: string;
beforeAll(async () => {
  kit = await startWafKit();
  z = await kit.zone('waf.example', 'pro');
});
afterAll(async () => { await kit.h.cleanup(); });
const P = () => `/zones/${z}/firewall/waf/packages`;

describe('packages', () => {
  it('lists both packages at their defaults', async () => {
    const reply = await kit.api('GET', P());
    expect(result(reply)).toEqual([
      { id: Ids.cloudflarePackage, name: 'CloudFlare', description: null, detection_mode: 'traditional', zone_id: z, status: 'active' },
      { id: Ids.owaspPackage, name: 'OWASP ModSecurity Core Rule Set', description: 'Covers OWASP Top 10 vulnerabilities, and more.', detection_mode: 'anomaly', zone_id: z, status: 'active', sensitivity: 'high', action_mode: 'challenge' },
    ]);
    expect(reply.body.result_info).toEqual({ page: 1, per_page: 50, count: 2, total_count: 2, total_pages: 1 });
    expect(result<unknown[]>(await kit.api('GET', `${P()}?name=owasp`))).toHaveLength(1);
    expect(result<{ name: string }[]>(await kit.api('GET', `${P()}?order=name&direction=desc`)).map((p) => p.name)).toEqual(['OWASP ModSecurity Core Rule Set', 'CloudFlare']);
    expect(codes(await kit.api('GET', `${P()}?per_page=200`))).toEqual([10017]);
  });

  it('PATCHes sensitivity and action mode of the anomaly package only', async () => {
    const zz = await kit.zone(`p${++n}.example`, 'business');
    const base = `/zones/${zz}/firewall/waf/packages`;
    expect(result(await kit.api('PATCH', `${base}/${Ids.owaspPackage}`, { sensitivity: 'low' }))).toMatchObject({ sensitivity: 'low', action_mode: 'challenge' });
    expect(result(await kit.api('PATCH', `${base}/${Ids.owaspPackage}`, { action_mode: 'simulate' }))).toMatchObject({ sensitivity: 'low', action_mode: 'simulate' });
    expect(result(await kit.api('GET', `${base}/${Ids.owaspPackage}`))).toMatchObject({ sensitivity: 'low', action_mode: 'simulate' });
    const traditional = await kit.api('PATCH', `${base}/${Ids.cloudflarePackage}`, { sensitivity: 'low' });
    expect([traditional.status, traditional.body.errors]).toEqual([400, [{ code: 1027, message: 'Only anomaly WAF packages can have their package attributes updated' }]]);
    const invalid = await kit.api('PATCH', `${base}/${Ids.owaspPackage}`, { sensitivity: 'extreme', extra: 1 });
    expect(invalid.body.errors.map((e) => e.source?.pointer)).toEqual(['/extra', '/sensitivity']);
    expect(codes(await kit.api('GET', `${base}/ffffffffffffffffffffffffffffffff`))).toEqual([1002]);
  });
});

describe('groups', () => {
  it('list with modes and counts, filter and order', async () => {
    const groups = result<{ id: string; name: string; mode: string; rules_count: number; allowed_modes: string[] }[]>(await kit.api('GET', `${P()}/${Ids.owaspPackage}/groups`));
    expect(groups).toHaveLength(20);
    expect(groups[0]).toMatchObject({ id: Ids.badRobotsGroup, name: 'OWASP Bad Robots', mode: 'on', rules_count: 3, modified_rules_count: 0, package_id: Ids.owaspPackage, allowed_modes: ['on', 'off'] });
    const byCount = result<{ rules_count: number }[]>(await kit.api('GET', `${P()}/${Ids.owaspPackage}/groups?order=rules_count&direction=desc&per_page=5`));
    expect(byCount.map((g) => g.rules_count)).toEqual([5, 4, 3, 3, 3]);
    expect(result<unknown[]>(await kit.api('GET', `${P()}/${Ids.owaspPackage}/groups?name=slr&mode=on`))).toHaveLength(7);
  });

  it('PATCH mode on/off and refuse anything else', async () => {
    const path = `${P()}/${Ids.cloudflarePackage}/groups/${Ids.wordpressGroup}`;
    expect(result(await kit.api('PATCH', path, { mode: 'off' }))).toMatchObject({ mode: 'off', name: 'Cloudflare WordPress' });
    expect(result<unknown[]>(await kit.api('GET', `${P()}/${Ids.cloudflarePackage}/groups?mode=off`))).toHaveLength(1);
    expect(codes(await kit.api('PATCH', path, { mode: 'block' }))).toEqual([10014]);
    expect(result(await kit.api('PATCH', path, { mode: 'on' }))).toMatchObject({ mode: 'on' });
    expect(codes(await kit.api('GET', `${P()}/${Ids.cloudflarePackage}/groups/${Ids.badRobotsGroup}`))).toEqual([1003]);
  });
});

describe('rules', () => {
  it('show modes, allowed modes and default modes as the real API', async () => {
    expect(result(await kit.api('GET', `${P()}/${Ids.cloudflarePackage}/rules/100514`))).toEqual({
      id: '100514', description: 'Log4j Headers', priority: '1', group: { id: Ids.specialsGroup, name: 'Cloudflare Specials' },
      package_id: Ids.cloudflarePackage, mode: 'default', allowed_modes: ['default', 'disable', 'simulate', 'block', 'challenge'], default_mode: 'block',
    });
    expect(result(await kit.api('GET', `${P()}/${Ids.owaspPackage}/rules/990012`))).toMatchObject({ mode: 'on', allowed_modes: ['on', 'off'], group: { id: Ids.badRobotsGroup } });
    expect(result(await kit.api('GET', `${P()}/${Ids.cloudflarePackage}/rules/WP0011A`))).toMatchObject({ mode: 'on', allowed_modes: ['on', 'off'] });
    expect(codes(await kit.api('GET', `${P()}/${Ids.owaspPackage}/rules/100514`))).toEqual([1004]);
  });

  it('PATCH a mode within the allowed modes; the group counts it as modified', async () => {
    const zz = await kit.zone(`r${++n}.example`, 'pro');
    const base = `/zones/${zz}/firewall/waf/packages`;
    expect(result(await kit.api('PATCH', `${base}/${Ids.cloudflarePackage}/rules/100514`, { mode: 'simulate' }))).toMatchObject({ mode: 'simulate' });
    const refused = await kit.api('PATCH', `${base}/${Ids.cloudflarePackage}/rules/100514`, { mode: 'on' });
    expect(refused.body.errors[0]!.message).toContain('allowed modes are default, disable, simulate, block, challenge');
    expect(codes(await kit.api('PATCH', `${base}/${Ids.owaspPackage}/rules/990012`, { mode: 'block' }))).toEqual([10014]);
    result(await kit.api('PATCH', `${base}/${Ids.owaspPackage}/rules/990012`, { mode: 'off' }));
    expect(result(await kit.api('GET', `${base}/${Ids.cloudflarePackage}/groups/${Ids.specialsGroup}`))).toMatchObject({ modified_rules_count: 1 });
    expect(result<{ id: string }[]>(await kit.api('GET', `${base}/${Ids.cloudflarePackage}/rules?mode=SIM`)).map((r) => r.id)).toEqual(['100514']);
    expect(result<{ id: string }[]>(await kit.api('GET', `${base}/${Ids.owaspPackage}/rules?mode=off`)).map((r) => r.id)).toEqual(['990012']);
    result(await kit.api('PATCH', `${base}/${Ids.cloudflarePackage}/rules/100514`, { mode: 'default' }));
    expect(result(await kit.api('GET', `${base}/${Ids.cloudflarePackage}/groups/${Ids.specialsGroup}`))).toMatchObject({ modified_rules_count: 0 });
  });

  it('filter by group, description and priority, and page through', async () => {
    const inGroup = await kit.api('GET', `${P()}/${Ids.cloudflarePackage}/rules?group_id=${Ids.wordpressGroup}`);
    expect(result<{ id: string }[]>(inGroup).map((r) => r.id)).toEqual(['WP0001', 'WP0025B', 'WP0030', 'WP0011A']);
    expect(result<unknown[]>(await kit.api('GET', `${P()}/${Ids.cloudflarePackage}/rules?description=log4j`))).toHaveLength(4);
    expect(result<unknown[]>(await kit.api('GET', `${P()}/${Ids.cloudflarePackage}/rules?description=log4j&group_id=${Ids.wordpressGroup}&match=any`))).toHaveLength(8);
    const page2 = await kit.api('GET', `${P()}/${Ids.cloudflarePackage}/rules?per_page=5&page=2&order=priority`);
    expect(result<{ priority: string }[]>(page2).map((r) => r.priority)).toEqual(['6', '7', '8', '9', '10']);
    expect(page2.body.result_info).toMatchObject({ page: 2, per_page: 5, count: 5 });
  });
});

describe('URI-based overrides', () => {
  it('create, get, update, list and delete; the delete answers the id', async () => {
    const zz = await kit.zone(`o${++n}.example`, 'business');
    const base = `/zones/${zz}/firewall/waf/overrides`;
    const created = result<{ id: string }>(await kit.api('POST', base, { urls: ['shop.example/*'], description: 'shop', priority: 3, groups: { [Ids.wordpressGroup]: 'disable' }, rewrite_action: { block: 'challenge' } }));
    expect(created).toEqual({ id: expect.stringMatching(/^[0-9a-f]{32}$/), description: 'shop', urls: ['shop.example/*'], priority: 3, paused: false, groups: { [Ids.wordpressGroup]: 'disable' }, rules: {}, rewrite_action: { block: 'challenge' } });
    expect(result(await kit.api('GET', `${base}/${created.id}`))).toEqual(created);
    const updated = result(await kit.api('PUT', `${base}/${created.id}`, { id: created.id, urls: ['shop.example/cart*'], rules: { '100514': 'simulate' }, rewrite_action: {} }));
    expect(updated).toMatchObject({ id: created.id, urls: ['shop.example/cart*'], rules: { '100514': 'simulate' }, groups: {}, description: null, priority: 1 });
    const list = await kit.api('GET', base);
    expect([result<unknown[]>(list).length, list.body.result_info?.per_page]).toEqual([1, 50]);
    expect(result(await kit.api('DELETE', `${base}/${created.id}`))).toEqual({ id: created.id });
    const gone = await kit.api('GET', `${base}/${created.id}`);
    expect([gone.status, codes(gone), gone.body.errors[0]!.message]).toEqual([404, [1005], expect.stringContaining('wafuriconfig.api.not_found')]);
    expect(codes(await kit.api('DELETE', `${base}/${created.id}`))).toEqual([1005]);
  });

  it('require urls and at least one group or rule, with known ids and actions', async () => {
    const bad = await kit.api('POST', `/zones/${z}/firewall/waf/overrides`, { urls: [], rules: { nope: 'block', '100514': 'explode' } });
    expect(bad.body.errors.map((e) => e.source?.pointer)).toEqual(['/urls', '/rules/100514', '/rules/nope', '/rules']);
    const missing = await kit.api('POST', `/zones/${z}/firewall/waf/overrides`, { description: 'x' });
    expect(missing.body.errors.map((e) => e.source?.pointer)).toEqual(['/urls', '/rules']);
    const twice = await kit.api('POST', `/zones/${z}/firewall/waf/overrides`, { urls: ['shop.example/*', 'shop.example/cart*', 'shop.example/*'], rules: { '100514': 'simulate' } });
    expect([twice.status, twice.body.errors.map((e) => e.source?.pointer)]).toEqual([400, ['/urls/2']]);
    expect(result<unknown[]>(await kit.api('GET', `/zones/${z}/firewall/waf/overrides`))).toEqual([]);
  });
});

describe('the zone setting waf', () => {
  it('turns the previous WAF on and off like the zone settings API', async () => {
    const zz = await kit.zone(`s${++n}.example`, 'pro');
    expect(result(await kit.api('GET', `/zones/${zz}/settings/waf`))).toEqual({ id: 'waf', value: 'on', editable: true, modified_on: null });
    const off = result<{ value: string; modified_on: string }>(await kit.api('PATCH', `/zones/${zz}/settings/waf`, { value: 'off' }));
    expect(off).toMatchObject({ id: 'waf', value: 'off', editable: true });
    expect(result(await kit.status(zz))).toMatchObject({ old_waf_status: 'disabled' });
    expect(codes(await kit.api('PATCH', `/zones/${zz}/settings/waf`, { value: 'maybe' }))).toEqual([10014]);
    result(await kit.api('PATCH', `/zones/${zz}/settings/waf`, { value: 'on' }));
    expect(result(await kit.status(zz))).toMatchObject({ old_waf_status: 'enabled' });
  });
});

describe('Free zones', () => {
  it('have no previous WAF: 403 with 11011, and the setting is off and not editable', async () => {
    const zz = await kit.zone(`f${++n}.example`, 'free');
    const reply = await kit.api('GET', `/zones/${zz}/firewall/waf/packages`);
    expect([reply.status, codes(reply)]).toEqual([403, [11011]]);
    expect(result(await kit.api('GET', `/zones/${zz}/settings/waf`))).toMatchObject({ value: 'off', editable: false });
    expect(codes(await kit.api('PATCH', `/zones/${zz}/settings/waf`, { value: 'on' }))).toEqual([11011]);
  });
});
