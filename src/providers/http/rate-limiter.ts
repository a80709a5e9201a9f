/**
 * The client-side request budget: at most `requests` requests in any `seconds`-long window.
 *
 * A sliding window of send times rather than a token bucket: a bucket of capacity N refilled at
 * N per window lets a full bucket plus a window's refill through, up to 2N requests in one window,
 * which overruns the real service's 1,200 per 5 minutes. The window never does. It also answers
 * how long a number of requests will take (`estimateSeconds`) so a plan can say so up front.
 */
import { ZonewallError } from '../../errors.js';
import type { Clock } from './clock.js';

/** A request budget: `requests` per `seconds`. */
export interface RateLimit {
  requests: number;
  seconds: number;
}

/** A wait for the budget, reported as it starts so a CLI can say why nothing happens. */
export interface BudgetWait {
  /** How long this wait lasts. */
  ms: number;
  /** `budget`: the window is full; `retry-after`: the service answered 429 and every request pauses. */
  reason: 'budget' | 'retry-after';
  limit: RateLimit;
}

/** Hears about waits; `resumed` follows each reported wait once requests flow again. */
export interface BudgetListener {
  waiting(wait: BudgetWait): void;
  resumed(): void;
}

/** Waits shorter than this are not reported (a sliding window past its first burst waits in small steps). */
export const ReportedWaitMs = 1000;

/**
 * Sliding-window limiter; `acquire` resolves when a request may be sent, in call order. One per
 * run: every zone's requests go through it, as they share the account's budget.
 */
export class RateLimiter {
  /** Told when requests wait for the budget (the CLI's progress line). */
  listener: BudgetListener | undefined;
  private reported = false;
  private readonly windowMs: number;
  /** Send times within the last window, oldest first. */
  private sent: number[] = [];
  private pausedUntil = 0;
  private queue: Promise<void> = Promise.resolve();

  constructor(readonly limit: RateLimit, private readonly clock: Clock) {
    if (!(limit.requests >= 1) || !(limit.seconds > 0)) {
      throw new ZonewallError('ERR_USAGE', `rate limit must allow at least 1 request per a positive number of seconds, got ${limit.requests}/${limit.seconds}s`);
    }
    this.windowMs = limit.seconds * 1000;
  }

  /** Waits for a free slot, then records a request as sent. */
  acquire(): Promise<void> {
    const turn = this.queue.then(() => this.take());
    this.queue = turn.catch(() => undefined);
    return turn;
  }

  /** Holds every request until `ms` from now (the service answered 429 with Retry-After). */
  pause(ms: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, this.clock.now() + ms);
  }

  /** Seconds until `requests` more requests will all have been sent, if sent as fast as allowed. */
  estimateSeconds(requests: number): number {
    const now = this.clock.now();
    const times = this.recent(now);
    let last = now;
    for (let i = 0; i < requests; i++) {
      let at = Math.max(now, this.pausedUntil);
      if (times.length >= this.limit.requests) at = Math.max(at, times[times.length - this.limit.requests] + this.windowMs);
      times.push(at);
      last = at;
    }
    return Math.ceil((last - now) / 1000);
  }

  private async take(): Promise<void> {
    for (;;) {
      const now = this.clock.now();
      this.sent = this.recent(now);
      const wait = this.pausedUntil > now
        ? this.pausedUntil - now
        : this.sent.length >= this.limit.requests ? this.sent[0] + this.windowMs - now : 0;
      if (wait <= 0) {
        this.sent.push(now);
        if (this.reported) {
          this.reported = false;
          this.listener?.resumed();
        }
        return;
      }
      if (wait >= ReportedWaitMs && this.listener !== undefined) {
        this.reported = true;
        this.listener.waiting({ ms: wait, reason: this.pausedUntil > now ? 'retry-after' : 'budget', limit: this.limit });
      }
      await this.clock.sleep(wait);
    }
  }

  private recent(now: number): number[] {
    const from = now - this.windowMs;
    let i = 0;
    while (i < this.sent.length && this.sent[i] <= from) i++;
    return this.sent.slice(i);
  }
}

/**
 * Parses `<requests>/<seconds>` with an optional unit: `1200/300s`, `1200/300`, `1200/5m`.
 * Throws a usage error naming the accepted forms.
 */
export function parseRateLimit(text: string): RateLimit {
  const m = /^\s*(\d+)\s*\/\s*(\d+(?:\.\d+)?)\s*(s|m)?\s*$/.exec(text);
  const requests = m ? Number(m[1]) : Number.NaN;
  const seconds = m ? Number(m[2]) * (m[3] === 'm' ? 60 : 1) : Number.NaN;
  if (!m || requests < 1 || !(seconds > 0)) {
    throw new ZonewallError('ERR_USAGE', `invalid rate limit ${JSON.stringify(text)}: expected <requests>/<seconds>s such as 1200/300s (or 1200/5m)`);
  }
  return { requests, seconds };
}
