/**
 * The host of one object: the single live instance behind every stub of one name. It constructs the
 * instance on the first event (`new ObjectClass(ctx, env)` over a fresh storage session), delivers
 * events through the input gate, holds each result behind the output gate (the pending commit), and
 * resets the instance when a write fails, `blockConcurrencyWhile()` throws or `ctx.abort()` is
 * called: pending writes are discarded, in-flight callers get the reset error, and the next event
 * constructs a fresh instance over a reopened session (where a pending PITR restore is applied).
 */
import { StorageError, StorageResetError } from './errors.js';
import { InputGate } from './gates.js';
import { AlarmScheduler, type AlarmInvocationInfo, type AlarmRetryOptions } from './alarms.js';
import { openSessionParts, type SessionParts } from './open.js';
import type { Backend } from './session.js';
import { ObjectId, ObjectState } from './state.js';
import { ObjectStorage } from './storage.js';
import type { AlarmIndex } from './alarm-index.js';
import type { ReadMode } from './read-only.js';

/** What every host of a namespace shares. */
export interface HostConfig {
  dir: string;
  backend: Backend;
  ObjectClass: new (ctx: ObjectState, env: never) => object;
  env: unknown;
  alarmRetry: Required<AlarmRetryOptions>;
  now: () => number;
  onAlarmError: (err: unknown, info: AlarmInvocationInfo, name: string) => void;
  /** The namespace's alarm hints; a reader's records nothing (`NoAlarmIndex`). */
  alarmIndex: Pick<AlarmIndex, 'lower' | 'set'>;
  /** Set when the namespace is open for reading only (`read-only.ts`): how its files are read. */
  readMode?: ReadMode;
  /** The directory a `StorageAccessError`'s advice names (`ObjectNamespaceOptions.accessRoot`). */
  root?: string;
  /** `ObjectNamespaceOptions.readsWhenNotWritable`. */
  readsWhenNotWritable?: boolean;
}

interface Live {
  object: Record<string, unknown>;
  parts: SessionParts;
  resetError: StorageResetError | null;
}

interface PendingCall {
  reject: (err: unknown) => void;
  settled: boolean;
}

/** The one live instance of one object name, and its event queue. */
export class ObjectHost {
  /** The object's id. */
  readonly id: ObjectId;
  readonly #cfg: HostConfig;
  readonly #gate = new InputGate();
  readonly #scheduler: AlarmScheduler;
  readonly #pending = new Set<PendingCall>();
  /** Events `call` is running at once (not queued, so not in `#pending`). */
  #running = 0;
  #live: Live | null = null;
  #closed = false;

  constructor(name: string, cfg: HostConfig) {
    this.id = new ObjectId(name);
    this.#cfg = cfg;
    this.#scheduler = new AlarmScheduler(
      {
        hasHandler: () => typeof (cfg.ObjectClass.prototype as { alarm?: unknown }).alarm === 'function',
        storedAlarm: () => this.#ensureLive().parts.alarms.get(),
        runHandler: (info) => this.#deliver((object) => (object.alarm as (i: AlarmInvocationInfo) => unknown)(info)).then(() => undefined),
        clearAlarm: (time) => this.#clearAlarm(time),
        onError: (err, info) => cfg.onAlarmError(err, info, name),
        now: cfg.now,
      },
      cfg.alarmRetry,
    );
  }

  /** Delivers `method(...args)` as an event; resolves once its writes are confirmed. */
  call(method: string, args: unknown[]): Promise<unknown> {
    // Opened for reading because it could not write its files: once it can, it reopens for
    // writing (closed now if idle, constructed afresh below).
    if (this.#live?.parts.writableAgain?.() === true) this.hibernate();
    const live = this.#live;
    const fn = live?.object[method];
    // A live instance with nothing queued or holding the gate runs the event at once, as `enter`
    // would; the result skips the queue's bookkeeping when nothing holds it (most reads).
    if (live != null && typeof fn === 'function' && this.#gate.isIdle) {
      let result: unknown;
      let threw = false;
      // Busy while it runs, as a queued event is: hibernate() leaves the instance alone.
      this.#running++;
      try {
        result = (fn as (...a: unknown[]) => unknown).apply(live.object, args);
      } catch (err) {
        result = err;
        threw = true;
      } finally {
        this.#running--;
      }
      return this.#afterRun(live, result, threw);
    }
    return this.#deliver((object) => {
      const fn = object[method];
      if (typeof fn !== 'function') {
        throw new TypeError(`The object class ${this.#cfg.ObjectClass.name} does not implement the method "${method}".`);
      }
      return (fn as (...a: unknown[]) => unknown).apply(object, args);
    });
  }

  /** Arms the alarm timer for a time read from the namespace's alarm index (at open). */
  armFromIndex(time: number): void {
    this.#scheduler.arm(time);
  }

  /**
   * Closes the live instance's session when the object is idle (no event queued, running or waiting
   * for its writes), as the service evicts an idle object: the next event constructs a fresh
   * instance over a reopened session; an armed alarm stays armed. True when the object is not live
   * afterwards, false (nothing done) when it is busy.
   */
  hibernate(): boolean {
    const live = this.#live;
    if (live === null || this.#closed) return true;
    // An object in memory has nowhere to keep its storage while it sleeps.
    if (this.#cfg.readMode === 'memory') return false;
    if (this.#pending.size > 0 || this.#running > 0 || !this.#gate.isOpen || live.parts.session.outputGate() !== null) return false;
    this.#live = null;
    live.parts.close();
    return true;
  }

  /** Commits pending writes, stops the alarm timer, fails queued events, and closes the database. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#scheduler.stop();
    const err = new StorageError('The object namespace was closed; open it again to use this object.');
    for (const call of this.#pending) {
      call.settled = true;
      call.reject(err);
    }
    this.#pending.clear();
    const live = this.#live;
    this.#live = null;
    if (live) live.parts.close();
  }

  #deliver(invoke: (object: Record<string, unknown>) => unknown): Promise<unknown> {
    if (this.#closed) return Promise.reject(new StorageError('The object namespace is closed; open it again to use this object.'));
    return this.#track((call, finish, resolve, reject) => {
      // An event waits at the gate for the instance live when it came: if that one is reset first
      // (its blockConcurrencyWhile() callback threw, abort()), the event fails with that reset, as
      // in workerd, not delivered to the fresh instance the next event constructs.
      const queuedOn = this.#live;
      const start = (): void => {
        if (call.settled) return;
        if (queuedOn?.resetError) {
          const reset = queuedOn.resetError;
          finish(() => reject(reset));
          return;
        }
        let live: Live;
        try {
          live = this.#ensureLive();
        } catch (err) {
          finish(() => reject(err));
          return;
        }
        // The constructor may have closed the gate (blockConcurrencyWhile): wait at the head.
        if (!this.#gate.isOpen) return this.#gate.reenter(start);
        let result: unknown;
        try {
          result = invoke(live.object);
        } catch (err) {
          return this.#outcome(live, finish, err, true, resolve, reject);
        }
        this.#outcome(live, finish, result, false, resolve, reject);
      };
      this.#gate.enter(start);
    });
  }

  /** The result of an event `call` ran at once: settled now when nothing holds it, else tracked. */
  #afterRun(live: Live, result: unknown, threw: boolean): Promise<unknown> {
    // close() during the method fails every event in flight, this one too.
    if (this.#closed) return Promise.reject(new StorageError('The object namespace was closed; open it again to use this object.'));
    if (!isThenable(result) && live.resetError === null && live.parts.session.outputGate() === null) {
      return threw ? Promise.reject(result) : Promise.resolve(result);
    }
    return this.#track((_call, finish, resolve, reject) => this.#outcome(live, finish, result, threw, resolve, reject));
  }

  /** A promise for one event, pending (and failed by `close()`) until `finish` settles it. */
  #track(body: (call: PendingCall, finish: (settle: () => void) => void, resolve: (value: unknown) => void, reject: (err: unknown) => void) => void): Promise<unknown> {
    return new Promise((resolve, reject) => {
      const call: PendingCall = { reject, settled: false };
      this.#pending.add(call);
      const finish = (settle: () => void): void => {
        if (call.settled) return;
        call.settled = true;
        this.#pending.delete(call);
        settle();
      };
      body(call, finish, resolve, reject);
    });
  }

  /**
   * What an event's method returned (or threw) goes through the output gate. A synchronous result
   * goes now, not a microtask later: it was computed before any event after it ran, so only
   * writes before it can hold it.
   */
  #outcome(live: Live, finish: (settle: () => void) => void, result: unknown, threw: boolean, resolve: (value: unknown) => void, reject: (err: unknown) => void): void {
    if (threw) return this.#release(live, finish, () => reject(result), reject);
    if (!isThenable(result)) return this.#release(live, finish, () => resolve(result), reject);
    Promise.resolve(result).then(
      (value) => this.#release(live, finish, () => resolve(value), reject),
      (err) => this.#release(live, finish, () => reject(err), reject),
    );
  }

  /** The output gate: a result leaves only once the writes before it are durable. */
  #release(live: Live, finish: (settle: () => void) => void, deliver: () => void, reject: (e: unknown) => void): void {
    if (live.resetError) return finish(() => reject(live.resetError));
    const gate = live.parts.session.outputGate();
    if (gate === null) return finish(deliver);
    gate.then(
      () => finish(live.resetError ? () => reject(live.resetError) : deliver),
      (err) => finish(() => reject(err)),
    );
  }

  #ensureLive(): Live {
    if (this.#closed) throw new StorageError('The object namespace is closed; open it again to use this object.');
    if (this.#live) return this.#live;
    const live: Live = { object: {}, parts: undefined as unknown as SessionParts, resetError: null };
    live.parts = openSessionParts(this.id, this.#cfg, {
      afterCommit: () => this.#afterCommit(live),
      onBroken: (err) => this.#reset(err, live),
    });
    this.#live = live;
    try {
      const storage = new ObjectStorage({ ...live.parts, gate: this.#gate, alarmView: this.#scheduler, now: this.#cfg.now });
      const ctx = new ObjectState(this.id, storage, {
        gate: this.#gate,
        reset: (err) => this.#reset(err, live),
        commitPending: () => live.parts.session.commitNow(),
      });
      live.object = new this.#cfg.ObjectClass(ctx, this.#cfg.env as never) as Record<string, unknown>;
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.#reset(new StorageResetError(message, { cause: err }), live);
      throw err;
    }
    return live;
  }

  #reset(err: StorageResetError, live: Live): void {
    if (this.#live !== live) return;
    this.#live = null;
    live.resetError = err;
    live.parts.session.abort(err);
  }

  #afterCommit(live: Live): void {
    const { alarms } = live.parts;
    if (!alarms.takeDirty()) return;
    const time = alarms.get();
    this.#cfg.alarmIndex.set(this.id.name, time);
    this.#scheduler.arm(time);
  }

  async #clearAlarm(time: number): Promise<void> {
    const live = this.#ensureLive();
    if (live.parts.alarms.get() !== time) return;
    live.parts.alarms.set(null, true);
    await live.parts.session.sync();
  }
}

function isThenable(value: unknown): boolean {
  return (typeof value === 'object' || typeof value === 'function') && value !== null && typeof (value as { then?: unknown }).then === 'function';
}
