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
export async function runCase(name: string, storage: ObjectStorage, ctx: ObjectState): Promise<Json> {
  const found = cases.find((c) => c.name === name);
  if (!found) return { noSuchCase: name };
  try {
    return toJson(await found.run(storage, ctx));
  } catch (err) {
    return { escaped: toJson(errorOf(err)) };
  }
}

/** The alarm handler of the case object: counts invocations and fails while `alarm-fail` is set. */
export async function onAlarm(storage: ObjectStorage, info: { retryCount: number; isRetry: boolean }): Promise<void> {
  const attempts = ((await storage.get<unknown[]>('alarm-attempts')) ?? []).concat([info]);
  await storage.put('alarm-attempts', attempts);
  const failures = (await storage.get<number>('alarm-fail')) ?? 0;
  if (attempts.length <= failures) throw new Error(`alarm attempt ${attempts.length} fails on purpose`);
}
