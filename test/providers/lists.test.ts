/**
 * The Provider's Lists calls (src/providers/v4/lists.ts) over the embedded engine: resolving an
 * account by name or id, every item through the cursor pages, the item writes and the wait for
 * their bulk operation (pending and running polls reported, no real sleep), a 429 while another
 * operation processes, a failed operation's reason, and a write whose answer was lost seen on a
 * re-read (never applied twice).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/index.js';
import { EngineProvider } from '../../src/providers/engine/index.js';
import { ProviderError, ServiceError } from '../../src/providers/index.js';

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => { await cleanup?.(); cleanup = undefined; });

async function provider(listOperationPolls = 0): Promise<{ p: EngineProvider; engine: Engine }> {
  const dir = mkdtempSync(join(tmpdir(), 'zw-provider-lists-'));
  const engine = await Engine.open({ dir, listOperationPolls });
  const p = new EngineProvider(engine, dir, () => undefined);
  cleanup = async () => { await p.close(); await engine.close(); rmSync(dir, { recursive: true, force: true }); };
  return { p, engine };
}

const noSleep = async (): Promise<void> => undefined;

describe('Provider lists calls', () => {
  it('resolves accounts, writes items and reads them all back through cursor pages', async () => {
    const { p, engine } = await provider();
    const acme = await engine.createAccount('acme');
    // The engine says the account's plan (its lists quotas follow it): enterprise by default.
    expect(await p.resolveAccount('acme')).toEqual({ id: acme.id, name: 'acme', tier: 'enterprise' });
    expect(await p.resolveAccount(acme.id)).toEqual({ id: acme.id, name: 'acme', tier: 'enterprise' });
    await expect(p.resolveAccount('nobody')).rejects.toThrow('no account named nobody');
    const list = await p.createList(acme.id, { name: 'office', kind: 'ip', description: 'office' });
    const items = Array.from({ length: 1203 }, (_, i) => ({ ip: `10.0.${Math.floor(i / 256)}.${i % 256}` }));
    const op = await p.replaceListItems(acme.id, list.id, items);
    expect((await p.waitForListOperation(acme.id, op, { sleep: noSleep })).status).toBe('completed');
    const read = await p.listItems(acme.id, list.id);
    expect(read.map((i) => ('ip' in i ? i.ip : ''))).toEqual(items.map((i) => i.ip));
    expect(p.stats.requests).toBeGreaterThan(3); // 1203 items at 500 a page: 3 pages
    const removed = await p.deleteListItems(acme.id, list.id, [read[0]!.id]);
    await p.waitForListOperation(acme.id, removed, { sleep: noSleep });
    expect((await p.listLists(acme.id))[0]).toMatchObject({ name: 'office', num_items: 1202 });
    expect(await p.updateList(acme.id, list.id, { description: 'new' })).toMatchObject({ description: 'new' });
    const bookmark = await p.bookmarkAccount(acme.id);
    await p.deleteList(acme.id, list.id);
    expect(await p.listLists(acme.id)).toEqual([]);
    await p.restoreAccount(acme.id, bookmark);
    expect((await p.listLists(acme.id)).map((l) => l.name)).toEqual(['office']);
  });

  it('waits through pending and running polls, reports them, and meets a 429 for a write meanwhile', async () => {
    const { p } = await provider(2);
    const account = (await p.resolveAccount('zonewall engine')).id;
    const list = await p.createList(account, { name: 'ips', kind: 'ip' });
    const op = await p.addListItems(account, list.id, [{ ip: '192.0.2.1' }]);
    const busy = await p.addListItems(account, list.id, [{ ip: '192.0.2.2' }]).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(ServiceError);
    expect([(busy as ServiceError).status, (busy as ServiceError).hasCode(10314)]).toEqual([429, true]);
    const seen: string[] = [];
    const waits: number[] = [];
    const done = await p.waitForListOperation(account, op, { onPoll: (o) => seen.push(o.status), sleep: async (ms) => { waits.push(ms); } });
    expect([done.status, seen, waits]).toEqual(['completed', ['pending', 'running'], [250, 500]]);
    // A write whose answer was lost is already applied (a re-read shows it); sent again, it is not duplicated.
    await p.waitForListOperation(account, await p.addListItems(account, list.id, [{ ip: '192.0.2.2' }]), { sleep: noSleep });
    const reread = await p.listItems(account, list.id);
    expect(reread.map((i) => ('ip' in i ? i.ip : ''))).toEqual(['192.0.2.1', '192.0.2.2']);
    await p.waitForListOperation(account, await p.addListItems(account, list.id, [{ ip: '192.0.2.2' }]), { sleep: noSleep });
    expect((await p.listItems(account, list.id)).map((i) => i.id)).toEqual(reread.map((i) => i.id));
  });

  it('throws the service\'s reason for a failed operation', async () => {
    const { p, engine } = await provider();
    const free = await engine.createAccount('free', { plan: 'free' });
    const list = await p.createList(free.id, { name: 'ips', kind: 'ip' });
    const op = await p.replaceListItems(free.id, list.id, Array.from({ length: 10_001 }, (_, i) => ({ ip: `10.1.${Math.floor(i / 256)}.${i % 256}` })));
    const err = await p.waitForListOperation(free.id, op, { sleep: noSleep }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as Error).message).toContain('exceeded the maximum number of list items');
    expect(await p.listItems(free.id, list.id)).toEqual([]);
  });
});
