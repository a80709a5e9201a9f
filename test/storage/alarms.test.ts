/**
 * Alarms (seed 001 "Alarm states" table, alarm operations, `deleteAll()` keeping the alarm) and the
 * retry policy the seed leaves open, through `ObjectNamespace` on both backends. Retries use a
 * small `alarmRetry.baseDelayMs` so no test waits for the reference's 2-second delays.
 */
import { describe, it, expect } from 'vitest';
import { StorageTypeError, type AlarmInvocationInfo, type ObjectNamespace, type ObjectState } from '../../src/storage/index.js';
import { BACKENDS, openNamespace, sleep, tempDir } from './helpers.js';

interface Env {
  runs: Array<AlarmInvocationInfo & { at: number; seen: number | null }>;
  failTimes: number;
  hold?: Promise<void>;
  onRun?: (ctx: ObjectState) => Promise<void> | void;
}

class Alarmed {
  constructor(readonly ctx: ObjectState, readonly env: Env) {}
  async alarm(info: AlarmInvocationInfo): Promise<void> {
    const seen = await this.ctx.storage.getAlarm();
    this.env.runs.push({ ...info, at: Date.now(), seen });
    await this.env.onRun?.(this.ctx);
    if (this.env.hold) await this.env.hold;
    if (this.env.runs.length <= this.env.failTimes) throw new Error(`attempt ${this.env.runs.length} fails`);
  }
  async call<R>(fn: (ctx: ObjectState) => R | Promise<R>): Promise<R> {
    return fn(this.ctx);
  }
}

async function waitFor(condition: () => boolean, what: string, timeoutMs = 5000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(5);
  }
}

function newEnv(partial: Partial<Env> = {}): Env {
  return { runs: [], failTimes: 0, ...partial };
}

describe.each(BACKENDS)('alarms (%s backend)', (backend) => {
  const open = (env: Env, dir = tempDir(), maxRetries = 6): ObjectNamespace<Alarmed> =>
    openNamespace(Alarmed as never, {
      backend, dir, env, alarmRetry: { baseDelayMs: 5, maxRetries }, onAlarmError: () => undefined,
    }) as unknown as ObjectNamespace<Alarmed>;

  it('not set: getAlarm() is null; setAlarm(future) -> set; it fires at its time, then is cleared', async () => {
    const env = newEnv();
    const stub = open(env).get('a');
    const time = Date.now() + 250;
    const states = await stub.call(async ({ storage }) => {
      const before = await storage.getAlarm();
      await storage.setAlarm(time);
      return [before, await storage.getAlarm()];
    });
    expect(states).toEqual([null, time]);
    await waitFor(() => env.runs.length === 1, 'the alarm');
    const [run] = env.runs;
    expect(run).toMatchObject({ scheduledTime: time, retryCount: 0, isRetry: false, seen: null });
    expect(run!.at).toBeGreaterThanOrEqual(time);
    await waitFor(() => true, 'settle');
    expect(await stub.call(({ storage }) => storage.getAlarm())).toBeNull();
  });

  it('set: setAlarm(time) replaces the alarm time (one alarm per object)', async () => {
    const env = newEnv();
    const stub = open(env).get('a');
    const second = Date.now() + 300;
    const stored = await stub.call(async ({ storage }) => {
      await storage.setAlarm(Date.now() + 100);
      await storage.setAlarm(second);
      return storage.getAlarm();
    });
    expect(stored).toBe(second);
    await waitFor(() => env.runs.length === 1, 'the alarm');
    await sleep(20);
    expect(env.runs.map((r) => r.scheduledTime)).toEqual([second]);
  });

  it('any: setAlarm(time at or before now) runs soon, asynchronously', async () => {
    const env = newEnv();
    const stub = open(env).get('a');
    const result = await stub.call(async ({ storage }) => {
      const calledAt = Date.now();
      await storage.setAlarm(calledAt - 60_000);
      return { calledAt, stored: await storage.getAlarm(), ranYet: env.runs.length };
    }) as { calledAt: number; stored: number; ranYet: number };
    expect(result.ranYet).toBe(0);
    expect(result.stored).toBeGreaterThanOrEqual(result.calledAt);
    await waitFor(() => env.runs.length === 1, 'the overdue alarm');
  });

  it('set: deleteAlarm() -> not set; the alarm never fires. not set: deleteAlarm() has no effect', async () => {
    const env = newEnv();
    const stub = open(env).get('a');
    const states = await stub.call(async ({ storage }) => {
      await storage.deleteAlarm();
      const none = await storage.getAlarm();
      await storage.setAlarm(Date.now() + 30);
      await storage.deleteAlarm();
      return [none, await storage.getAlarm()];
    });
    expect(states).toEqual([null, null]);
    await sleep(60);
    expect(env.runs).toHaveLength(0);
  });

  it('a running handler is not cancelled by setAlarm() or deleteAlarm()', async () => {
    let release!: () => void;
    const env = newEnv({ hold: new Promise<void>((r) => { release = r; }) });
    const stub = open(env).get('a');
    await stub.call(({ storage }) => storage.setAlarm(Date.now()));
    await waitFor(() => env.runs.length === 1, 'the handler to start');
    await stub.call(async ({ storage }) => {
      await storage.deleteAlarm();
      await storage.setAlarm(Date.now() + 3_600_000);
      await storage.deleteAlarm();
    });
    let finished = false;
    env.onRun = undefined;
    release();
    await waitFor(() => { finished = env.runs.length === 1; return finished; }, 'the handler to finish');
    await sleep(20);
    expect(env.runs).toHaveLength(1);
    expect(await stub.call(({ storage }) => storage.getAlarm())).toBeNull();
  });

  it('getAlarm() inside the handler is null, or the new time once the handler sets one, which then fires', async () => {
    const seen: Array<number | null> = [];
    const env = newEnv({
      onRun: async ({ storage }) => {
        if (env.runs.length > 1) return;
        seen.push(await storage.getAlarm());
        await storage.setAlarm(Date.now() + 10);
        seen.push(await storage.getAlarm());
      },
    });
    const stub = open(env).get('a');
    await stub.call(({ storage }) => storage.setAlarm(Date.now() + 5));
    await waitFor(() => env.runs.length === 2, 'the second alarm');
    expect(seen[0]).toBeNull();
    expect(typeof seen[1]).toBe('number');
    expect(env.runs[1]!.scheduledTime).toBe(seen[1]);
  });

  it('deleteAll() does not delete the alarm', async () => {
    const env = newEnv();
    const stub = open(env).get('a');
    const time = Date.now() + 3_600_000;
    const after = await stub.call(async ({ storage }) => {
      await storage.put('k', 1);
      await storage.setAlarm(time);
      await storage.deleteAll();
      return { alarm: await storage.getAlarm(), k: await storage.get('k'), n: (await storage.list()).size };
    });
    expect(after).toEqual({ alarm: time, k: undefined, n: 0 });
  });

  it('the alarm is persisted: it fires after the namespace is reopened, overdue ones at once', async () => {
    const dir = tempDir();
    const env = newEnv();
    // The first namespace's clock runs an hour behind, so the alarm cannot fire before close().
    const ns = openNamespace(Alarmed as never, {
      backend, dir, env, now: () => Date.now() - 3_600_000, onAlarmError: () => undefined,
    }) as unknown as ObjectNamespace<Alarmed>;
    const time = Date.now() + 20;
    await ns.get('persist').call(({ storage }) => storage.setAlarm(time));
    await ns.get('other').call(({ storage }) => storage.setAlarm(Date.now() + 3_600_000));
    await ns.close();
    await sleep(Math.max(0, time - Date.now()) + 10); // overdue now, with no namespace open
    expect(env.runs).toHaveLength(0);
    const reopened = open(env, dir);
    await waitFor(() => env.runs.length === 1, 'the overdue alarm after reopening');
    expect(env.runs[0]!.scheduledTime).toBe(time);
    expect(await reopened.get('other').call(({ storage }) => storage.getAlarm())).toBeGreaterThan(Date.now());
  });

  it('a failing handler is retried with retryCount/isRetry until it succeeds', async () => {
    const env = newEnv({ failTimes: 2 });
    const stub = open(env).get('a');
    await stub.call(({ storage }) => storage.setAlarm(Date.now()));
    await waitFor(() => env.runs.length === 3, 'three attempts');
    expect(env.runs.map((r) => [r.retryCount, r.isRetry])).toEqual([[0, false], [1, true], [2, true]]);
    expect(new Set(env.runs.map((r) => r.scheduledTime)).size).toBe(1);
    await sleep(20);
    expect(await stub.call(({ storage }) => storage.getAlarm())).toBeNull();
  });

  it('after the last allowed retry fails, the alarm is abandoned and cleared', async () => {
    const env = newEnv({ failTimes: 100 });
    const stub = open(env, tempDir(), 2).get('a');
    await stub.call(({ storage }) => storage.setAlarm(Date.now()));
    await waitFor(() => env.runs.length === 3, 'three attempts');
    await sleep(40);
    expect(env.runs).toHaveLength(3);
    expect(await stub.call(({ storage }) => storage.getAlarm())).toBeNull();
  });

  it('a failed handler keeps the alarm set until the retry', async () => {
    const env = newEnv({ failTimes: 1 });
    const ns = openNamespace(Alarmed as never, {
      backend, env, alarmRetry: { baseDelayMs: 1000, maxRetries: 6 }, onAlarmError: () => undefined,
    }) as unknown as ObjectNamespace<Alarmed>;
    const stub = ns.get('a');
    const time = Date.now();
    await stub.call(({ storage }) => storage.setAlarm(time));
    await waitFor(() => env.runs.length === 1, 'the first attempt');
    await sleep(20);
    expect(await stub.call(({ storage }) => storage.getAlarm())).toBeGreaterThanOrEqual(time);
    await waitFor(() => env.runs.length === 2, 'the retry');
  });

  it('a new alarm set by a failing handler runs instead of a retry', async () => {
    const env = newEnv({
      failTimes: 1,
      onRun: async ({ storage }) => {
        if (env.runs.length === 1) await storage.setAlarm(Date.now() + 10);
      },
    });
    const stub = open(env).get('a');
    await stub.call(({ storage }) => storage.setAlarm(Date.now()));
    await waitFor(() => env.runs.length === 2, 'the new alarm');
    expect(env.runs[1]).toMatchObject({ retryCount: 0, isRetry: false });
    expect(env.runs[1]!.scheduledTime).toBeGreaterThan(env.runs[0]!.scheduledTime);
  });

  it('an alarm set in a rolled-back transaction is undone; times are whole milliseconds', async () => {
    const env = newEnv();
    const stub = open(env).get('a');
    const result = await stub.call(async ({ storage }) => {
      await storage.transaction(async (txn) => {
        await txn.setAlarm(Date.now() + 3_600_000);
        txn.rollback();
      });
      const afterRollback = await storage.getAlarm();
      await storage.setAlarm(new Date(4_102_444_800_000.7));
      return [afterRollback, await storage.getAlarm()];
    });
    expect(result).toEqual([null, 4_102_444_800_000]);
  });

  it('validates setAlarm() arguments', async () => {
    const env = newEnv();
    const stub = open(env).get('a');
    const errors = await stub.call(async ({ storage }) => {
      const out: string[] = [];
      for (const bad of [0, -5, NaN, Infinity, new Date('x'), '123']) {
        await storage.setAlarm(bad as number).catch((e: Error) => out.push(`${e instanceof TypeError}:${e.message}`));
      }
      return out;
    });
    expect(errors).toEqual([
      'true:setAlarm() cannot be called with an alarm time <= 0',
      'true:setAlarm() cannot be called with an alarm time <= 0',
      'true:The value cannot be converted because it is not a valid Date.',
      'true:The value cannot be converted because it is not a valid Date.',
      'true:The value cannot be converted because it is not a valid Date.',
      expect.stringMatching(/^true:.*parameter 1 is not of type 'date'/) as unknown as string,
    ]);
  });
});

describe('alarms without an alarm() handler', () => {
  it('setAlarm() throws while getAlarm() returns null and deleteAlarm() does nothing', async () => {
    class Plain {
      constructor(readonly ctx: ObjectState) {}
      async check(): Promise<unknown[]> {
        const err = await this.ctx.storage.setAlarm(Date.now() + 1000).catch((e: Error) => e);
        await this.ctx.storage.deleteAlarm();
        return [err instanceof StorageTypeError, (err as Error).message, await this.ctx.storage.getAlarm()];
      }
    }
    const result = await openNamespace(Plain, { backend: 'sqlite' }).get('p').check();
    expect(result).toEqual([true, 'Your object class must have an alarm() handler in order to call setAlarm()', null]);
  });
});
