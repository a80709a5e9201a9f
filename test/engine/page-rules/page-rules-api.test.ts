/**
 * The Page Rules API over HTTP (the subset seed 002 names): create/get/list/PUT/PATCH/DELETE with
 * URL targets, priority and status, the actions `disable_security` and `waf`; every refusal with its
 * code and the field's pointer; one transaction per write; PITR restores Page Rules.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, result, startWafKit, type WafKit } from '../migration/kit.js';

let kit: WafKit;
let n = 0;
beforeAll(async () => { kit = await startWafKit(); });
afterAll(async () => { await kit.h.cleanup(); });

const target = (value: string) => [{ target: 'url', constraint: { operator: 'matches', value } }];
async function zone(plan: 'free' | 'pro' | 'business' | 'enterprise' = 'business'): Promise<{ id: string; name: string; base: string }> {
  const name = `pr${++n}.example`;
  const id = await kit.zone(name, plan);
  return { id, name, base: `/zones/${id}/pagerules` };
}

describe('Page Rules CRUD', () => {
  it('creates a rule with the real shape and defaults (priority 1, status disabled)', async () => {
    const z = await zone();
    const reply = await kit.api('POST', z.base, { targets: target(`${z.name}/admin/*`), actions: [{ id: 'disable_security' }] });
    expect(reply.status).toBe(200);
    expect(reply.body.messages).toEqual([]);
    const rule = result<Record<string, unknown>>(reply);
    expect(rule).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{32}$/), targets: target(`${z.name}/admin/*`), actions: [{ id: 'disable_security' }],
      priority: 1, status: 'disabled', created_on: expect.any(String), modified_on: expect.any(String),
    });
    expect(result(await kit.api('GET', `${z.base}/${rule.id}`))).toEqual(rule);
  });

  it('lists by priority descending by default, filters on status and sorts on request', async () => {
    const z = await zone();
    const mk = async (path: string, priority: number, status: string) => result<{ id: string }>(await kit.api('POST', z.base, { targets: target(`${z.name}/${path}`), actions: [{ id: 'waf', value: 'off' }], priority, status })).id;
    const low = await mk('a/*', 1, 'active');
    const high = await mk('b/*', 3, 'disabled');
    const mid = await mk('c/*', 2, 'active');
    const ids = async (q: string) => result<{ id: string }[]>(await kit.api('GET', `${z.base}${q}`)).map((r) => r.id);
    expect(await ids('')).toEqual([high, mid, low]);
    expect(await ids('?direction=asc')).toEqual([low, mid, high]);
    expect(await ids('?status=active')).toEqual([mid, low]);
    expect(await ids('?order=status&direction=asc')).toEqual([mid, low, high]);
    expect(codes(await kit.api('GET', `${z.base}?order=url`))).toEqual([10017]);
  });

  it('PUT replaces the whole rule, PATCH changes only the fields given, DELETE answers {id}', async () => {
    const z = await zone();
    const created = result<{ id: string; created_on: string }>(await kit.api('POST', z.base, { targets: target(`${z.name}/x/*`), actions: [{ id: 'waf', value: 'on' }], priority: 5, status: 'active' }));
    const patched = result(await kit.api('PATCH', `${z.base}/${created.id}`, { status: 'disabled' }));
    expect(patched).toMatchObject({ id: created.id, priority: 5, status: 'disabled', actions: [{ id: 'waf', value: 'on' }], created_on: created.created_on });
    const replaced = result(await kit.api('PUT', `${z.base}/${created.id}`, { targets: target(`${z.name}/y/*`), actions: [{ id: 'disable_security' }] }));
    expect(replaced).toMatchObject({ id: created.id, priority: 1, status: 'disabled', targets: target(`${z.name}/y/*`), actions: [{ id: 'disable_security' }] });
    expect(result(await kit.api('DELETE', `${z.base}/${created.id}`))).toEqual({ id: created.id });
    expect(codes(await kit.api('GET', `${z.base}/${created.id}`))).toEqual([1002]);
    expect((await kit.api('DELETE', `${z.base}/${created.id}`)).status).toBe(404);
  });
});

describe('Page Rules refusals', () => {
  it('refuses an unknown action naming the field, with nothing created', async () => {
    const z = await zone();
    const reply = await kit.api('POST', z.base, { targets: target(`${z.name}/*`), actions: [{ id: 'waf', value: 'off' }, { id: 'cache_level', value: 'bypass' }] });
    expect(reply.status).toBe(400);
    expect(reply.body.errors).toEqual([{ code: 1004, message: expect.stringMatching(/^Page Rule validation failed: unknown action "cache_level"/), source: { pointer: '/actions/1/id' } }]);
    expect(result(await kit.api('GET', z.base))).toEqual([]);
  });

  it('lists every reason with its pointer: target, operator, value, action values, priority, status, unknown fields', async () => {
    const z = await zone();
    const reply = await kit.api('POST', z.base, {
      targets: [{ target: 'header', constraint: { operator: 'contains', value: 'other.example/**' } }],
      actions: [{ id: 'waf', value: 'maybe' }, { id: 'disable_security', value: 'on' }],
      priority: 0, status: 'paused', url: 'x',
    });
    expect(reply.status).toBe(400);
    const pointers = reply.body.errors.map((e) => e.source?.pointer);
    expect(new Set(reply.body.errors.map((e) => e.code))).toEqual(new Set([1004]));
    expect(pointers).toEqual(expect.arrayContaining([
      '/url', '/targets/0/target', '/targets/0/constraint/operator', '/targets/0/constraint/value',
      '/actions/0/value', '/actions/1/value', '/priority', '/status',
    ]));
    expect(reply.body.errors.find((e) => e.message.includes('not in zone'))?.message).toContain(z.name);
    expect(codes(await kit.api('POST', z.base, { targets: target(`${z.name}/*`) }))).toEqual([1004]);
    expect(codes(await kit.api('POST', z.base, { targets: [], actions: [{ id: 'disable_security' }] }))).toEqual([1004]);
    expect(codes(await kit.api('POST', z.base, { targets: target(`${z.name}/*`), actions: [{ id: 'waf', value: 'on' }, { id: 'waf', value: 'off' }] }))).toEqual([1004]);
    expect(codes(await kit.api('POST', z.base, { targets: target(`${z.name}/*/*/*/*/*`), actions: [{ id: 'disable_security' }] }))).toEqual([1004]);
    expect(codes(await kit.api('PATCH', `${z.base}/ffffffffffffffffffffffffffffffff`, { status: 'active' }))).toEqual([1002]);
  });

  it('refuses a second rule on the same URL pattern and an empty PATCH', async () => {
    const z = await zone();
    const first = result<{ id: string }>(await kit.api('POST', z.base, { targets: target(`${z.name}/admin/*`), actions: [{ id: 'disable_security' }] }));
    const dup = await kit.api('POST', z.base, { targets: target(`${z.name.toUpperCase()}/admin/*`), actions: [{ id: 'waf', value: 'off' }] });
    expect(dup.body.errors).toEqual([{ code: 1004, message: expect.stringContaining(`distinctTargetUrl: zone ${z.name} already has Page Rule ${first.id}`), source: { pointer: '/targets/0/constraint/value' } }]);
    expect(codes(await kit.api('PATCH', `${z.base}/${first.id}`, {}))).toEqual([1004]);
  });

  it("refuses a rule over the plan's quota (Free: 3) and accepts subdomain and wildcard hosts", async () => {
    const z = await zone('free');
    for (const host of [z.name, `www.${z.name}`, `*.${z.name}`]) {
      expect((await kit.api('POST', z.base, { targets: target(`${host}/p/*`), actions: [{ id: 'disable_security' }] })).status).toBe(200);
    }
    const over = await kit.api('POST', z.base, { targets: target(`https://${z.name}/q/*`), actions: [{ id: 'disable_security' }] });
    expect([over.status, codes(over)]).toEqual([400, [1007]]);
    expect(over.body.errors[0]!.message).toContain('free plan allows (3)');
  });
});

describe('Page Rules storage', () => {
  it('PITR restores Page Rules to a bookmark', async () => {
    const z = await zone();
    const kept = result<{ id: string }>(await kit.api('POST', z.base, { targets: target(`${z.name}/a/*`), actions: [{ id: 'disable_security' }] }));
    const bookmark = await kit.h.engine.bookmark(z.id);
    await kit.api('DELETE', `${z.base}/${kept.id}`);
    await kit.api('POST', z.base, { targets: target(`${z.name}/b/*`), actions: [{ id: 'waf', value: 'off' }] });
    await kit.h.engine.restore(z.id, bookmark);
    expect(result<{ id: string }[]>(await kit.api('GET', z.base)).map((r) => r.id)).toEqual([kept.id]);
  });
});
