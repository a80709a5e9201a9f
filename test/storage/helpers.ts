/**
 * Test helpers of the storage suite: temporary namespace directories (removed after each test) and a
 * generic object class whose methods run a callback against `ctx`, so each test can exercise the
 * storage API through `ObjectNamespace` exactly as an object would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { ObjectNamespace, type ObjectNamespaceOptions, type ObjectState } from '../../src/storage/index.js';

const dirs: string[] = [];
const namespaces: Array<ObjectNamespace<object, unknown>> = [];

afterEach(async () => {
  for (const ns of namespaces.splice(0)) await ns.close().catch(() => undefined);
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh temporary directory, removed after the test. */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'zw-storage-'));
  dirs.push(dir);
  return dir;
}

/** An object whose `run(fn)` runs `fn(ctx, this)` as an event: tests drive the API through it. */
export class Probe {
  readonly ctx: ObjectState;
  readonly env: unknown;
  constructor(ctx: ObjectState, env: unknown) {
    this.ctx = ctx;
    this.env = env;
  }
  async run<R>(fn: (ctx: ObjectState, self: Probe) => R | Promise<R>): Promise<R> {
    return fn(this.ctx, this);
  }
}

/** Opens a namespace (closed after the test). */
export function openNamespace<T extends object>(
  cls: new (ctx: ObjectState, env: unknown) => T,
  options: Partial<ObjectNamespaceOptions> & { dir?: string } = {},
): ObjectNamespace<T> {
  const ns = new ObjectNamespace<T>(cls, { dir: options.dir ?? tempDir(), ...options });
  namespaces.push(ns as unknown as ObjectNamespace<object, unknown>);
  return ns;
}

/** Both backends, for suites that every backend must pass. */
export const BACKENDS = ['sqlite', 'kv'] as const;

/** Runs `fn(ctx)` as one event on object `name` of a Probe namespace. */
export function probe(ns: ObjectNamespace<Probe>, name = 'probe') {
  return <R>(fn: (ctx: ObjectState, self: Probe) => R | Promise<R>): Promise<R> => ns.get(name).run(fn) as Promise<R>;
}

/** Waits `ms` milliseconds of real time (used to end a turn or let a timer fire, never to assert timing). */
export function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The error a promise rejects with; fails the test if it resolves. */
export function rejected(promise: Promise<unknown>): Promise<Error> {
  return promise.then(
    (value) => {
      throw new Error(`expected a rejection, got ${String(value)}`);
    },
    (err: unknown) => err as Error,
  );
}
