/**
 * The official TypeScript client (npm `cloudflare` 7.3.0) on the Lists API of `zonewall serve`,
 * normal and `--strict`: `client.rules.lists.*`, `items.*` (cursor pagination through the client's
 * own iterator) and `bulkOperations.get`, each result type-checked against the client's types, and
 * a rule referencing the list through `rulesets.phases.update`.
 */
import Cloudflare from 'cloudflare';
import type { ListsList } from 'cloudflare/resources/rules/lists/lists';
import type { ItemGetResponse, ItemListResponse } from 'cloudflare/resources/rules/lists/items';
import type { BulkOperationGetResponse } from 'cloudflare/resources/rules/lists/bulk-operations';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startHarness, type Harness } from '../engine/helpers.js';

const hex32 = /^[0-9a-f]{32}$/;

describe.each([false, true])('the official client on the Lists API (strict: %s)', (strict) => {
  let h: Harness;
  let cf: Cloudflare;
  let account: string;
  let zone: string;
  beforeAll(async () => {
    h = await startHarness({ strict });
    zone = await h.zone('lists.example', 'enterprise');
    cf = new Cloudflare({ apiToken: TOKEN, apiKey: null, apiEmail: null, baseURL: h.server.url, maxRetries: 0 });
    account = (await cf.zones.get({ zone_id: zone })).account.id!;
  });
  afterAll(async () => { await h.cleanup(); });

  it('creates, lists, gets, updates and deletes a list', async () => {
    const created = await cf.rules.lists.create({ account_id: account, name: 'crud_list', kind: 'ip', description: 'made by the client' });
    expect(created).toMatchObject({ name: 'crud_list', kind: 'ip', num_items: 0, num_referencing_filters: 0 });
    expect(created.id).toMatch(hex32);
    const all: ListsList[] = [];
    for await (const l of cf.rules.lists.list({ account_id: account })) all.push(l);
    expect(all.map((l) => l.name)).toContain('crud_list');
    const got = await cf.rules.lists.get(created.id, { account_id: account });
    expect(got.description).toBe('made by the client');
    const updated = await cf.rules.lists.update(created.id, { account_id: account, description: 'changed' });
    expect(updated.description).toBe('changed');
    const deleted = await cf.rules.lists.delete(created.id, { account_id: account });
    expect(deleted.id).toBe(created.id);
    await expect(cf.rules.lists.get(created.id, { account_id: account })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
  });

  it('writes items, polls the bulk operation, and reads every page through the client\'s cursor iterator', async () => {
    const list = await cf.rules.lists.create({ account_id: account, name: 'paged', kind: 'ip' });
    const body = Array.from({ length: 30 }, (_, i) => ({ ip: `192.0.2.${i + 1}`, comment: `host ${i + 1}` }));
    const write = await cf.rules.lists.items.update(list.id, { account_id: account, body });
    expect(write.operation_id).toMatch(hex32);
    const op: BulkOperationGetResponse = await cf.rules.lists.bulkOperations.get(write.operation_id, { account_id: account });
    expect(op.status).toBe('completed');
    const items: ItemListResponse[] = [];
    for await (const item of cf.rules.lists.items.list(list.id, { account_id: account, per_page: 7 })) items.push(item);
    expect(items.map((i) => ('ip' in i ? i.ip : ''))).toEqual(body.map((b) => b.ip));
    const added = await cf.rules.lists.items.create(list.id, { account_id: account, body: [{ ip: '2001:DB8::1' }] });
    expect((await cf.rules.lists.bulkOperations.get(added.operation_id, { account_id: account })).status).toBe('completed');
    const one = await cf.rules.lists.items.get(items[0]!.id, { account_id: account, list_id: list.id });
    expect(one).toMatchObject({ ip: '192.0.2.1', comment: 'host 1' });
    const removed = await cf.rules.lists.items.delete(list.id, { account_id: account, items: [{ id: items[0]!.id }] });
    expect((await cf.rules.lists.bulkOperations.get(removed.operation_id, { account_id: account })).status).toBe('completed');
    const left: string[] = [];
    for await (const item of cf.rules.lists.items.list(list.id, { account_id: account, search: '2001:db8' })) left.push('ip' in item ? item.ip : '');
    expect(left).toEqual(['2001:db8::/64']);
  });

  it('refuses to delete a list a custom rule references, with the client\'s typed error', async () => {
    const list = await cf.rules.lists.create({ account_id: account, name: 'office', kind: 'ip' });
    await cf.rulesets.phases.update('http_request_firewall_custom', {
      zone_id: zone, rules: [{ action: 'block', expression: 'ip.src in $office', ref: 'office' }],
    });
    const error = await cf.rules.lists.delete(list.id, { account_id: account }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Cloudflare.BadRequestError);
    expect(String((error as Error).message)).toContain('rule office of http_request_firewall_custom');
    const unknown = await cf.rulesets.phases.update('http_request_firewall_custom', {
      zone_id: zone, rules: [{ action: 'block', expression: 'ip.src in $nobody', ref: 'nobody' }],
    }).catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(Cloudflare.BadRequestError);
  });

  it('writes and reads hostname and ASN lists with the client\'s item types; search follows each kind\'s rule', async () => {
    const hosts = await cf.rules.lists.create({ account_id: account, name: 'tenants', kind: 'hostname' });
    const asns = await cf.rules.lists.create({ account_id: account, name: 'networks', kind: 'asn' });
    const h1 = await cf.rules.lists.items.create(hosts.id, { account_id: account, body: [
      { hostname: { url_hostname: '*.Example.com', exclude_exact_hostname: false }, comment: 'all of example' },
      { hostname: { url_hostname: 'shop.example.org' } },
    ] });
    expect((await cf.rules.lists.bulkOperations.get(h1.operation_id, { account_id: account })).status).toBe('completed');
    const a1 = await cf.rules.lists.items.update(asns.id, { account_id: account, body: [{ asn: 64512, comment: 'private' }, { asn: 13335 }] });
    expect((await cf.rules.lists.bulkOperations.get(a1.operation_id, { account_id: account })).status).toBe('completed');
    const hostItems: ItemListResponse[] = [];
    for await (const item of cf.rules.lists.items.list(hosts.id, { account_id: account, search: 'example' })) hostItems.push(item);
    expect(hostItems.map((i) => ('hostname' in i ? i.hostname : undefined))).toEqual([
      { url_hostname: '*.example.com', exclude_exact_hostname: false }, { url_hostname: 'shop.example.org' },
    ]);
    const asnItems: ItemListResponse[] = [];
    for await (const item of cf.rules.lists.items.list(asns.id, { account_id: account })) asnItems.push(item);
    expect(asnItems.map((i) => ('asn' in i ? i.asn : undefined))).toEqual([13335, 64512]);
    const one: ItemGetResponse = await cf.rules.lists.items.get(asnItems[1]!.id, { account_id: account, list_id: asns.id });
    expect(one).toMatchObject({ id: asnItems[1]!.id, asn: 64512, comment: 'private' });
    const found: ItemListResponse[] = [];
    for await (const item of cf.rules.lists.items.list(asns.id, { account_id: account, search: '6451' })) found.push(item);
    expect(found).toEqual([]);
    const bad = await cf.rules.lists.items.create(asns.id, { account_id: account, body: [{ asn: 1 }, { ip: '192.0.2.1' } as never] }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(Cloudflare.BadRequestError);
    expect((bad as InstanceType<typeof Cloudflare.BadRequestError>).errors).toEqual(expect.arrayContaining([expect.objectContaining({ code: 10307, source: { pointer: '/1/ip' } })]));
    expect((await cf.rules.lists.get(asns.id, { account_id: account })).num_items).toBe(2);
  });
});
