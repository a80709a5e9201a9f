/**
 * Implicit transactions, write coalescing, the input and output gates, `allowConcurrency`,
 * `allowUnconfirmed`, `sync()` and failed writes (seed 001 "What the service does", "Options",
 * "Errors"), observed through `ObjectNamespace` and a second SQLite connection on the object file.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, it, expect } from 'vitest';
import { ObjectId, StorageResetError, type ObjectState } from '../../src/storage/index.js';
import { BACKENDS, openNamespace, Probe, probe, tempDir } from './helpers.js';

/** Reads a committed KV value straight from the object's file, as another process would. */
function committedKeys(dir: string, name: string): string[] {
  const db = new Database(join(dir, 'objects', `${new ObjectId(name).toString()}.sqlite`), { readonly: true });
  try {
    const table = db.prepare("SELECT 1 FROM sqlite_master WHERE name = '_zw_kv'").get();
    return table ? (db.prepare('SELECT key FROM _zw_kv ORDER BY key').pluck().all() as string[]) : [];
  } finally {
    db.close();
  }
}

class Counter {
  constructor(readonly ctx: ObjectState) {}
  async increment(allowConcurrency = false): Promise<number> {
    const n = ((await this.ctx.storage.get<number>('n', { allowConcurrency })) ?? 0) + 1;
    await this.ctx.storage.put('n', n);
    return n;
  }
}

/** Synchronous methods: each event runs to its end at once, as the engine's zone object does. */
class SyncPair {
  constructor(readonly ctx: ObjectState) {}
  read(): string {
    return 'read';
  }
  write(key: string): string {
    void this.ctx.storage.put(key, 1);
    return 'written';
  }
}

describe.each(BACKENDS)('coalescing and gates (%s backend)', (backend) => {
  it('the output gate holds only results computed after a pending write: an earlier synchronous read leaves at once', async () => {
    const dir = tempDir();
    const pair = openNamespace(SyncPair, { backend, dir }).get('p');
    await pair.write('warm');
    const seen: string[][] = [];
    // Both events run in this turn, the read first; the write's batch commits at the turn's end.
    const read = pair.read().then(() => seen.push(committedKeys(dir, 'p')));
    const write = pair.write('late').then(() => seen.push(committedKeys(dir, 'p')));
    const after = pair.read().then(() => seen.push(committedKeys(dir, 'p')));
    await Promise.all([read, write, after]);
    expect(seen).toEqual([['warm'], ['late', 'warm'], ['late', 'warm']]);
  });

  it('the input gate holds other events while a read is pending: concurrent increments are unique', async () => {
    const ns = openNamespace(Counter, { backend });
    const counter = ns.get('c');
    const results = await Promise.all([counter.increment(), counter.increment(), counter.increment()]);
    expect(results.sort()).toEqual([1, 2, 3]);
  });

  it('allowConcurrency lets other events run while the read is pending', async () => {
    const ns = openNamespace(Counter, { backend });
    const counter = ns.get('c');
    const results = await Promise.all([counter.increment(true), counter.increment(true)]);
    expect(results).toEqual([1, 1]);
  });

  it('reads see pending writes of the same batch', async () => {
    const run = probe(openNamespace(Probe, { backend }));
    const seen = await run(async ({ storage }) => {
      void storage.put('a', 1);
      const a = await storage.get('a');
      void storage.delete('a');
      return [a, await storage.get('a'), (await storage.list()).size];
    });
    expect(seen).toEqual([1, undefined, 0]);
  });

  it('the output gate holds a result until its writes are on disk', async () => {
    const dir = tempDir();
    const run = probe(openNamespace(Probe, { backend, dir }), 'o');
    await run(({ storage }) => { void storage.put('a', 1); void storage.put('b', 2); });
    // The caller resumes only now: the batch is already committed for any other reader.
    expect(committedKeys(dir, 'o')).toEqual(['a', 'b']);
  });

  it('allowUnconfirmed lets the result leave first; sync() waits for the write', async () => {
    const dir = tempDir();
    const run = probe(openNamespace(Probe, { backend, dir }), 'o');
    await run(({ storage }) => storage.put('warm', 0));
    await run(({ storage }) => { void storage.put('u', 1, { allowUnconfirmed: true }); });
    const before = committedKeys(dir, 'o');
    await run(({ storage }) => storage.sync());
    expect(before).toEqual(['warm']);
    expect(committedKeys(dir, 'o')).toEqual(['u', 'warm']);
  });

  it('one confirmed write makes the whole batch hold the output gate', async () => {
    const dir = tempDir();
    const run = probe(openNamespace(Probe, { backend, dir }), 'o');
    await run(({ storage }) => {
      void storage.put('u', 1, { allowUnconfirmed: true });
      void storage.put('c', 2);
    });
    expect(committedKeys(dir, 'o')).toEqual(['c', 'u']);
  });

  it('every write accepts allowUnconfirmed, and every read allowConcurrency, without changing results', async () => {
    const dir = tempDir();
    class Both {
      constructor(readonly ctx: ObjectState) {}
      async alarm(): Promise<void> {}
      async run(): Promise<unknown[]> {
        const { storage } = this.ctx;
        const u = { allowUnconfirmed: true };
        const c = { allowConcurrency: true };
        await storage.put({ a: 1, b: 2 }, u);
        await storage.delete('b', u);
        await storage.setAlarm(Date.now() + 3_600_000, u);
        const alarm = await storage.getAlarm(c);
        await storage.deleteAlarm(u);
        return [await storage.get('a', c), [...(await storage.list(c)).keys()], alarm !== null, await storage.getAlarm(c)];
      }
    }
    const ns = openNamespace(Both, { backend, dir });
    expect(await ns.get('o').run()).toEqual([1, ['a'], true, null]);
    await ns.close();
    expect(committedKeys(dir, 'o')).toEqual(['a']);
  });

  it('sync() resolves at once when nothing is pending', async () => {
    const run = probe(openNamespace(Probe, { backend }));
    await expect(run(({ storage }) => storage.sync())).resolves.toBeUndefined();
  });

  it('writes separated by a turn of the event loop commit as separate batches; writes without one as one', async () => {
    const dir = tempDir();
    const ns = openNamespace(Probe, { backend, dir });
    const snapshots = await probe(ns, 'o')(async ({ storage }) => {
      void storage.put('a', 1);
      void storage.put('b', 2);
      await storage.get('a'); // an already-resolved read does not end the batch
      const inBatch = committedKeys(dir, 'o');
      await new Promise((resolve) => setImmediate(resolve)); // a macrotask (I/O) turn does
      const afterTurn = committedKeys(dir, 'o');
      return { inBatch, afterTurn };
    });
    expect(snapshots).toEqual({ inBatch: [], afterTurn: ['a', 'b'] });
  });
});

describe('deleteAll on the sqlite backend', () => {
  it('is always confirmed and atomic with the writes of its batch', async () => {
    const dir = tempDir();
    const run = probe(openNamespace(Probe, { backend: 'sqlite', dir }), 'o');
    await run(({ storage }) => { void storage.put('old', 1); });
    await run(({ storage }) => {
      void storage.deleteAll({ allowUnconfirmed: true });
      void storage.put('new', 2, { allowUnconfirmed: true });
    });
    expect(committedKeys(dir, 'o')).toEqual(['new']);
  });
});

describe('failed writes (sqlite backend)', () => {
  class Ledger {
    static constructed = 0;
    constructor(readonly ctx: ObjectState) {
      Ledger.constructed++;
    }
    setup(): void {
      this.ctx.storage.sql.exec(
        'CREATE TABLE parent (id INTEGER PRIMARY KEY); ' +
          'CREATE TABLE child (pid INTEGER REFERENCES parent(id) DEFERRABLE INITIALLY DEFERRED)',
      );
    }
    async breakIt(): Promise<string> {
      await this.ctx.storage.put('lost', 1);
      // Checked only at COMMIT: the whole batch fails to commit.
      this.ctx.storage.sql.exec('INSERT INTO child VALUES (42)');
      return 'returned';
    }
    async read(): Promise<unknown> {
      return this.ctx.storage.get('lost');
    }
  }

  it('a failed commit resets the object, fails the waiting caller and discards the batch', async () => {
    const ns = openNamespace(Ledger, { backend: 'sqlite' });
    const ledger = ns.get('l');
    await ledger.setup();
    const before = Ledger.constructed;
    const err = await ledger.breakIt().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(StorageResetError);
    expect((err as StorageResetError).durableObjectReset).toBe(true);
    expect((err as Error).message).toMatch(/FOREIGN KEY constraint failed/);
    expect(await ledger.read()).toBeUndefined();
    expect(Ledger.constructed).toBe(before + 1);
  });
});
