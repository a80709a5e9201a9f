/**
 * The one list of differential cases, run on workerd (bundled into the worker script) and on
 * zonewall, and the runner both sides call. `onAlarm` is the alarm handler of the case object on
 * both sides: it records each invocation in storage, so alarm cases can observe attempts.
 */
import type { ObjectState, ObjectStorage } from '../../../src/storage/index.js';
import type { DiffCase } from './case.js';
import { alarmCases } from './alarm.cases.js';
import { counterCases } from './counters.cases.js';
import { kvCases } from './kv.cases.js';
import { listCases } from './list.cases.js';
import { pitrCases } from './pitr.cases.js';
import { sqlCases } from './sql.cases.js';
import { txnCases } from './txn.cases.js';
import { errorOf, toJson, type Json } from './observe.js';

/** Every case, in the order the suite runs them. */
export const cases: DiffCase[] = [
  ...kvCases, ...listCases, ...txnCases, ...sqlCases, ...counterCases, ...alarmCases, ...pitrCases,
];

/** The observations of case `name`, as JSON; an error the case lets escape is observed too. */
export async function runCase(name: string, storage: ObjectStorage, ctx: ObjectState, phase = 'first'): Promise<Json> {
  const found = cases.find((c) => c.name === name);
  const run = phase === 'later' ? found?.later?.run : found?.run;
  if (!run) return { noSuchCase: name, phase };
  try {
    return toJson(await run(storage, ctx));
  } catch (err) {
    return { escaped: toJson(errorOf(err)) };
  }
}

/** The alarm handler of the case object: records each attempt; the first `alarm-fail` attempts throw. */
export async function onAlarm(storage: ObjectStorage, info: { retryCount: number; isRetry: boolean }): Promise<void> {
  const attempt = { retryCount: info.retryCount, isRetry: info.isRetry };
  const attempts = ((await storage.get<unknown[]>('alarm-attempts')) ?? []).concat([attempt]);
  await storage.put('alarm-attempts', attempts);
  const failures = (await storage.get<number>('alarm-fail')) ?? 0;
  if (attempts.length <= failures) throw new Error(`alarm attempt ${attempts.length} fails on purpose`);
}
