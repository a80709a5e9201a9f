/**
 * The alarm scheduler of one object (after workerd `server/alarm-scheduler.c++` and
 * `io/actor-sqlite.c++`). The persisted alarm time lives in the object's database (`alarm-store.ts`);
 * this file arms a timer for the committed time, delivers `alarm(info)` through the input gate like
 * any event, and applies the policy the seed leaves open, as the reference does:
 *
 * | outcome of `alarm()`                    | what happens                                                |
 * |-----------------------------------------|-------------------------------------------------------------|
 * | resolves, alarm not changed meanwhile   | the alarm is deleted                                        |
 * | resolves, alarm set/deleted meanwhile   | the new state stands (a new time fires later)               |
 * | throws, alarm not changed meanwhile     | retried after base * 2^n ms (+0-25% jitter), n = 0, 1, ...   |
 * | throws on the last allowed retry        | abandoned: the alarm is deleted                             |
 * | throws, alarm set/deleted meanwhile     | no retry; the new state stands                              |
 *
 * While the handler runs, `getAlarm()` reports null unless the handler set a new time. A running
 * handler is never cancelled; only one runs at a time per object. Defaults: 2 s base, 6 retries.
 */

/** What `alarm(info)` receives. */
export interface AlarmInvocationInfo {
  /** Number of failed attempts before this one (0 on the first run). */
  retryCount: number;
  /** `retryCount > 0`. */
  isRetry: boolean;
  /** The scheduled time being served, ms since epoch. */
  scheduledTime: number;
}

/** The retry policy of failed alarm handlers. */
export interface AlarmRetryOptions {
  /** Delay before the first retry, ms; doubles each retry (reference: 2000). */
  baseDelayMs?: number;
  /** Retries after the first attempt before the alarm is abandoned (reference: 6). */
  maxRetries?: number;
}

/** The reference's retry constants. */
export const AlarmDefaults = {
  baseDelayMs: 2000,
  maxRetries: 6,
  /** The delay stops doubling after this many doublings (2 s << 9 = 1024 s). */
  maxBackoff: 9,
  /** Uniform random extra delay, as a fraction of the delay. */
  jitter: 0.25,
} as const;

/** setTimeout's largest delay; longer waits re-arm in steps. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** What the scheduler needs from the object's host. */
export interface AlarmHost {
  /** True when the object class has an `alarm()` method. */
  hasHandler(): boolean;
  /** The committed alarm time, opening the object's storage if needed. */
  storedAlarm(): number | null;
  /** Delivers `alarm(info)` as an event; settles when its result would be released. */
  runHandler(info: AlarmInvocationInfo): Promise<void>;
  /** Deletes the alarm if it is still `time`, durably. */
  clearAlarm(time: number): Promise<void>;
  /** Reports a failed attempt. */
  onError(err: unknown, info: AlarmInvocationInfo): void;
  now(): number;
}

interface Running {
  scheduledTime: number;
  changed: boolean;
}

/** One object's alarm timer and handler policy. */
export class AlarmScheduler {
  readonly #host: AlarmHost;
  readonly #baseDelayMs: number;
  readonly #maxRetries: number;
  #timer: NodeJS.Timeout | null = null;
  #running: Running | null = null;
  #retry: { scheduledTime: number; count: number } | null = null;
  #stopped = false;

  constructor(host: AlarmHost, retry: Required<AlarmRetryOptions>) {
    this.#host = host;
    this.#baseDelayMs = retry.baseDelayMs;
    this.#maxRetries = retry.maxRetries;
  }

  /** True when the object class has an `alarm()` method. */
  hasHandler(): boolean {
    return this.#host.hasHandler();
  }

  /** What `getAlarm()` reports: null for the alarm being handled, unless changed since. */
  report(stored: number | null): number | null {
    const running = this.#running;
    if (running && !running.changed && stored === running.scheduledTime) return null;
    return stored;
  }

  /** An alarm write happened (during a handler, it replaces the retry). */
  noteWrite(): void {
    if (this.#running) this.#running.changed = true;
  }

  /** Arms the timer for the committed alarm `time` (null: disarm). */
  arm(time: number | null): void {
    if (this.#stopped) return;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    if (time === null || this.#running) return;
    const delay = Math.min(Math.max(0, time - this.#host.now()), MAX_TIMER_MS);
    this.#timer = setTimeout(() => this.#fire(), delay);
  }

  /** Stops all timers for good (namespace closing). */
  stop(): void {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  #fire(): void {
    this.#timer = null;
    if (this.#stopped || this.#running) return;
    let stored: number | null;
    try {
      stored = this.#host.storedAlarm();
    } catch (err) {
      this.#host.onError(err, { retryCount: 0, isRetry: false, scheduledTime: 0 });
      return;
    }
    if (stored === null) return;
    if (stored > this.#host.now()) {
      this.arm(stored);
      return;
    }
    const retryCount = this.#retry?.scheduledTime === stored ? this.#retry.count : 0;
    void this.#attempt({ scheduledTime: stored, retryCount, isRetry: retryCount > 0 });
  }

  async #attempt(info: AlarmInvocationInfo): Promise<void> {
    const running: Running = { scheduledTime: info.scheduledTime, changed: false };
    this.#running = running;
    let failure: { err: unknown } | null = null;
    try {
      await this.#host.runHandler(info);
    } catch (err) {
      failure = { err };
    }
    this.#running = null;
    if (this.#stopped) return;
    try {
      if (failure) await this.#afterFailure(info, running, failure.err);
      else {
        this.#retry = null;
        if (!running.changed) await this.#host.clearAlarm(info.scheduledTime);
      }
    } catch (err) {
      this.#host.onError(err, info);
    }
    if (!this.#stopped && !this.#timer) this.#rearmFromStorage(info);
  }

  async #afterFailure(info: AlarmInvocationInfo, running: Running, err: unknown): Promise<void> {
    this.#host.onError(err, info);
    if (running.changed) {
      this.#retry = null;
      return;
    }
    if (info.retryCount >= this.#maxRetries) {
      this.#retry = null;
      await this.#host.clearAlarm(info.scheduledTime);
      return;
    }
    const backoff = Math.min(info.retryCount, AlarmDefaults.maxBackoff);
    const delay = this.#baseDelayMs * 2 ** backoff;
    this.#retry = { scheduledTime: info.scheduledTime, count: info.retryCount + 1 };
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = setTimeout(() => this.#fire(), delay + Math.random() * AlarmDefaults.jitter * delay);
  }

  #rearmFromStorage(info: AlarmInvocationInfo): void {
    try {
      this.arm(this.#host.storedAlarm());
    } catch (err) {
      this.#host.onError(err, info);
    }
  }
}
