/**
 * Lists in rules (security-phases.md §2): a rule that references a list its account does not have,
 * or a list of the wrong kind for its field, is refused on write in filters, firewall rules (the
 * simplified flow), custom rules and managed-phase exceptions; a list any rule of the account's
 * zones references (enabled or not) cannot be deleted; managed lists exist on Enterprise accounts;
 * the trace resolves `$name` to the list's items.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startListsKit, type ListsKit } from './kit.js';

let kit: ListsKit | undefined;
afterEach(async () => { await kit?.close(); kit = undefined; });

const codes = (res: { body: { errors: { code?: number }[] } }) => res.body.errors.map((e) => e.code);
const custom = (z: string) => `/zones/${z}/rulesets/phases/http_request_firewall_custom/entrypoint`;
const managed = (z: string) => `/zones/${z}/rulesets/phases/http_request_firewall_managed/entrypoint`;
const Managed = 'efb7b8c949ac4650a09736fc376e9aee';

describe('references to lists', () => {
  it('refuses an unknown list in a filter, a simplified-flow firewall rule, a custom rule and a managed exception, saving nothing', async () => {
    kit = await startListsKit();
    const z = (await kit.engine.createZone('example.com', { waf: 'new' })).id;
    const filter = await kit.call('POST', `/zones/${z}/filters`, [{ expression: 'ip.src in $nope' }]);
    expect([filter.status, codes(filter)]).toEqual([400, [10311]]);
    expect(filter.body.errors[0]!.message).toMatch(/^filter [0-9a-f]{32} references list \$nope, which the zone's account does not have/);
    const rule = await kit.call('POST', `/zones/${z}/firewall/rules`, [{ filter: { expression: 'ip.src in $nope' }, action: 'block' }]);
    expect(codes(rule)).toEqual([10311]);
    expect((await kit.call('GET', `/zones/${z}/filters`)).body.result).toEqual([]);
    const put = await kit.call('PUT', custom(z), { rules: [{ ref: 'r1', action: 'block', expression: 'ip.src in $nope', enabled: false }] });
    expect(put.body.errors[0]!.message).toBe('rule r1 of http_request_firewall_custom references list $nope, which the zone\'s account does not have (create it first)');
    const exception = await kit.call('PUT', managed(z), { rules: [
      { ref: 'skip', action: 'skip', expression: 'ip.src in $nope', action_parameters: { ruleset: 'current' } },
      { action: 'execute', expression: 'true', action_parameters: { id: Managed } },
    ] });
    expect(codes(exception)).toEqual([10311]);
    expect((await kit.call('GET', custom(z))).status).toBe(404);
  });

  it('refuses a list of the wrong kind for its field', async () => {
    kit = await startListsKit();
    const z = (await kit.engine.createZone('example.com')).id;
    await kit.createList('hosts', 'hostname');
    await kit.createList('asns', 'asn');
    const wrong = await kit.call('PUT', custom(z), { rules: [{ ref: 'w', action: 'block', expression: 'ip.src in $hosts' }] });
    expect(wrong.body.errors[0]!.message).toBe('rule w of http_request_firewall_custom compares a field that takes ip lists with $hosts, an hostname list');
    const right = await kit.call('PUT', custom(z), { rules: [{ ref: 'h', action: 'block', expression: 'http.host in $hosts or ip.src.asnum in $asns' }] });
    expect(right.status).toBe(200);
  });

  it('refuses to delete a list any rule of the account references, enabled or not, naming the rule; counts the references', async () => {
    kit = await startListsKit();
    const a = (await kit.engine.createZone('a.example')).id;
    const b = (await kit.engine.createZone('b.example')).id;
    const id = await kit.createList('office');
    expect((await kit.call('PUT', custom(a), { rules: [{ ref: 'office', action: 'skip', expression: 'ip.src in $office', enabled: false, action_parameters: { ruleset: 'current' } }] })).status).toBe(200);
    expect((await kit.call('POST', `/zones/${b}/firewall/rules`, [{ filter: { expression: 'ip.src in $office' }, action: 'block', paused: true }])).status).toBe(200);
    expect((await kit.call('GET', `${kit.lists()}/${id}`)).body.result).toMatchObject({ num_referencing_filters: 2 });
    const del = await kit.call('DELETE', `${kit.lists()}/${id}`);
    expect([del.status, codes(del)]).toEqual([400, [10310]]);
    expect(del.body.errors[0]!.message).toContain('rule office of http_request_firewall_custom in zone a.example');
    expect(del.body.errors[0]!.message).toMatch(/firewall rule [0-9a-f]{32} \(filter [0-9a-f]{32}\) in zone b\.example/);
    await kit.call('PUT', custom(a), { rules: [] });
    const rules = (await kit.call('GET', `/zones/${b}/firewall/rules`)).body.result as { id: string; filter: { id: string } }[];
    await kit.call('DELETE', `/zones/${b}/firewall/rules/${rules[0]!.id}`, { delete_filter_if_unused: true });
    expect((await kit.call('DELETE', `${kit.lists()}/${id}`)).status).toBe(200);
  });

  it('lets a write through when an older reference it did not make is unknown, and refuses a new one', async () => {
    kit = await startListsKit();
    const z = (await kit.engine.createZone('example.com')).id;
    const account = '0e7e0e7e0e7e0e7e0e7e0e7e0e7e0e7e';
    const empty = await kit.engine.bookmarkAccount(account);
    await kit.createList('old');
    expect((await kit.call('PUT', custom(z), { rules: [{ ref: 'old', action: 'block', expression: 'ip.src in $old' }] })).status).toBe(200);
    // The account rolled back to before the list (PITR): the zone's rule still names it.
    await kit.engine.restoreAccount(account, empty);
    expect((await kit.call('GET', kit.lists())).body.result).toEqual([]);
    expect((await kit.call('POST', `/zones/${z}/filters`, [{ expression: 'http.host eq "x.example"' }])).status).toBe(200);
    const added = await kit.call('PUT', custom(z), { rules: [{ ref: 'old', action: 'block', expression: 'ip.src in $old' }, { ref: 'new', action: 'block', expression: 'ip.src in $old' }] });
    expect(added.body.errors.map((e) => e.message)).toEqual(['rule new of http_request_firewall_custom references list $old, which the zone\'s account does not have (create it first)']);
  });

  it('has the managed lists on Enterprise accounts only', async () => {
    kit = await startListsKit();
    const ent = (await kit.engine.createZone('ent.example')).id;
    expect((await kit.call('PUT', custom(ent), { rules: [{ ref: 'p', action: 'block', expression: 'ip.src in $cf.open_proxies' }] })).status).toBe(200);
    const pro = await kit.engine.createAccount('pro shop', { plan: 'pro' });
    const z = (await kit.engine.createZone('pro.example', { account: pro.id, plan: 'pro' })).id;
    const refused = await kit.call('PUT', custom(z), { rules: [{ ref: 'p', action: 'block', expression: 'ip.src in $cf.open_proxies' }] });
    expect(refused.body.errors[0]!.message).toContain('managed lists need an Enterprise account');
  });
});

describe('the trace resolves $name', () => {
  it('matches by the items of IP, ASN and hostname lists (with *.) and the managed lists\' sample', async () => {
    kit = await startListsKit();
    const z = (await kit.engine.createZone('example.com')).id;
    const ips = await kit.createList('office');
    const asns = await kit.createList('bad_asns', 'asn');
    const hosts = await kit.createList('tenants', 'hostname');
    await kit.write('POST', ips, [{ ip: '10.0.0.0/8' }, { ip: '2001:db8::1' }]);
    await kit.write('POST', asns, [{ asn: 64512 }]);
    await kit.write('POST', hosts, [{ hostname: { url_hostname: '*.tenants.example' } }, { hostname: { url_hostname: 'exact.example' } }]);
    await kit.call('PUT', custom(z), { rules: [
      { ref: 'office', action: 'skip', expression: 'ip.src in $office', action_parameters: { ruleset: 'current' } },
      { ref: 'asn', action: 'block', expression: 'ip.src.asnum in $bad_asns' },
      { ref: 'tenant', action: 'managed_challenge', expression: 'http.host in $tenants' },
      { ref: 'proxy', action: 'js_challenge', expression: 'ip.src in $cf.open_proxies' },
    ] });
    const decided = async (request: Record<string, unknown>) => {
      const res = await kit!.call('POST', `/zones/${z}/trace`, request);
      const cr = (res.body.result as { custom_rules: { rule: { ref: string } | null; ended_by?: string } }).custom_rules;
      return cr.rule?.ref ?? cr.ended_by ?? null;
    };
    // The office skip ends the custom rules first, for IPv4 and for IPv6 (the item stored as its /64).
    expect(await decided({ ip: '10.2.3.4', host: 'a.tenants.example' })).toBe('office');
    expect(await decided({ ip: '2001:db8::ffff', fields: { 'ip.src.asnum': 64512 } })).toBe('office');
    expect(await decided({ ip: '2001:db9::1', fields: { 'ip.src.asnum': 64512 } })).toBe('asn');
    expect(await decided({ ip: '192.0.2.5', fields: { 'ip.src.asnum': 64512 } })).toBe('asn');
    expect(await decided({ ip: '192.0.2.5', host: 'a.tenants.example' })).toBe('tenant');
    expect(await decided({ ip: '192.0.2.5', host: 'tenants.example' })).toBeNull();
    expect(await decided({ ip: '192.0.2.5', host: 'exact.example' })).toBe('tenant');
    expect(await decided({ ip: '198.51.100.3' })).toBe('proxy');
    // An item write changes what the trace sees at once.
    await kit.write('PUT', asns, []);
    expect(await decided({ ip: '192.0.2.5', fields: { 'ip.src.asnum': 64512 } })).toBeNull();
  });
});

describe('the burst trace resolves $name', () => {
  it('counts the requests of a listed client for a rate limiting rule on the list (it matched nothing before)', async () => {
    kit = await startListsKit();
    const z = (await kit.engine.createZone('example.com', { plan: 'enterprise' })).id;
    const crawlers = await kit.createList('crawlers');
    await kit.write('POST', crawlers, [{ ip: '203.0.113.0/24' }]);
    const put = await kit.call('PUT', `/zones/${z}/rulesets/phases/http_ratelimit/entrypoint`, { rules: [
      { ref: 'listed', action: 'block', expression: 'ip.src in $crawlers', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 10, requests_per_period: 2, mitigation_timeout: 60 } },
    ] });
    expect(put.status).toBe(200);
    const burst = async (ip: string) => (await kit!.call('POST', `/zones/${z}/trace/burst`, { request: { ip }, burst: { count: 3, over: 3 } })).body.result as { acted: number; first: { first_request: number } | null };
    expect(await burst('203.0.113.9')).toMatchObject({ acted: 1, first: { first_request: 3 } });
    expect((await burst('198.51.100.9')).acted).toBe(0);
  });
});
