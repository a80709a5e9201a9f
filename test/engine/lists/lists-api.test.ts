/**
 * The Lists API of the engine (security-phases.md §2), in-process: lists CRUD and their refusals,
 * items normalised, sorted, paged and searched, the item writes answered with bulk operations,
 * quotas per account plan, accounts, and PITR of an account's lists.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { DefaultAccountId, startListsKit, type ListsKit } from './kit.js';

let kit: ListsKit | undefined;
afterEach(async () => { await kit?.close(); kit = undefined; });

const codes = (res: { body: { errors: { code?: number }[] } }) => res.body.errors.map((e) => e.code);

describe('lists', () => {
  it('creates, reads, describes and deletes a list; name and kind stay as created', async () => {
    kit = await startListsKit();
    const id = await kit.createList('office_ips');
    const got = await kit.call('GET', `${kit.lists()}/${id}`);
    expect(got.body.result).toMatchObject({ id, name: 'office_ips', kind: 'ip', description: 'office_ips list', num_items: 0, num_referencing_filters: 0 });
    const renamed = await kit.call('PUT', `${kit.lists()}/${id}`, { name: 'other', description: 'x' });
    expect([renamed.status, codes(renamed)]).toEqual([400, [10306]]);
    const described = await kit.call('PUT', `${kit.lists()}/${id}`, { name: 'office_ips', kind: 'ip', description: 'the office' });
    expect(described.body.result).toMatchObject({ name: 'office_ips', description: 'the office' });
    expect((await kit.call('DELETE', `${kit.lists()}/${id}`)).body.result).toEqual({ id });
    expect(codes(await kit.call('GET', `${kit.lists()}/${id}`))).toEqual([10301]);
  });

  it('refuses bad names, a taken name, redirect lists, and unknown fields, each with its pointer', async () => {
    kit = await startListsKit();
    const upper = await kit.call('POST', kit.lists(), { name: 'Office', kind: 'ip' });
    expect(upper.body.errors[0]).toMatchObject({ code: 10014, source: { pointer: '/name' } });
    const long = await kit.call('POST', kit.lists(), { name: 'a'.repeat(51), kind: 'ip' });
    expect(long.body.errors[0]!.message).toContain('the limit is 50');
    await kit.createList('taken');
    expect(codes(await kit.call('POST', kit.lists(), { name: 'taken', kind: 'ip' }))).toEqual([10305]);
    const redirect = await kit.call('POST', kit.lists(), { name: 'r', kind: 'redirect' });
    expect([redirect.status, codes(redirect)]).toEqual([400, [10313]]);
    expect(redirect.body.errors[0]!.message).toContain('Bulk Redirects');
    const extra = await kit.call('POST', kit.lists(), { name: 'x', kind: 'ip', items: [] });
    expect(extra.body.errors[0]).toMatchObject({ code: 10014, source: { pointer: '/items' } });
  });

  it('keeps quotas per account plan: Free 1 list, hostname and ASN lists Enterprise only', async () => {
    kit = await startListsKit();
    const free = await kit.engine.createAccount('small shop', { plan: 'free' });
    const pro = await kit.engine.createAccount('pro shop', { plan: 'pro' });
    await kit.createList('one', 'ip', free.id);
    const second = await kit.call('POST', kit.lists(free.id), { name: 'two', kind: 'ip' });
    expect([second.status, codes(second)]).toEqual([400, [10308]]);
    expect(second.body.errors[0]!.message).toContain('free plan allows 1 list');
    const hosts = await kit.call('POST', kit.lists(pro.id), { name: 'hosts', kind: 'hostname' });
    expect(codes(hosts)).toEqual([10309]);
    await kit.createList('hosts', 'hostname');
    await kit.createList('asns', 'asn');
  });
});

describe('items', () => {
  it('normalises IP items: IPv6 lower-cased and stored as its /64, /32 as the address; refuses host bits and prefixes out of range', async () => {
    kit = await startListsKit();
    const id = await kit.createList('ips');
    const w = await kit.write('POST', id, [{ ip: '2001:DB8:0:0:1::5' }, { ip: '192.0.2.1/32' }, { ip: '10.0.0.0/8' }, { ip: '2001:db8:1::/48' }]);
    expect(w.operation).toMatchObject({ status: 'completed' });
    expect((await kit.items(id)).map((i) => i.ip)).toEqual(['10.0.0.0/8', '192.0.2.1', '2001:db8::/64', '2001:db8:1::/48']);
    const bad = await kit.write('POST', id, [{ ip: '10.0.0.1/8' }, { ip: '10.0.0.0/7' }, { ip: '2001:db8::/65' }, { ip: 'not-an-ip' }, { asn: 1 }]);
    expect(bad.status).toBe(400);
    expect(bad.response.body.errors.map((e) => [e.code, e.source?.pointer])).toEqual([[10307, '/0/ip'], [10307, '/1/ip'], [10307, '/2/ip'], [10307, '/3/ip'], [10307, '/4/asn'], [10307, '/4/ip']]);
    expect(bad.response.body.errors[0]!.message).toContain('host bits are set: the network of 10.0.0.1/8 is 10.0.0.0/8');
    expect((await kit.items(id)).length).toBe(4);
  });

  it('pages items ascending with cursors, searches by the kind\'s rule, and reads one item by id', async () => {
    kit = await startListsKit();
    const id = await kit.createList('ips');
    await kit.write('PUT', id, ['192.0.2.9', '192.0.2.10', '10.1.0.0/16', '198.51.100.1', '192.0.2.100'].map((ip) => ({ ip })));
    const all = await kit.items(id, undefined, 2);
    // Numeric order, not text order: 192.0.2.9 before 192.0.2.10 before 192.0.2.100.
    expect(all.map((i) => i.ip)).toEqual(['10.1.0.0/16', '192.0.2.9', '192.0.2.10', '192.0.2.100', '198.51.100.1']);
    const found = await kit.call('GET', `${kit.lists()}/${id}/items`, undefined, { search: '192.0.2.1' });
    expect((found.body.result as { ip: string }[]).map((i) => i.ip)).toEqual(['192.0.2.10', '192.0.2.100']);
    const one = await kit.call('GET', `${kit.lists()}/${id}/items/${all[1]!.id as string}`);
    expect(one.body.result).toMatchObject({ ip: '192.0.2.9' });
    expect(codes(await kit.call('GET', `${kit.lists()}/${id}/items`, undefined, { per_page: '501' }))).toEqual([10017]);
  });

  it('appends (an existing value keeps its id, its comment overwritten), replaces all, and deletes by id (unknown ids ignored)', async () => {
    kit = await startListsKit();
    const id = await kit.createList('ips');
    await kit.write('POST', id, [{ ip: '192.0.2.1', comment: 'first' }]);
    const [before] = await kit.items(id);
    await kit.write('POST', id, [{ ip: '192.0.2.1', comment: 'second' }, { ip: '192.0.2.2' }]);
    const after = await kit.items(id);
    expect(after.map((i) => [i.ip, i.comment])).toEqual([['192.0.2.1', 'second'], ['192.0.2.2', undefined]]);
    expect(after[0]!.id).toBe(before!.id);
    const dup = await kit.write('POST', id, [{ ip: '192.0.2.7' }, { ip: '192.0.2.7/32' }]);
    expect(dup.response.body.errors[0]).toMatchObject({ code: 10307, source: { pointer: '/1' } });
    await kit.write('PUT', id, [{ ip: '192.0.2.2' }, { ip: '192.0.2.3' }]);
    const replaced = await kit.items(id);
    expect(replaced.map((i) => i.ip)).toEqual(['192.0.2.2', '192.0.2.3']);
    expect(replaced[0]!.id).toBe(after[1]!.id);
    const del = await kit.write('DELETE', id, { items: [{ id: replaced[0]!.id }, { id: 'ffffffffffffffffffffffffffffffff' }] });
    expect(del.operation).toMatchObject({ status: 'completed' });
    // The same delete again (a retry after a lost answer) changes nothing and succeeds.
    expect((await kit.write('DELETE', id, { items: [{ id: replaced[0]!.id }] })).operation).toMatchObject({ status: 'completed' });
    expect((await kit.items(id)).map((i) => i.ip)).toEqual(['192.0.2.3']);
    expect((await kit.write('PUT', id, [])).operation).toMatchObject({ status: 'completed' });
    expect((await kit.call('GET', `${kit.lists()}/${id}`)).body.result).toMatchObject({ num_items: 0 });
  });

  it('normalises hostnames (lower case, *. prefix) and ASNs', async () => {
    kit = await startListsKit();
    const hosts = await kit.createList('hosts', 'hostname');
    await kit.write('POST', hosts, [{ hostname: { url_hostname: 'WWW.Example.com' } }, { hostname: { url_hostname: '*.example.org', exclude_exact_hostname: false } }]);
    expect((await kit.items(hosts)).map((i) => i.hostname)).toEqual([{ url_hostname: '*.example.org', exclude_exact_hostname: false }, { url_hostname: 'www.example.com' }]);
    const badHost = await kit.write('POST', hosts, [{ hostname: { url_hostname: 'a..b' } }, { hostname: { url_hostname: 'localhost' } }]);
    expect(badHost.response.body.errors.map((e) => e.code)).toEqual([10307, 10307]);
    const asns = await kit.createList('asns', 'asn');
    await kit.write('POST', asns, [{ asn: 64512 }, { asn: 13335 }]);
    expect((await kit.items(asns)).map((i) => i.asn)).toEqual([13335, 64512]);
    expect((await kit.write('POST', asns, [{ asn: -1 }])).status).toBe(400);
  });

  it('fails the bulk operation past the account\'s item quota, applying nothing', async () => {
    kit = await startListsKit();
    const pro = await kit.engine.createAccount('pro shop', { plan: 'pro' });
    const id = await kit.createList('big', 'ip', pro.id);
    const many = Array.from({ length: 10_001 }, (_, i) => ({ ip: `10.${Math.floor(i / 65536)}.${Math.floor(i / 256) % 256}.${i % 256}` }));
    const w = await kit.write('PUT', id, many, pro.id);
    expect(w.operation).toMatchObject({ status: 'failed' });
    expect(w.operation!.error).toContain('exceeded the maximum number of list items');
    expect((await kit.call('GET', `${kit.lists(pro.id)}/${id}`)).body.result).toMatchObject({ num_items: 0 });
  });

  it('with the operation-polls hook, answers pending then running then completed, and 429 for other writes meanwhile', async () => {
    kit = await startListsKit({ listOperationPolls: 2 });
    const id = await kit.createList('ips');
    const first = await kit.call('POST', `${kit.lists()}/${id}/items`, [{ ip: '192.0.2.1' }]);
    const op = (first.body.result as { operation_id: string }).operation_id;
    const busy = await kit.call('POST', `${kit.lists()}/${id}/items`, [{ ip: '192.0.2.2' }]);
    expect([busy.status, codes(busy)]).toEqual([429, [10314]]);
    const poll = async () => ((await kit!.call('GET', `${kit!.lists()}/bulk_operations/${op}`)).body.result as { status: string }).status;
    expect([await poll(), await poll(), await poll()]).toEqual(['pending', 'running', 'completed']);
    // The write was applied when accepted: a client that lost the answer sees it on a re-read.
    expect((await kit.items(id)).map((i) => i.ip)).toEqual(['192.0.2.1']);
    expect((await kit.call('POST', `${kit.lists()}/${id}/items`, [{ ip: '192.0.2.2' }])).status).toBe(200);
    expect(codes(await kit.call('GET', `${kit.lists()}/bulk_operations/ffffffffffffffffffffffffffffffff`))).toEqual([10303]);
  });

  it('refuses a malformed item write as malformed (400) even while a bulk operation is pending, before the 429', async () => {
    kit = await startListsKit({ listOperationPolls: 2 });
    const id = await kit.createList('ips');
    expect((await kit.call('POST', `${kit.lists()}/${id}/items`, [{ ip: '192.0.2.1' }])).status).toBe(200);
    // Each item write, malformed: its body is refused whatever the account's operations are doing.
    const badAppend = await kit.call('POST', `${kit.lists()}/${id}/items`, [{ ip: 'not an ip' }]);
    expect([badAppend.status, codes(badAppend), badAppend.body.errors[0]!.source]).toEqual([400, [10307], { pointer: '/0/ip' }]);
    const badReplace = await kit.call('PUT', `${kit.lists()}/${id}/items`, { ip: '192.0.2.3' });
    expect([badReplace.status, codes(badReplace)]).toEqual([400, [10014]]);
    const badDelete = await kit.call('DELETE', `${kit.lists()}/${id}/items`, { items: [] });
    expect([badDelete.status, codes(badDelete), badDelete.body.errors[0]!.source]).toEqual([400, [10014], { pointer: '/items' }]);
    const twice = await kit.call('DELETE', `${kit.lists()}/${id}/items`, { items: [{ id: 'ffffffffffffffffffffffffffffffff' }, { id: 'ffffffffffffffffffffffffffffffff' }] });
    expect([twice.status, codes(twice), twice.body.errors[0]!.source]).toEqual([400, [10014], { pointer: '/items/1/id' }]);
    // A well-formed write still waits for the pending operation.
    const busy = await kit.call('DELETE', `${kit.lists()}/${id}/items`, { items: [{ id: 'ffffffffffffffffffffffffffffffff' }] });
    expect([busy.status, codes(busy)]).toEqual([429, [10314]]);
  });
});

describe('accounts', () => {
  it('puts zones in accounts, shows the account on the zone, and keeps each account\'s lists apart', async () => {
    kit = await startListsKit();
    const acme = await kit.engine.createAccount('acme', { plan: 'enterprise' });
    const zone = await kit.call('POST', '/zones', { name: 'acme.example', account: { id: acme.id } });
    expect(zone.body.result).toMatchObject({ name: 'acme.example', account: { id: acme.id, name: 'acme' } });
    const plain = await kit.engine.createZone('plain.example');
    expect((await kit.call('GET', `/zones/${plain.id}`)).body.result).toMatchObject({ account: { id: DefaultAccountId, name: 'zonewall engine' } });
    expect(codes(await kit.call('POST', '/zones', { name: 'x.example', account: { id: 'ffffffffffffffffffffffffffffffff' } }))).toEqual([10304]);
    await kit.createList('office', 'ip', acme.id);
    expect((await kit.call('GET', kit.lists())).body.result).toEqual([]);
    // The default account's zone cannot use acme's list.
    const put = await kit.call('PUT', `/zones/${plain.id}/rulesets/phases/http_request_firewall_custom/entrypoint`, { rules: [{ action: 'block', expression: 'ip.src in $office' }] });
    expect(codes(put)).toEqual([10311]);
    const acmeZone = (zone.body.result as { id: string }).id;
    const ok = await kit.call('PUT', `/zones/${acmeZone}/rulesets/phases/http_request_firewall_custom/entrypoint`, { rules: [{ action: 'block', expression: 'ip.src in $office' }] });
    expect(ok.status).toBe(200);
    const accounts = await kit.call('GET', '/accounts');
    expect((accounts.body.result as { name: string }[]).map((a) => a.name)).toEqual(['zonewall engine', 'acme']);
    expect(codes(await kit.call('POST', '/accounts', { name: 'acme' }))).toEqual([10315]);
    expect(codes(await kit.call('GET', kit.lists('ffffffffffffffffffffffffffffffff')))).toEqual([10304]);
  });

  it('keeps lists across a restart and rolls an account\'s lists back to a bookmark', async () => {
    kit = await startListsKit();
    const dir = kit.dir;
    const id = await kit.createList('ips');
    await kit.write('POST', id, [{ ip: '192.0.2.1' }]);
    const bookmark = await kit.engine.bookmarkAccount(DefaultAccountId);
    await kit.write('PUT', id, [{ ip: '198.51.100.1' }]);
    await kit.call('POST', kit.lists(), { name: 'later', kind: 'ip' });
    await kit.engine.restoreAccount(DefaultAccountId, bookmark);
    expect((await kit.items(id)).map((i) => i.ip)).toEqual(['192.0.2.1']);
    expect((await kit.call('GET', kit.lists())).body.result).toHaveLength(1);
    await kit.engine.close();
    const again = await startListsKit({ dir });
    try {
      expect((await again.items(id)).map((i) => i.ip)).toEqual(['192.0.2.1']);
    } finally {
      await again.close();
    }
    kit = undefined;
  });
});
