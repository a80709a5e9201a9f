/**
 * The Worker front's cache of list pages (deploy/worker/front-cache.ts, issue 35): on its own, and
 * through `serve --runtime workerd` (which turns it on): every write, to any zone, is seen by the
 * next read, including a write that failed and a PITR restore. A deployed Worker never turns it on.
 */
import { readFileSync, rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FrontCache } from '../../deploy/worker/front-cache.js';
import type { WireAnswer, ZoneCall, ZoneInfo } from '../../src/engine/workerd.js';
import { startWorkerd } from '../helpers/workerd.js';

const zoneA = { id: 'a'.repeat(32), name: 'a.example' } as ZoneInfo;
const zoneB = { id: 'b'.repeat(32), name: 'b.example' } as ZoneInfo;
const listCall = (zone: ZoneInfo, page = '1'): ZoneCall => ({
  route: 'GET /zones/:zone_id/firewall/rules', params: { zone_id: zone.id }, query: [['page', page]], body: undefined, zone,
});
const page = (text: string): WireAnswer => ({ status: 200, json: new TextEncoder().encode(text) });

describe('FrontCache', () => {
  it('answers a repeat read of a list page without asking, per zone and per query', async () => {
    const cache = new FrontCache();
    let asked = 0;
    const ask = (text: string) => async () => { asked++; return page(text); };
    expect(await cache.read(listCall(zoneA), ask('a1'))).toEqual(page('a1'));
    expect(await cache.read(listCall(zoneA), ask('other'))).toEqual(page('a1'));
    expect(await cache.read(listCall(zoneB), ask('b1'))).toEqual(page('b1'));
    expect(await cache.read(listCall(zoneA, '2'), ask('a2'))).toEqual(page('a2'));
    expect(asked).toBe(3);
  });

  it('keeps only list pages (answers with bytes) that succeeded', async () => {
    const cache = new FrontCache();
    await cache.read(listCall(zoneA), async () => ({ status: 200, body: { success: true, errors: [], messages: [], result: {} } }));
    await cache.read(listCall(zoneB), async () => ({ status: 404, json: new TextEncoder().encode('{}') }));
    expect(cache.size).toBe(0);
  });

  it('empties on every write, before and after it, whatever the zone', async () => {
    const cache = new FrontCache();
    await cache.read(listCall(zoneA), async () => page('a1'));
    await cache.read(listCall(zoneB), async () => page('b1'));
    let sizeDuring = -1;
    await cache.write(async () => { sizeDuring = cache.size; });
    expect(sizeDuring).toBe(0);
    expect(cache.size).toBe(0);
    await expect(cache.write(async () => { throw new Error('refused'); })).rejects.toThrow('refused');
    expect(await cache.read(listCall(zoneA), async () => page('a2'))).toEqual(page('a2'));
  });

  it('does not keep a read that overlapped a write: it may be the state before the write', async () => {
    const cache = new FrontCache();
    let answerRead!: (a: WireAnswer) => void;
    const reading = cache.read(listCall(zoneA), () => new Promise((r) => { answerRead = r; }));
    await cache.write(async () => undefined);
    answerRead(page('before the write'));
    expect(await reading).toEqual(page('before the write'));
    expect(cache.size).toBe(0);
    expect(await cache.read(listCall(zoneA), async () => page('after the write'))).toEqual(page('after the write'));
  });
});

describe('deploy/worker/wrangler.jsonc', () => {
  it('never turns the front cache on (a deployed Worker runs in many isolates)', () => {
    const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
    expect(readFileSync(join(root, 'deploy/worker/wrangler.jsonc'), 'utf8')).not.toContain('ZONEWALL_SOLE_FRONT');
  });
});

describe('serve --runtime workerd: reads after writes', () => {
  const token = 'zw-test-token-front-cache-0123456789abc';
  let server: Awaited<ReturnType<typeof startWorkerd>>;
  beforeAll(async () => { server = await startWorkerd({ credentials: [{ type: 'token', token, zones: '*' }] }); }, 120_000);
  afterAll(async () => {
    await server?.close();
    if (server !== undefined) rmSync(server.dir, { recursive: true, force: true });
  });

  async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: { success: boolean; result: any; result_info?: { total_count: number } } }> {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    return { status: res.status, body: (await res.json()) as any };
  }
  const rules = (zone: string) => `/zones/${zone}/firewall/rules?per_page=5&page=1`;
  // List order is the service's (priority, then id), not creation order: compared as sorted sets.
  const descriptions = async (zone: string) => ((await call('GET', rules(zone))).body.result as { description?: string }[]).map((r) => r.description ?? '').sort();

  it('shows every write to the next read: an edit, another zone\'s write, a refused write, a delete, a restore', async () => {
    const [a, b] = await Promise.all(['front-a.example', 'front-b.example'].map(async (name) => (await call('POST', '/zones', { name })).body.result.id as string));
    for (const zone of [a!, b!]) {
      const made = await call('POST', `/zones/${zone}/firewall/rules`, [1, 2, 3].map((i) => ({ action: 'block', description: `r${i}`, filter: { expression: `http.host eq "h${i}.example"` } })));
      expect(made.body.success).toBe(true);
    }
    const first = (await call('GET', rules(a!))).body.result[0] as { id: string; description: string };
    const others = ['r1', 'r2', 'r3'].filter((d) => d !== first.description);
    expect(await descriptions(a!)).toEqual(['r1', 'r2', 'r3']);
    expect(await descriptions(a!)).toEqual(['r1', 'r2', 'r3']);

    // An edit in zone A.
    expect((await call('PATCH', `/zones/${a}/firewall/rules/${first.id}`, { description: 'edited' })).body.success).toBe(true);
    expect(await descriptions(a!)).toEqual(['edited', ...others]);

    // A write to zone B: B's page shows it, A's is unchanged.
    await call('POST', `/zones/${b}/firewall/rules`, [{ action: 'log', description: 'b4', filter: { expression: 'http.host eq "h4.example"' } }]);
    expect((await call('GET', rules(b!))).body.result_info?.total_count).toBe(4);
    expect(await descriptions(a!)).toEqual(['edited', ...others]);

    // A refused write changes nothing, and the next read says so.
    expect((await call('PATCH', `/zones/${a}/firewall/rules/${first.id}`, { action: 'no-such-action' })).status).toBe(400);
    expect(await descriptions(a!)).toEqual(['edited', ...others]);

    // A delete.
    expect((await call('DELETE', `/zones/${a}/firewall/rules/${first.id}`)).body.success).toBe(true);
    expect(await descriptions(a!)).toEqual(others);

    // A PITR restore (workerd run locally has none: 501) empties the cache like any write; the
    // read after it is the object's own answer, the same state.
    const bookmark = (await call('GET', `/zones/${a}/pitr/bookmark`)).body.result.bookmark as string;
    expect((await call('POST', `/zones/${a}/pitr/restore`, { bookmark })).status).toBe(501);
    expect(await descriptions(a!)).toEqual(others);
  }, 120_000);
});
