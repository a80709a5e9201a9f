/**
 * The two runtimes of the differential suite, each started once per test file: workerd through
 * Miniflare 3 (the worker script bundled by esbuild from `worker.ts`, an in-memory SQLite-backed
 * Durable Object namespace, 127.0.0.1 only) and a zonewall `ObjectNamespace` with the `sqlite`
 * backend in a temporary directory. Both expose `run(caseName)`, answering the case's observations.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { Miniflare } from 'miniflare';
import { ObjectNamespace, type AlarmInvocationInfo, type ObjectNamespaceOptions, type ObjectState } from '../../../src/storage/index.js';
import type { DiffCase } from './case.js';
import { onAlarm, runCase } from './cases.js';
import type { Json } from './observe.js';

/** Runs a case on `runtime`: its first phase, then its later phase until settled (about 5 s at most). */
export async function observe(runtime: Runtime, c: DiffCase): Promise<Json> {
  const first = await runtime.run(c.name);
  if (!c.later) return first;
  let later = await runtime.run(c.name, 'later');
  // Polling, not timing: each round is a fresh event, so the object is idle (and alarms run) between.
  for (let round = 0; round < 100 && !c.later.settled(later); round++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    later = await runtime.run(c.name, 'later');
  }
  return { first, later };
}

/** A runtime the suite can run a case in. */
export interface Runtime {
  /** One event on the case's object: the case's first phase, or its `later` one. */
  run(caseName: string, phase?: 'first' | 'later'): Promise<Json>;
  dispose(): Promise<void>;
}

/** Bundles `worker.ts` and the cases into one ES module script. */
async function workerScript(): Promise<string> {
  const result = await build({
    entryPoints: [fileURLToPath(new URL('./worker.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    write: false,
    logLevel: 'silent',
  });
  return (result.outputFiles[0] as { text: string }).text;
}

/**
 * workerd through Miniflare running the module `script`, whose class `Obj` is a SQLite-backed
 * object (binding `OBJ`), storage in memory, on 127.0.0.1 only.
 */
export async function startObjectWorker(script: string): Promise<Miniflare> {
  const mf = new Miniflare({
    modules: true,
    script,
    // Before 2026-02-24 (delete_all_deletes_alarm), as zonewall: deleteAll() keeps the alarm.
    compatibilityDate: '2025-07-01',
    durableObjects: { OBJ: { className: 'Obj', useSQLite: true } },
    host: '127.0.0.1',
    port: 0,
    // No network: never fetch the Request.cf data (Miniflare skips it only when NODE_ENV is test).
    cf: false,
  });
  await mf.ready;
  return mf;
}

/** workerd through Miniflare: one SQLite-backed object class, storage in memory. */
export async function startWorkerd(): Promise<Runtime> {
  const mf = await startObjectWorker(await workerScript());
  return {
    async run(caseName, phase = 'first') {
      const response = await mf.dispatchFetch(`http://127.0.0.1/?case=${encodeURIComponent(caseName)}&phase=${phase}`);
      const text = await response.text();
      // An event the object failed (it was reset): its message is the runtime's own, so only the fact counts.
      if (response.status !== 200) return { eventFailed: true };
      return JSON.parse(text) as Json;
    },
    dispose: () => mf.dispose(),
  };
}

/** The zonewall case object: the same runner and alarm handler as the workerd one. */
class CaseObject {
  readonly #ctx: ObjectState;
  constructor(ctx: ObjectState) {
    this.#ctx = ctx;
  }
  run(caseName: string, phase: string): Promise<Json> {
    return runCase(caseName, this.#ctx.storage, this.#ctx, phase);
  }
  alarm(info: AlarmInvocationInfo): Promise<void> {
    return onAlarm(this.#ctx.storage, info);
  }
}

/**
 * A zonewall namespace (sqlite backend) in a temporary directory, removed on dispose. Failed alarms
 * retry after 10 ms instead of 2 s (the policy is an option; the retry count and flags are the same).
 */
export function startZonewall(options: Partial<ObjectNamespaceOptions> = {}): Runtime & { ns: ObjectNamespace<CaseObject> } {
  const dir = mkdtempSync(join(tmpdir(), 'zw-differential-'));
  const ns = new ObjectNamespace(CaseObject, {
    dir, backend: 'sqlite', onAlarmError: () => undefined, alarmRetry: { baseDelayMs: 10, maxRetries: 6 }, ...options,
  });
  return {
    ns,
    // Through JSON text as the workerd side's answer is, so both compare in the same form.
    run: (caseName, phase = 'first') => ns.get(caseName).run(caseName, phase).then(
      (observed) => JSON.parse(JSON.stringify(observed)) as Json,
      () => ({ eventFailed: true }),
    ),
    async dispose() {
      await ns.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
