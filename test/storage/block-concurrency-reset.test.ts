/**
 * Events queued behind a `blockConcurrencyWhile` whose callback throws: workerd fails each of them
 * with the callback's own error ("Error: boom"), then the next event finds a fresh object. Observed
 * in both runtimes side by side (workerd through Miniflare 3, 127.0.0.1 only): the differential
 * suite runs one event at a time, so it cannot see what a queued event gets.
 */
import type { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StorageResetError, type ObjectNamespace, type ObjectState } from '../../src/storage/index.js';
import { startObjectWorker } from './differential/runtimes.js';
import { openNamespace, sleep } from './helpers.js';

/** What each of three events observed: the first blocks and throws after 100 ms, two more arrive while it blocks. */
interface Observed {
  blocking: string;
  queued: string[];
  after: string;
}

const WorkerScript = `
export class Obj {
  constructor(ctx) { this.ctx = ctx; }
  async fetch(request) {
    if (new URL(request.url).pathname === '/block') {
      await this.ctx.blockConcurrencyWhile(async () => { await new Promise((r) => setTimeout(r, 100)); throw new Error('boom'); });
    }
    return new Response('ok');
  }
}
export default {
  async fetch(request, env) {
    try {
      const r = await env.OBJ.get(env.OBJ.idFromName('x')).fetch(request);
      return new Response(await r.text());
    } catch (e) {
      return new Response(String(e));
    }
  },
};`;

let mf: Miniflare;
beforeAll(async () => {
  mf = await startObjectWorker(WorkerScript);
}, 60_000);
afterAll(async () => {
  await mf?.dispose();
});

/** The three events against workerd. */
async function onWorkerd(): Promise<Observed> {
  const text = async (path: string) => (await mf.dispatchFetch(`http://127.0.0.1${path}`)).text();
  const blocking = text('/block');
  await sleep(20);
  const queued = [text('/one'), text('/two')];
  return { blocking: await blocking, queued: await Promise.all(queued), after: await text('/after') };
}

class Blocker {
  constructor(readonly ctx: ObjectState) {}
  async block(): Promise<string> {
    await this.ctx.blockConcurrencyWhile(async () => {
      await sleep(100);
      throw new Error('boom');
    });
    return 'ok';
  }
  ping(): string {
    return 'ok';
  }
}

/** The same three events against a zonewall object; errors as `String(err)`, as the worker answers them. */
async function onZonewall(): Promise<{ observed: Observed; queuedErrors: unknown[] }> {
  const ns = openNamespace(Blocker) as unknown as ObjectNamespace<Blocker>;
  const stub = ns.get('x');
  const settle = (p: Promise<string>) => p.then((v) => ({ text: v, error: undefined as unknown }), (e: unknown) => ({ text: String(e), error: e }));
  const blocking = settle(stub.block());
  await sleep(20);
  const queued = await Promise.all([settle(stub.ping()), settle(stub.ping())]);
  const observed = { blocking: (await blocking).text, queued: queued.map((q) => q.text), after: (await settle(stub.ping())).text };
  return { observed, queuedErrors: queued.map((q) => q.error) };
}

describe('blockConcurrencyWhile whose callback throws, with events queued behind it', () => {
  it('fails each queued event with the callback\'s own message, as workerd does, and the next event finds a fresh object', async () => {
    const workerd = await onWorkerd();
    expect(workerd).toEqual({ blocking: 'Error: boom', queued: ['Error: boom', 'Error: boom'], after: 'ok' });
    const zonewall = await onZonewall();
    expect(zonewall.observed).toEqual(workerd);
    // Still zonewall's reset error underneath: its code and the reference's reset marker.
    for (const err of zonewall.queuedErrors) {
      expect(err).toBeInstanceOf(StorageResetError);
      expect((err as StorageResetError).durableObjectReset).toBe(true);
    }
  });
});
