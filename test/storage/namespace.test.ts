/**
 * `ObjectNamespace` and `ctx`: stubs, one live instance per name, construction with `(ctx, env)`,
 * `blockConcurrencyWhile`, `abort` (reset and restart), `close()`, and argument errors.
 */
import { describe, it, expect } from 'vitest';
import {
  ObjectId, ObjectNamespace, StorageError, StorageResetError, type ObjectState,
} from '../../src/storage/index.js';
import { openNamespace, Probe, probe, rejected, sleep, tempDir } from './helpers.js';

class Tracker {
  static instances = 0;
  readonly serial: number;
  constructor(readonly ctx: ObjectState, readonly env: { tag: string }) {
    this.serial = ++Tracker.instances;
  }
  whoami(): { serial: number; id: string; name: string; tag: string } {
    return { serial: this.serial, id: this.ctx.id.toString(), name: this.ctx.id.name, tag: this.env.tag };
  }
  async stageAndAbort(reason?: string): Promise<void> {
    void this.ctx.storage.put('staged', 1);
    this.ctx.abort(reason);
  }
  async get(key: string): Promise<unknown> {
    return this.ctx.storage.get(key);
  }
  async slowWrite(): Promise<string> {
    await this.ctx.storage.put('slow', 1);
    await sleep(20);
    return 'done';
  }
}

describe('ObjectNamespace', () => {
  it('constructs one live instance per name with (ctx, env) and reuses it', async () => {
    const ns = openNamespace(Tracker as never, { env: { tag: 'E' } }) as unknown as ObjectNamespace<Tracker>;
    const a1 = await ns.get('a').whoami();
    const a2 = await ns.get('a').whoami();
    const b = await ns.get('b').whoami();
    expect(a1.serial).toBe(a2.serial);
    expect(b.serial).not.toBe(a1.serial);
    expect(a1).toMatchObject({ name: 'a', tag: 'E', id: new ObjectId('a').toString() });
    expect(a1.id).toMatch(/^[0-9a-f]{64}$/);
    expect(ns.get('a')).toBe(ns.get('a'));
  });

  it('a stub is not thenable and unknown methods reject', async () => {
    const ns = openNamespace(Probe);
    const stub = ns.get('x');
    expect(await stub).toBe(stub);
    const err = await rejected((stub as unknown as { nope: () => Promise<void> }).nope());
    expect(err).toBeInstanceOf(TypeError);
    expect(err.message).toMatch(/does not implement the method "nope"/);
  });

  it('ctx.abort() discards pending writes, fails the caller and restarts the instance', async () => {
    const ns = openNamespace(Tracker as never, { env: { tag: '' } }) as unknown as ObjectNamespace<Tracker>;
    const stub = ns.get('a');
    const first = await stub.whoami();
    const err = await stub.stageAndAbort('going down').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageResetError);
    expect((err as Error).message).toBe('going down');
    expect((err as StorageResetError).durableObjectReset).toBe(true);
    const second = await stub.whoami();
    expect(second.serial).toBeGreaterThan(first.serial);
    expect(await stub.get('staged')).toBeUndefined();
  });

  it('blockConcurrencyWhile holds other events until the callback settles', async () => {
    const order: string[] = [];
    class Blocker {
      constructor(readonly ctx: ObjectState) {
        void ctx.blockConcurrencyWhile(async () => {
          await sleep(20);
          order.push('init');
        });
      }
      hello(): void {
        order.push('hello');
      }
      async block(): Promise<void> {
        await this.ctx.blockConcurrencyWhile(async () => {
          await sleep(20);
          order.push('block');
        });
      }
    }
    const ns = openNamespace(Blocker);
    const stub = ns.get('b');
    await Promise.all([stub.hello(), stub.block(), stub.hello()]);
    expect(order).toEqual(['init', 'hello', 'block', 'hello']);
  });

  it('a throwing blockConcurrencyWhile callback resets the object', async () => {
    class Fragile {
      static made = 0;
      constructor(readonly ctx: ObjectState) {
        Fragile.made++;
      }
      async fail(): Promise<void> {
        await this.ctx.blockConcurrencyWhile(() => {
          throw new Error('boom');
        });
      }
      ping(): number {
        return Fragile.made;
      }
    }
    const ns = openNamespace(Fragile);
    const stub = ns.get('f');
    const before = await stub.ping();
    await expect(stub.fail()).rejects.toThrow('boom');
    expect(await stub.ping()).toBe(before + 1);
  });

  it('a throwing blockConcurrencyWhile keeps the writes made before it and discards those made inside (as workerd)', async () => {
    const ns = openNamespace(Probe, { backend: 'sqlite' });
    const run = probe(ns);
    const outcome = await run(async (ctx) => {
      void ctx.storage.put('before', 1);
      void ctx.storage.put('before2', 2);
      await ctx.blockConcurrencyWhile(async () => {
        void ctx.storage.put('inside', 3);
        await ctx.storage.put('inside-awaited', 4);
        throw new Error('boom');
      });
    }).catch((e: Error) => e.message);
    expect(outcome).toMatch(/boom/);
    const after = await run(async ({ storage }) => [...(await storage.list()).keys()]);
    expect(after).toEqual(['before', 'before2']);
  });

  it('blockConcurrencyWhile nests deeper than 64 (workerd has no limit)', async () => {
    const run = probe(openNamespace(Probe, { backend: 'sqlite' }));
    const depth = await run((ctx) => {
      const nest = async (n: number): Promise<number> => (n < 200 ? ctx.blockConcurrencyWhile(() => nest(n + 1)) : n);
      return nest(0);
    });
    expect(depth).toBe(200);
  });

  it('close() commits pending writes; reopening sees them; calls after close are refused', async () => {
    const dir = tempDir();
    const ns = new ObjectNamespace(Probe, { dir, backend: 'sqlite' });
    await probe(ns)(({ storage }) => { void storage.put('k', 'v', { allowUnconfirmed: true }); });
    await ns.close();
    expect(() => ns.get('probe')).toThrow(StorageError);
    const again = new ObjectNamespace(Probe, { dir, backend: 'sqlite' });
    try {
      expect(await probe(again)(({ storage }) => storage.get('k'))).toBe('v');
    } finally {
      await again.close();
    }
  });

  it('hibernate() lets an idle object go; the next call starts a fresh instance over the same data', async () => {
    const ns = openNamespace(Tracker as never, { env: { tag: '' } }) as unknown as ObjectNamespace<Tracker>;
    const stub = ns.get('a');
    const first = await stub.whoami();
    await stub.slowWrite();
    await sleep(0);
    expect(ns.hibernate('a')).toBe(true);
    expect(ns.hibernate('never-used')).toBe(true);
    const second = await stub.whoami();
    expect(second.serial).toBeGreaterThan(first.serial);
    expect(await stub.get('slow')).toBe(1);
  });

  it('hibernate() leaves a busy object alone', async () => {
    const ns = openNamespace(Tracker as never, { env: { tag: '' } }) as unknown as ObjectNamespace<Tracker>;
    const stub = ns.get('a');
    const first = await stub.whoami();
    const writing = stub.slowWrite();
    await sleep(0);
    expect(ns.hibernate('a')).toBe(false);
    expect(await writing).toBe('done');
    expect((await stub.whoami()).serial).toBe(first.serial);
  });

  it('an event running at once (nothing queued) is busy to hibernate(), and fails when close() runs during it', async () => {
    const ns = openNamespace(Probe);
    const run = probe(ns, 'p');
    await run(() => 'started');
    // Synchronous events on an idle live instance run at once, outside the queue.
    const seen = await run(() => ns.hibernate('p'));
    expect(seen).toBe(false);
    const closing = run(() => { void ns.close(); return 'finished'; });
    expect((await rejected(closing)).message).toMatch(/namespace was closed/);
  });

  it('refuses a second namespace on the same directory in one process', () => {
    const dir = tempDir();
    openNamespace(Probe, { dir });
    expect(() => new ObjectNamespace(Probe, { dir })).toThrow(/already open/);
  });

  it('validates its options', () => {
    expect(() => new ObjectNamespace(Probe, { dir: '' })).toThrow(TypeError);
    expect(() => new ObjectNamespace(Probe, { dir: tempDir(), backend: 'nope' as never })).toThrow(/Unknown storage backend/);
    expect(() => new ObjectNamespace(Probe, { dir: tempDir(), alarmRetry: { maxRetries: -1 } })).toThrow(/maxRetries/);
  });

  it('events after close of an in-flight call are refused with a clear error', async () => {
    const ns = openNamespace(Tracker as never, { env: { tag: '' } }) as unknown as ObjectNamespace<Tracker>;
    const stub = ns.get('a');
    await stub.whoami();
    await ns.close();
    await expect(stub.whoami()).rejects.toThrow(/closed/);
  });
});
