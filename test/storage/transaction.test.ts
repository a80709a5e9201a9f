/**
 * Explicit transactions (seed 001 "Transaction states", `transaction` row, `txn` methods) and
 * `transactionSync`, through `ObjectNamespace` on both backends.
 */
import { describe, it, expect } from 'vitest';
import { StorageUnsupportedError, TransactionError, type ObjectState } from '../../src/storage/index.js';
import { BACKENDS, openNamespace, Probe, probe, sleep } from './helpers.js';

describe.each(BACKENDS)('transaction() (%s backend)', (backend) => {
  const open = () => probe(openNamespace(Probe, { backend }));

  it('open -> closure returns -> committed, resolving to the closure value', async () => {
    const run = open();
    const value = await run(({ storage }) =>
      storage.transaction(async (txn) => {
        await txn.put('a', 1);
        await txn.put({ b: 2, c: 3 });
        await txn.delete('c');
        return [...(await txn.list()).keys()];
      }));
    expect(value).toEqual(['a', 'b']);
    expect(await run(async ({ storage }) => [...(await storage.list()).entries()])).toEqual([['a', 1], ['b', 2]]);
  });

  it('open -> txn.rollback() -> rolled back; later operations on txn fail', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      await storage.put('kept', 0);
      const value = await storage.transaction(async (txn) => {
        await txn.put('kept', 1);
        await txn.put('new', 1);
        txn.rollback();
        txn.rollback(); // again: no effect
        const errors: string[] = [];
        const ops: Array<[string, () => Promise<unknown>]> = [
          ['get', () => txn.get('kept')], ['put', () => txn.put('x', 1)], ['delete', () => txn.delete('x')],
          ['list', () => txn.list()], ['getAlarm', () => txn.getAlarm()], ['deleteAlarm', () => txn.deleteAlarm()],
        ];
        for (const [, op] of ops) await op().catch((e: Error) => errors.push(`${e.constructor.name}: ${e.message}`));
        return errors;
      });
      return { value, kept: await storage.get('kept'), added: await storage.get('new') };
    });
    expect(result.value).toEqual([
      'TransactionError: Cannot get() on rolled back transaction',
      'TransactionError: Cannot put() on rolled back transaction',
      'TransactionError: Cannot delete() on rolled back transaction',
      'TransactionError: Cannot list() on rolled back transaction',
      'TransactionError: Cannot getAlarm() on rolled back transaction',
      'TransactionError: Cannot deleteAlarm() on rolled back transaction',
    ]);
    expect(result.kept).toBe(0);
    expect(result.added).toBeUndefined();
  });

  it('txn.deleteAll() rejects as in the reference and leaves the transaction usable', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      await storage.put('k', 1);
      return storage.transaction(async (txn) => {
        const err = await txn.deleteAll().catch((e: Error) => `${e.constructor.name}: ${e.message}`);
        await txn.put('k', 2);
        return { err, k: await txn.get('k') };
      });
    });
    expect(result).toEqual({ err: 'TransactionError: Cannot call deleteAll() within a transaction', k: 2 });
  });

  it('open -> closure throws -> aborted: nothing committed, the same error rethrown', async () => {
    const run = open();
    const thrown = new Error('nope');
    const result = await run(async ({ storage }) => {
      const err = await storage
        .transaction(async (txn) => {
          await txn.put('a', 1);
          await storage.put('b', 2); // also part of the transaction
          throw thrown;
        })
        .catch((e: unknown) => e);
      return { same: err === thrown, a: await storage.get('a'), b: await storage.get('b') };
    });
    expect(result).toEqual({ same: true, a: undefined, b: undefined });
  });

  it('writes made before the call commit on their own', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      void storage.put('before', 1);
      await storage.transaction(async () => { throw new Error('x'); }).catch(() => undefined);
      return storage.get('before');
    });
    expect(result).toBe(1);
  });

  it('using txn after the closure resolved fails', async () => {
    const run = open();
    const message = await run(async ({ storage }) => {
      let leaked: { put: (k: string, v: unknown) => Promise<void> } | undefined;
      await storage.transaction(async (txn) => { leaked = txn; });
      return (leaked as { put: (k: string, v: unknown) => Promise<void> }).put('x', 1).catch((e: Error) => e.message);
    });
    expect(message).toMatch(/already committed: did you move `txn` outside of the closure\?/);
  });

  it('includes un-awaited writes and runs operations in program order', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      await storage.put('k', 'old');
      await storage.transaction(async (txn) => {
        void txn.delete('k');
        void txn.put('k', 'new');
        void txn.put('unawaited', true);
      });
      return [await storage.get('k'), await storage.get('unawaited')];
    });
    expect(result).toEqual(['new', true]);
  });

  it('an outer rollback also undoes a committed nested transaction', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      await storage.put('v', 3);
      let seenInside: unknown;
      await storage.transaction(async (outer) => {
        await outer.put('v', 6);
        await storage.transaction(async (inner) => {
          await sleep(1);
          await inner.put('v', 7);
        });
        seenInside = await outer.get('v');
        outer.rollback();
      });
      return { seenInside, after: await storage.get('v') };
    });
    expect(result).toEqual({ seenInside: 7, after: 3 });
  });

  it('holds other events while the closure awaits', async () => {
    const order: string[] = [];
    class Slow {
      constructor(readonly ctx: ObjectState) {}
      async txn(): Promise<void> {
        await this.ctx.storage.transaction(async (t) => {
          await sleep(20);
          await t.put('x', 1);
          order.push('txn');
        });
      }
      async read(): Promise<void> {
        order.push(`read:${String(await this.ctx.storage.get('x'))}`);
      }
    }
    const stub = openNamespace(Slow, { backend }).get('s');
    await Promise.all([stub.txn(), stub.read()]);
    expect(order).toEqual(['txn', 'read:1']);
  });

  it('sync() inside a transaction resolves at once, as in workerd, and the transaction still commits', async () => {
    const run = open();
    const result = await run(({ storage }) => storage.transaction(async (txn) => {
      await txn.put('a', 1);
      await storage.sync();
      await storage.transaction(() => storage.sync());
      return 'resolved';
    }));
    expect(result).toBe('resolved');
    expect(await run(({ storage }) => storage.get('a'))).toBe(1);
  });

  it('deleteAll() inside a transaction is refused', async () => {
    const run = open();
    const err = await run(({ storage }) => storage.transaction(() => storage.deleteAll()).catch((e: Error) => e));
    expect(err).toBeInstanceOf(TransactionError);
    expect((err as Error).message).toBe('Cannot call deleteAll() within a transaction');
  });
});

describe('transactionSync()', () => {
  it('sync() inside transactionSync() resolves once the batch commits', async () => {
    const run = probe(openNamespace(Probe, { backend: 'sqlite' }));
    const result = await run(async ({ storage }) => {
      void storage.put('a', 1);
      let synced: Promise<void> = Promise.resolve();
      storage.transactionSync(() => { synced = storage.sync(); });
      await synced;
      return storage.get('a');
    });
    expect(result).toBe(1);
  });

  it('commits on return, rolls back and rethrows on throw; nested throws undo only the inner part', async () => {
    const run = probe(openNamespace(Probe, { backend: 'sqlite' }));
    const result = await run(({ storage }) => {
      storage.sql.exec('CREATE TABLE t (v TEXT)');
      const value = storage.transactionSync(() => {
        storage.sql.exec("INSERT INTO t VALUES ('outer')");
        try {
          storage.transactionSync(() => {
            storage.sql.exec("INSERT INTO t VALUES ('inner')");
            throw new Error('inner fails');
          });
        } catch {
          // swallowed: only the inner savepoint is undone
        }
        return 'ok';
      });
      let message = '';
      try {
        storage.transactionSync(() => {
          storage.sql.exec("INSERT INTO t VALUES ('gone')");
          storage.sql.exec('SELECT * FROM missing_table');
        });
      } catch (err) {
        message = (err as Error).message;
      }
      return { value, message, rows: storage.sql.exec('SELECT v FROM t').raw().toArray().flat() };
    });
    expect(result.value).toBe('ok');
    expect(result.message).toMatch(/no such table: missing_table/);
    expect(result.rows).toEqual(['outer']);
  });

  it('is not available on the kv backend', async () => {
    const run = probe(openNamespace(Probe, { backend: 'kv' }));
    const err = await run(({ storage }) => {
      try {
        storage.transactionSync(() => 1);
        return null;
      } catch (e) {
        return e;
      }
    });
    expect(err).toBeInstanceOf(StorageUnsupportedError);
    expect((err as Error).message).toMatch(/'kv' backend/);
  });
});
