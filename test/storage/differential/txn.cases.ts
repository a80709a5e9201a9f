/** Differential cases of transactions: commit, rollback, thrown errors, nesting, sync() inside. */
import type { ObjectTransaction } from '../../../src/storage/index.js';
import { defineCases } from './case.js';
import { attempt, settle } from './observe.js';

export const txnCases = defineCases('txn', {
  'a transaction commits and returns the closure value': async (s) => {
    const value = await s.transaction(async (txn) => {
      await txn.put('a', 1);
      return (await txn.get('a')) as number + 1;
    });
    return { value, a: await s.get('a') };
  },
  'rollback() undoes the writes; later use is an Error': async (s) => {
    let saved: ObjectTransaction | undefined;
    await s.transaction(async (txn) => {
      await txn.put('a', 1);
      txn.rollback();
      txn.rollback();
      saved = txn;
    });
    return { a: await s.get('a'), after: await settle(() => (saved as ObjectTransaction).put('b', 2)) };
  },
  'using txn after its closure resolved is an Error': async (s) => {
    let saved: ObjectTransaction | undefined;
    await s.transaction((txn) => {
      saved = txn;
    });
    return settle(() => (saved as ObjectTransaction).get('a'));
  },
  'a throwing closure rolls back and rethrows the same value': async (s) => {
    const thrown = { mine: true };
    const caught = await s.transaction(async (txn) => {
      await txn.put('a', 1);
      throw thrown;
    }).catch((err: unknown) => err);
    return { same: caught === thrown, a: await s.get('a') };
  },
  'nested transactions: the inner one rolls back alone': async (s) => {
    await s.transaction(async (outer) => {
      await outer.put('outer', 1);
      await s.transaction(async (inner) => {
        await inner.put('inner', 1);
        inner.rollback();
      });
    });
    return [...(await s.list())];
  },
  'transactionSync commits, and rolls back on a throw': (s) => {
    s.transactionSync(() => s.sql.exec('CREATE TABLE t (v)'));
    const thrown = attempt(() => s.transactionSync(() => {
      s.sql.exec('INSERT INTO t VALUES (1)');
      throw new RangeError('nope');
    }));
    return { thrown, rows: s.sql.exec('SELECT count(*) AS n FROM t').one() };
  },
  'deleteAll() inside a transaction is an Error': (s) => settle(() => s.transaction(() => s.deleteAll())),
  'sync() inside a transaction resolves': async (s) => settle(() => s.transaction(async (txn) => {
    await txn.put('a', 1);
    await s.sync();
    return 'done';
  })),
  'txn.delete, txn.list and txn.get of many keys': async (s) => {
    await s.put({ a: 1, b: 2, c: 3 });
    return s.transaction(async (txn) => ({
      deleted: await txn.delete(['a', 'zz']),
      list: [...(await txn.list({ reverse: true }))],
      many: [...(await txn.get(['b', 'c']))],
    }));
  },
  'transactionSync: nesting, KV and SQL together, return value': (s) => {
    s.sql.exec('CREATE TABLE t (v)');
    const value = s.transactionSync(() => {
      s.sql.exec('INSERT INTO t VALUES (1)');
      const inner = attempt(() => s.transactionSync(() => {
        s.sql.exec('INSERT INTO t VALUES (2)');
        throw new Error('inner fails');
      }));
      return { inner, rows: s.sql.exec('SELECT v FROM t').raw().toArray() };
    });
    return { value, after: s.sql.exec('SELECT v FROM t').raw().toArray() };
  },
  'alarm operations inside a transaction': async (s) => s.transaction(async (txn) => {
    await txn.setAlarm(4_102_444_800_000);
    const inside = await txn.getAlarm();
    await txn.deleteAlarm();
    return { inside, afterDelete: await txn.getAlarm() };
  }),
  'blockConcurrencyWhile returns the callback value': async (_s, ctx) => ({
    sync: await ctx.blockConcurrencyWhile(() => 1),
    async: await ctx.blockConcurrencyWhile(async () => {
      await ctx.storage.put('a', 2);
      return ctx.storage.get('a');
    }),
  }),
  'an un-awaited put before a throwing blockConcurrencyWhile is kept': {
    run: async (s, ctx) => {
      void s.put('a', 1);
      await ctx.blockConcurrencyWhile(() => {
        throw new Error('boom');
      });
    },
    later: { run: (s) => s.get('a'), settled: () => true },
  },
  'blockConcurrencyWhile nests 70 deep': async (_s, ctx) => {
    const nest = (depth: number): Promise<number> =>
      ctx.blockConcurrencyWhile(() => (depth === 70 ? depth : nest(depth + 1)));
    return settle(() => nest(1));
  },
});
