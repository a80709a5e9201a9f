/**
 * `ObjectNamespace`: the entry point of the storage layer. A namespace is a directory of stateful
 * objects of one class; `ns.get(name)` returns a stub whose method calls are events delivered to the
 * one live instance of that object; `ns.close()` commits and closes everything. Reopening a
 * namespace on the same directory sees all confirmed data and arms the alarms recorded there
 * (overdue ones fire at once). One process may have a directory open once at a time, and one
 * process at a time may have it open at all (`dir-lock.ts`): a second opener gets a
 * `StorageLockedError` at once, or after `lockTimeoutMs`, never a second live instance. A namespace
 * opened `readOnly` writes nothing and shares the directory with other readers, and with a writer
 * already at work (`read-only.ts`).
 */
import { mkdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { accessErrorOf, assertUsable, objectPaths, writeFailureOf } from './access.js';
import { AlarmIndex } from './alarm-index.js';
import { AlarmDefaults, type AlarmInvocationInfo, type AlarmRetryOptions } from './alarms.js';
import { LOCK_FILE, lockDir, type DirLock } from './dir-lock.js';
import { StorageError, StorageLockedError, StorageTypeError } from './errors.js';
import { ObjectHost, type HostConfig } from './host.js';
import { objectsDir } from './open.js';
import { lockForReading } from './read-only.js';
import type { Backend } from './session.js';
import type { ObjectState } from './state.js';

/** Options of `new ObjectNamespace(ObjectClass, options)`. */
export interface ObjectNamespaceOptions<Env = unknown> {
  /** Directory holding the namespace's object files (created if missing). */
  dir: string;
  /** `sqlite` (KV + SQL + PITR + alarms; zonewall's default) or `kv` (KV + alarms). */
  backend?: Backend;
  /** Second constructor argument of every instance. */
  env?: Env;
  /** Retry policy of failed `alarm()` handlers (default: 2000 ms doubling, 6 retries). */
  alarmRetry?: AlarmRetryOptions;
  /** Clock in ms since epoch (default `Date.now`); a test hook for alarm times. */
  now?: () => number;
  /** Receives each failed alarm attempt (default: one line on stderr). */
  onAlarmError?: (err: unknown, info: AlarmInvocationInfo, name: string) => void;
  /**
   * How long to wait when another process has the directory open (default 0: refuse at once with
   * `StorageLockedError`). The constructor waits synchronously; `ObjectNamespace.open()` waits
   * without blocking the event loop.
   */
  lockTimeoutMs?: number;
  /**
   * Open for reading only (`read-only.ts`): nothing in the directory is created, written or
   * locked exclusively, a directory that does not exist reads as empty, alarms are neither armed
   * nor recorded, and a writer at work in another process does not stop the reader.
   */
  readOnly?: boolean;
  /** No directory at all: every object lives in memory for as long as the namespace is open (`dir` only names it). */
  memory?: boolean;
  /**
   * The directory a `StorageAccessError` tells the user to give to them (`chown -R UID accessRoot`;
   * default `dir`): the directory that holds this namespace and others, such as the engine's state
   * directory.
   */
  accessRoot?: string;
  /**
   * A writer that may not write an object's files (made read-only to it) opens that object for
   * reading when its file exists, and refuses its first write with the `StorageAccessError` the
   * open would have thrown (nothing is written): a server keeps answering reads of a zone whose
   * file it may not write. Once the files are writable again, the refused write resets the object
   * and the next event opens it for writing. Default false: the open is refused.
   */
  readsWhenNotWritable?: boolean;
}

/** Alarm hints of a reader: it writes no alarm, so it has nothing to record. */
const NoAlarmIndex = { lower: (): void => undefined, set: (): void => undefined };

/** Polling interval of `ObjectNamespace.open()` while another process holds the directory. */
const LOCK_POLL_MS = 25;

/** A class of stateful objects: constructed with `(ctx, env)`; `alarm(info)` is the alarm handler. */
export type ObjectClass<T extends object, Env = unknown> = new (ctx: ObjectState, env: Env) => T;

/** Functions of `T` as stub methods: every call is an event and returns a promise. */
export type ObjectStub<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: T[K] extends (...args: infer A) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};

const openDirs = new Set<string>();

function defaultAlarmError(err: unknown, info: AlarmInvocationInfo, name: string): void {
  const message = err instanceof Error ? err.message : String(err);
  process.stderr.write(`zonewall storage: alarm() of object "${name}" failed (retry ${info.retryCount}): ${message}\n`);
}

function lockTimeout(value: unknown): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !(value >= 0) || !Number.isFinite(value)) {
    throw new StorageTypeError('lockTimeoutMs must be a finite number of milliseconds >= 0.');
  }
  return value;
}

function retryOptions(options: AlarmRetryOptions | undefined): Required<AlarmRetryOptions> {
  const baseDelayMs = options?.baseDelayMs ?? AlarmDefaults.baseDelayMs;
  const maxRetries = options?.maxRetries ?? AlarmDefaults.maxRetries;
  if (!(baseDelayMs >= 0) || !Number.isInteger(maxRetries) || maxRetries < 0) {
    throw new StorageTypeError('alarmRetry needs baseDelayMs >= 0 and an integer maxRetries >= 0.');
  }
  return { baseDelayMs, maxRetries };
}

/**
 * A namespace of stateful objects of one class, stored under one directory.
 * @example
 * class Counter {
 *   constructor(private ctx: ObjectState) {}
 *   async increment() { const n = ((await this.ctx.storage.get<number>('n')) ?? 0) + 1; await this.ctx.storage.put('n', n); return n; }
 * }
 * const ns = new ObjectNamespace(Counter, { dir: './data', backend: 'sqlite' });
 * await ns.get('visits').increment(); // 1
 * await ns.close();
 */
export class ObjectNamespace<T extends object, Env = unknown> {
  readonly #cfg: HostConfig;
  readonly #dir: string;
  readonly #hosts = new Map<string, ObjectHost>();
  readonly #stubs = new Map<string, ObjectStub<T>>();
  readonly #lock: DirLock;
  /** The writer's alarm index; null for a reader. */
  readonly #alarmIndex: AlarmIndex | null;
  #closed = false;

  /**
   * Opens a namespace, waiting up to `options.lockTimeoutMs` without blocking the event loop
   * while another process has the directory open.
   */
  static async open<T extends object, Env = unknown>(
    ObjectClass: ObjectClass<T, Env>, options: ObjectNamespaceOptions<Env>,
  ): Promise<ObjectNamespace<T, Env>> {
    const timeoutMs = lockTimeout(options?.lockTimeoutMs);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      try {
        return new ObjectNamespace(ObjectClass, { ...options, lockTimeoutMs: 0 });
      } catch (err) {
        if (!(err instanceof StorageLockedError) || Date.now() >= deadline) {
          throw err instanceof StorageLockedError ? new StorageLockedError(err.dir, timeoutMs, { cause: err.cause }) : err;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, Math.min(LOCK_POLL_MS, Math.max(1, deadline - Date.now()))));
    }
  }

  constructor(ObjectClass: ObjectClass<T, Env>, options: ObjectNamespaceOptions<Env>) {
    if (typeof ObjectClass !== 'function') throw new StorageTypeError('ObjectNamespace needs an object class.');
    if (typeof options?.dir !== 'string' || options.dir === '') {
      throw new StorageTypeError('ObjectNamespace needs options.dir, the directory that holds the objects.');
    }
    const backend = options.backend ?? 'sqlite';
    if (backend !== 'sqlite' && backend !== 'kv') {
      throw new StorageTypeError(`Unknown storage backend "${String(backend)}": use 'sqlite' or 'kv'.`);
    }
    this.#dir = resolve(options.dir);
    if (openDirs.has(this.#dir)) {
      throw new StorageError(`The namespace directory ${this.#dir} is already open in this process; close the other ObjectNamespace first.`);
    }
    const alarmRetry = retryOptions(options.alarmRetry);
    const timeoutMs = lockTimeout(options.lockTimeoutMs);
    const root = options.accessRoot === undefined ? this.#dir : resolve(options.accessRoot);
    const common = {
      dir: this.#dir, root, backend, env: options.env, alarmRetry,
      ObjectClass: ObjectClass as unknown as HostConfig['ObjectClass'],
      now: options.now ?? Date.now,
      onAlarmError: options.onAlarmError ?? defaultAlarmError,
      readsWhenNotWritable: options.readsWhenNotWritable === true,
    };
    if (options.readOnly === true || options.memory === true) {
      const read = options.memory === true ? { mode: 'memory' as const, release: () => undefined } : lockForReading(this.#dir, root);
      this.#lock = read;
      this.#alarmIndex = null;
      openDirs.add(this.#dir);
      this.#cfg = { ...common, alarmIndex: NoAlarmIndex, readMode: read.mode };
      return;
    }
    // What the writer will write, before it writes or locks anything (`access.ts`): the folders,
    // the lock file, the alarm index. Each object's files are checked when the object opens.
    const objects = objectsDir(this.#dir);
    assertUsable([this.#dir, objects, join(this.#dir, LOCK_FILE), ...objectPaths(join(this.#dir, 'alarms.sqlite')).slice(1)], true, root);
    try {
      mkdirSync(objects, { recursive: true });
    } catch (err) {
      // A missing directory in a parent this user may not write.
      throw accessErrorOf(err, [dirname(this.#dir), dirname(dirname(this.#dir))], true, root)
        ?? new StorageError(`Cannot create the namespace directory ${this.#dir}: ${(err as Error).message}`, { cause: err });
    }
    this.#lock = lockDir(this.#dir, timeoutMs);
    let alarmIndex: AlarmIndex;
    try {
      alarmIndex = new AlarmIndex(join(this.#dir, 'alarms.sqlite'));
    } catch (err) {
      this.#lock.release();
      // A full disk, a failing or read-only file system: the write refused, in one line (nothing was written).
      throw writeFailureOf(err, objectPaths(join(this.#dir, 'alarms.sqlite')).slice(1), root, { committed: false, opening: true }) ?? err;
    }
    openDirs.add(this.#dir);
    this.#alarmIndex = alarmIndex;
    this.#cfg = { ...common, alarmIndex };
    for (const [name, time] of alarmIndex.entries()) this.#host(name).armFromIndex(time);
  }

  /** The backend this namespace uses. */
  get backend(): Backend {
    return this.#cfg.backend;
  }

  /**
   * Whether no object can change while the namespace is open: it was opened for reading and holds
   * the directory's shared lock, so no writer has the directory or can open it (`read-only.ts`).
   */
  get frozen(): boolean {
    return this.#cfg.readMode === 'frozen';
  }

  /** The stub of the object called `name`: its method calls are events delivered to the live instance. */
  get(name: string): ObjectStub<T> {
    if (typeof name !== 'string') throw new StorageTypeError('An object name must be a string.');
    if (this.#closed) throw new StorageError('The object namespace is closed; open it again to use its objects.');
    let stub = this.#stubs.get(name);
    if (!stub) {
      const host = this.#host(name);
      const methods = new Map<string, (...args: unknown[]) => Promise<unknown>>();
      stub = new Proxy({} as ObjectStub<T>, {
        get(_target, prop) {
          // Not thenable, so `await ns.get(name)` yields the stub itself.
          if (typeof prop !== 'string' || prop === 'then') return undefined;
          let method = methods.get(prop);
          if (!method) {
            method = (...args: unknown[]) => host.call(prop, args);
            methods.set(prop, method);
          }
          return method;
        },
      });
      this.#stubs.set(name, stub);
    }
    return stub;
  }

  /**
   * Hibernates the object called `name` when it is idle: its session (SQLite file, caches) is closed
   * and the next event starts a fresh instance, as the service evicts idle objects. True when the
   * object is not live afterwards; false when it is busy (an event queued, running, or waiting for
   * its writes), and nothing was done.
   */
  hibernate(name: string): boolean {
    return this.#hosts.get(name)?.hibernate() ?? true;
  }

  /** Commits pending writes, stops alarms, fails queued events and closes every object file. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    const errors: unknown[] = [];
    for (const host of this.#hosts.values()) {
      try {
        host.close();
      } catch (err) {
        errors.push(err);
      }
    }
    try {
      this.#alarmIndex?.close();
    } finally {
      // Last: another process may open the directory once everything here is on disk and closed.
      this.#lock.release();
      openDirs.delete(this.#dir);
    }
    if (errors.length > 0) throw new StorageError(`Closing the namespace ${this.#dir} failed`, { cause: errors[0] });
  }

  #host(name: string): ObjectHost {
    let host = this.#hosts.get(name);
    if (!host) {
      host = new ObjectHost(name, this.#cfg);
      this.#hosts.set(name, host);
    }
    return host;
  }
}
