/** Differential cases of alarms: set, get, delete, argument errors, and a handler that runs. */
import { defineCases } from './case.js';
import { settle } from './observe.js';

const FAR = 4_102_444_800_000; // 2100-01-01: never fires during the suite.

export const alarmCases = defineCases('alarm', {
  'set, get, replace and delete': async (s) => {
    const before = await s.getAlarm();
    await s.setAlarm(FAR);
    const set = await s.getAlarm();
    await s.setAlarm(new Date(FAR + 1000));
    const replaced = await s.getAlarm();
    const deleted = await s.deleteAlarm();
    return { before, set, replaced, deleted, after: await s.getAlarm() };
  },
  'invalid times are TypeErrors': async (s) => ({
    zero: await settle(() => s.setAlarm(0)),
    negative: await settle(() => s.setAlarm(new Date(-5))),
    nan: await settle(() => s.setAlarm(NaN)),
    string: await settle(() => s.setAlarm('123' as unknown as number)),
  }),
  'fractional times are truncated to milliseconds': async (s) => {
    await s.setAlarm(FAR + 0.75);
    return s.getAlarm();
  },
  'the alarm is not listed and survives deleteAll()': async (s) => {
    await s.setAlarm(FAR);
    await s.put('a', 1);
    const listed = [...(await s.list()).keys()];
    await s.deleteAll();
    return { listed, alarm: await s.getAlarm(), keys: (await s.list()).size };
  },
  'a setAlarm in a rolled-back transaction is undone': async (s) => {
    await s.transaction(async (txn) => {
      await txn.setAlarm(FAR);
      txn.rollback();
    });
    return s.getAlarm();
  },
  'an alarm due now runs once the object is idle, then is cleared': {
    run: async (s) => {
      await s.setAlarm(Date.now() + 10);
      return s.getAlarm().then((time) => typeof time);
    },
    later: {
      run: async (s) => ({ attempts: await s.get('alarm-attempts'), alarm: await s.getAlarm() }),
      settled: (o) => (o as { alarm: unknown }).alarm === null,
    },
  },
  'a failing alarm is retried with retryCount and isRetry': {
    run: async (s) => {
      await s.put('alarm-fail', 1);
      await s.setAlarm(Date.now() + 10);
      return 'set';
    },
    later: {
      run: async (s) => ({ attempts: await s.get('alarm-attempts'), alarm: await s.getAlarm() }),
      settled: (o) => ((o as { attempts?: unknown[] }).attempts?.length ?? 0) >= 2 && (o as { alarm: unknown }).alarm === null,
    },
  },
  'an alarm that falls due while an event awaits a timer': {
    run: async (s) => {
      await s.setAlarm(Date.now() + 10);
      // Awaiting a timer opens the input gate; does the alarm event run meanwhile?
      for (let i = 0; i < 200 && (await s.get('alarm-attempts')) === undefined; i++) await new Promise((r) => setTimeout(r, 10));
      return { ranDuringEvent: (await s.get('alarm-attempts')) !== undefined };
    },
    later: {
      run: async (s) => ({ attempts: await s.get('alarm-attempts'), alarm: await s.getAlarm() }),
      settled: (o) => (o as { alarm: unknown }).alarm === null,
    },
  },
});
