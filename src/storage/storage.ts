/**
 * `ctx.storage`: the storage API an object instance sees. This file owns argument handling (key
 * coercion, options, limits) and the gate rules of each call; the work is done by the session's
 * key-value table (`kv.ts`), alarm row (`alarm-store.ts`), SQL API (`sql.ts`), transactions
 * (`transaction.ts`) and PITR (`pitr.ts`). Calls validate synchronously and report errors through
 * the returned promise, as the reference does.
 */
import type { AlarmStore } from './alarm-store.js';
import { notSqliteBackend, SqlError, StorageError, StorageTypeError, TransactionError } from './errors.js';
import type { InputGate } from './gates.js';
import type { KvStore } from './kv.js';
import { checkKeyCount, checkKeySize, checkValueSize } from './limits.js';
import {
  argumentTypeError, compileListOptions, isDictionary, optionsObject, toKey, type GetAlarmOptions, type GetOptions, type ListOptions, type PutOptions,
  type SetAlarmOptions,
} from './list-options.js';
import type { PitrApi } from './pitr.js';
import { cancelCursors } from './open-cursors.js';
import { serialize } from './serialize.js';
import type { StorageSession } from './session.js';
import type { SqlStorage } from './sql.js';
import { dropUserSchema } from './schema.js';
import { runTransaction, runTransactionSync, type ObjectTransaction } from './transaction.js';

export type { GetAlarmOptions, SetAlarmOptions } from './list-options.js';

/** How the alarm scheduler shapes what the storage API reports and allows. */
export interface AlarmView {
  /** True when the object class has an `alarm()` method. */
  hasHandler(): boolean;
  /** What `getAlarm()` reports for the stored time (null for the alarm whose handler is running). */
  report(stored: number | null): number | null;
  /** Called on every alarm write (a write during a handler replaces its retry). */
  noteWrite(): void;
}

/** Everything one `ObjectStorage` works with; built by the host per session. */
export interface StorageParts {
  session: StorageSession;
  gate: InputGate;
  kv: KvStore;
  alarms: AlarmStore;
  alarmView: AlarmView;
  sql: SqlStorage;
  pitr: PitrApi | null;
  now: () => number;
}

function settle<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn());
  } catch (err) {
    return Promise.reject(err);
  }
}

function alarmTime(scheduledTime: unknown): number {
  let time: number;
  if (scheduledTime instanceof Date) time = scheduledTime.getTime();
  else if (typeof scheduledTime === 'number') time = scheduledTime;
  else {
    // The reference's message exactly (the differential suite compares it).
    throw new StorageTypeError("Failed to execute 'setAlarm' on 'DurableObjectStorage': parameter 1 is not of type 'date'.");
  }
  if (!Number.isFinite(time)) throw new StorageTypeError('The value cannot be converted because it is not a valid Date.');
  if (time <= 0) throw new StorageTypeError('setAlarm() cannot be called with an alarm time <= 0');
  return Math.trunc(time);
}

/** The runtime's interface names, used in its argument-type messages. */
export type StorageInterface = 'DurableObjectStorage' | 'DurableObjectTransaction';

const PUT_SHAPE_MESSAGE =
  'put() may only be called with a single key-value pair and optional options as put(key, value, options) ' +
  'or with multiple key-value pairs and optional options as put(entries, options)';

/** The storage of one object instance (`ctx.storage`). */
export class ObjectStorage {
  readonly #p: StorageParts;
  readonly #where: StorageInterface;
  #txnView: ObjectStorage | null = null;

  /** @internal built by the namespace for each instance (and once more as the view `txn` forwards to). */
  constructor(parts: StorageParts, where: StorageInterface = 'DurableObjectStorage') {
    this.#p = parts;
    this.#where = where;
  }

  #options<T extends object>(options: unknown, method: string, position: number, type: string): T {
    return optionsObject<T>(options, this.#where, method, position, type);
  }

  /** Value of `key` (undefined if absent), or a Map of the existing keys among up to 128 `keys`. */
  get<T = unknown>(key: string, options?: GetOptions): Promise<T | undefined>;
  get<T = unknown>(keys: string[], options?: GetOptions): Promise<Map<string, T>>;
  get(...args: unknown[]): Promise<unknown> {
    return settle(() => {
      // A missing key is a TypeError; an explicit undefined reads the key "undefined", as in the runtime.
      if (args.length === 0) throw argumentTypeError(this.#where, 'get', 1, 'string or Array');
      const [keys, options] = args;
      const opts = this.#options<GetOptions>(options, 'get', 2, 'GetOptions');
      this.#p.session.requireUsable();
      if (!opts.allowConcurrency) this.#p.gate.lockForTurn();
      if (Array.isArray(keys)) {
        checkKeyCount(keys.length, 'keys');
        const list = keys.map(toKey);
        for (const key of list) checkKeySize(key, true);
        return this.#p.kv.getMany(list, Boolean(opts.noCache));
      }
      const key = toKey(keys);
      checkKeySize(key);
      return this.#p.kv.get(key, Boolean(opts.noCache));
    });
  }

  /** Stores `value` at `key`, or every pair of `entries` (up to 128) atomically. */
  put<T>(key: string, value: T, options?: PutOptions): Promise<void>;
  put<T>(entries: Record<string, T>, options?: PutOptions): Promise<void>;
  put(...args: unknown[]): Promise<void> {
    return settle(() => {
      if (args.length === 0) throw argumentTypeError(this.#where, 'put', 1, 'string or object');
      const [keyOrEntries, valueOrOptions, options] = args;
      // As the runtime reads its arguments: any non-array object (or function) is a set of entries,
      // whose second argument must be options; anything else is a key, coerced with ToString.
      if (isDictionary(keyOrEntries)) {
        if (valueOrOptions !== undefined && valueOrOptions !== null && typeof valueOrOptions !== 'object' && typeof valueOrOptions !== 'function') {
          throw new StorageTypeError(PUT_SHAPE_MESSAGE);
        }
        return this.#putMany(keyOrEntries, this.#options<PutOptions>(valueOrOptions, 'put', 2, 'PutOptions'));
      }
      const opts = this.#options<PutOptions>(options, 'put', 3, 'PutOptions');
      const key = toKey(keyOrEntries);
      if (valueOrOptions === undefined) throw new StorageTypeError('put() called with undefined value.');
      checkKeySize(key);
      const blob = serialize(valueOrOptions);
      checkValueSize(blob.length, key, false, valueOrOptions);
      this.#p.session.requireUsable();
      this.#p.kv.put(key, blob, !opts.allowUnconfirmed, Boolean(opts.noCache));
    });
  }

  /** Deletes `key` (resolves true if it existed) or up to 128 `keys` (resolves the number deleted). */
  delete(key: string, options?: PutOptions): Promise<boolean>;
  delete(keys: string[], options?: PutOptions): Promise<number>;
  delete(...args: unknown[]): Promise<boolean | number> {
    return settle(() => {
      if (args.length === 0) throw argumentTypeError(this.#where, 'delete', 1, 'string or Array');
      const [keys, options] = args;
      const opts = this.#options<PutOptions>(options, 'delete', 2, 'PutOptions');
      const confirmed = !opts.allowUnconfirmed;
      const noCache = Boolean(opts.noCache);
      if (Array.isArray(keys)) {
        checkKeyCount(keys.length, 'keys');
        const list = keys.map(toKey);
        for (const key of list) checkKeySize(key, true);
        this.#p.session.requireUsable();
        let count = 0;
        for (const key of list) if (this.#p.kv.delete(key, confirmed, noCache)) count++;
        return count;
      }
      const key = toKey(keys);
      checkKeySize(key);
      this.#p.session.requireUsable();
      return this.#p.kv.delete(key, confirmed, noCache);
    });
  }

  /**
   * Removes all stored data but not the alarm (seed 001). SQLite backend: every pair and every SQL
   * table, atomically, always confirmed. `kv` backend: pairs in chunks, so a failure can leave some.
   */
  deleteAll(options?: PutOptions): Promise<void> {
    return settle(() => {
      const opts = this.#options<PutOptions>(options, 'deleteAll', 1, 'PutOptions');
      const { session, kv } = this.#p;
      session.requireUsable();
      if (session.depth > 0) throw new TransactionError('Cannot call deleteAll() within a transaction');
      try {
        if (session.backend === 'kv') return kv.clearInChunks(!opts.allowUnconfirmed);
        // Always confirmed (allowUnconfirmed is ignored), and atomic with the rest of the batch.
        session.write(true);
        // The reference cancels unfinished SQL cursors (their data is gone); DROP TABLE would fail under them.
        cancelCursors(session.db, new SqlError('SQLite query was canceled because the database was deleted.'));
        runTransactionSync(session, () => {
          kv.clear();
          dropUserSchema(session.db);
        });
        kv.invalidate();
      } catch (err) {
        session.checkStatementError(err);
        throw new StorageError(`deleteAll() failed: ${(err as Error).message}`, { cause: err });
      }
    });
  }

  /** Pairs in ascending (or with `reverse`, descending) UTF-8 key order, per the range options. */
  list<T = unknown>(options?: ListOptions): Promise<Map<string, T>> {
    return settle(() => {
      const opts = this.#options<ListOptions>(options, 'list', 1, 'ListOptions');
      const range = compileListOptions(opts);
      this.#p.session.requireUsable();
      if (!opts.allowConcurrency) this.#p.gate.lockForTurn();
      return this.#p.kv.list(range) as Map<string, T>;
    });
  }

  /** The scheduled alarm time in ms since epoch, or null. */
  getAlarm(options?: GetAlarmOptions): Promise<number | null> {
    return settle(() => {
      const opts = this.#options<GetAlarmOptions>(options, 'getAlarm', 1, 'GetAlarmOptions');
      this.#p.session.requireUsable();
      if (!opts.allowConcurrency) this.#p.gate.lockForTurn();
      return this.#p.alarmView.report(this.#p.alarms.get());
    });
  }

  /** Schedules the object's one alarm; a time at or before now runs it soon, asynchronously. */
  setAlarm(scheduledTime: number | Date, options?: SetAlarmOptions): Promise<void> {
    return settle(() => {
      const time = alarmTime(scheduledTime);
      const opts = this.#options<SetAlarmOptions>(options, 'setAlarm', 2, 'SetAlarmOptions');
      if (!this.#p.alarmView.hasHandler()) {
        throw new StorageTypeError('Your object class must have an alarm() handler in order to call setAlarm()');
      }
      this.#p.session.requireUsable();
      this.#p.alarms.set(Math.max(time, this.#p.now()), !opts.allowUnconfirmed);
      this.#p.alarmView.noteWrite();
    });
  }

  /** Deletes the alarm; a handler that is already running is not cancelled. */
  deleteAlarm(options?: SetAlarmOptions): Promise<void> {
    return settle(() => {
      const opts = this.#options<SetAlarmOptions>(options, 'deleteAlarm', 1, 'SetAlarmOptions');
      this.#p.session.requireUsable();
      this.#p.alarms.set(null, !opts.allowUnconfirmed);
      this.#p.alarmView.noteWrite();
    });
  }

  /** Resolves when every write issued before the call is on disk (confirmed or not). */
  sync(): Promise<void> {
    return this.#p.session.syncFromApi();
  }

  /** Runs `closure` as one transaction: commits when it resolves, rolls back when it throws. */
  transaction<T>(closure: (txn: ObjectTransaction) => T | Promise<T>): Promise<T> {
    this.#txnView ??= new ObjectStorage(this.#p, 'DurableObjectTransaction');
    return runTransaction(this.#txnView, this.#p.session, this.#p.gate, closure);
  }

  /** Runs synchronous `fn` in a savepoint (SQLite backend): rolls back and rethrows if it throws. */
  transactionSync<T>(fn: () => T): T {
    if (this.#p.session.backend !== 'sqlite') throw notSqliteBackend('transactionSync()');
    return runTransactionSync(this.#p.session, fn);
  }

  /** The SQL API (SQLite backend; on the `kv` backend its calls throw). */
  get sql(): SqlStorage {
    return this.#p.sql;
  }

  /** PITR: bookmark of the current point in time (SQLite backend). */
  getCurrentBookmark(): Promise<string> {
    return settle(() => this.#pitr('getCurrentBookmark()')).then((pitr) => pitr.current());
  }

  /** PITR: bookmark for about `timestamp`, which must lie within the last 30 days. */
  getBookmarkForTime(timestamp: number | Date): Promise<string> {
    return settle(() => this.#pitr('getBookmarkForTime()').forTime(timestamp));
  }

  /** PITR: restore to `bookmark` at the next restart; resolves to a bookmark that undoes it. */
  onNextSessionRestoreBookmark(bookmark: string): Promise<string> {
    return settle(() => this.#pitr('onNextSessionRestoreBookmark()')).then((pitr) => pitr.restoreOnNextSession(bookmark));
  }

  #putMany(entries: Record<string, unknown>, opts: PutOptions): void {
    const pairs = Object.entries(entries).filter(([, value]) => value !== undefined);
    checkKeyCount(pairs.length, 'pairs');
    const blobs = pairs.map(([key, value]) => {
      checkKeySize(key, true);
      const blob = serialize(value);
      checkValueSize(blob.length, key, true, value);
      return blob;
    });
    this.#p.session.requireUsable();
    const confirmed = !opts.allowUnconfirmed;
    const noCache = Boolean(opts.noCache);
    pairs.forEach(([key], i) => this.#p.kv.put(key, blobs[i] as Buffer, confirmed, noCache));
  }

  #pitr(what: string): PitrApi {
    this.#p.session.requireUsable();
    if (this.#p.pitr === null) throw notSqliteBackend(`Point-in-time recovery (${what})`);
    return this.#p.pitr;
  }
}
