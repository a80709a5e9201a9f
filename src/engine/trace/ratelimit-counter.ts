/**
 * The counting core of rate limiting rules, one piece of code for the engine's burst trace and
 * `zonewall test` offline: one rule's counters, keyed by the values of its characteristics, in one
 * data center, on a simulated clock (milliseconds from the burst's start; never the wall clock).
 *
 * The rate is the service's sliding-window estimate: windows of `period` from the clock's 0, and
 * `rate = previous window's count * (share of the period not yet elapsed) + this window's count`.
 * A request that makes the rate exceed the threshold gets the action; with a mitigation timeout,
 * every later request of that key the rule matches gets it too until `at + timeout`, uncounted;
 * with timeout 0 (throttle) only the requests over the rate get it, and they are not counted, so a
 * throttled client gets `requests_per_period` through per period. Decision (the reference is silent):
 * requests acted on during a timeout are not counted either.
 */

/** One key's state: its window, counts, and the end of its mitigation (ms). */
export class Slot {
  constructor(public window: number, public count = 0, public previous = 0, public until = -1) {}
}

/** The counters of one rule. */
export class RateLimitCounter {
  private readonly slots = new Map<string, Slot>();
  private readonly periodMs: number;
  private readonly timeoutMs: number;

  constructor(periodSeconds: number, private readonly threshold: number, timeoutSeconds: number) {
    this.periodMs = periodSeconds * 1000;
    this.timeoutMs = timeoutSeconds * 1000;
  }

  /** Keys with a counter. */
  get size(): number {
    return this.slots.size;
  }

  /**
   * One request of `key` at `atMs`: `counted` whether it counts (the counting expression, cached
   * requests), `applies` whether the rule's expression matches it, `weight` its count (a score for
   * complexity-based rules). Returns undefined when the request passes, else the end of the
   * action in ms (`-1` for a throttle).
   */
  hit(key: string, atMs: number, counted: boolean, applies: boolean, weight = 1): number | undefined {
    const until = this.hitSlot(this.slot(key, atMs), atMs, counted, applies, weight);
    return until === Passes ? undefined : until;
  }

  /** The state of `key` (made, in the window of `atMs`, on first use): what `hitSlot` counts on. */
  slot(key: string, atMs = 0): Slot {
    let s = this.slots.get(key);
    if (s === undefined) this.slots.set(key, (s = new Slot(Math.floor(atMs / this.periodMs))));
    return s;
  }

  /** `hit` on a key's state (`slot`): `Passes` when the request passes, else the end of the action in ms (`-1` for a throttle). */
  hitSlot(s: Slot, atMs: number, counted: boolean, applies: boolean, weight: number): number {
    const window = Math.floor(atMs / this.periodMs);
    if (s.window !== window) {
      s.previous = window === s.window + 1 ? s.count : 0;
      s.count = 0;
      s.window = window;
    }
    if (applies && atMs < s.until) return s.until;
    if (counted) s.count += weight;
    if (!applies) return Passes;
    const elapsed = atMs - window * this.periodMs;
    const rate = s.previous * ((this.periodMs - elapsed) / this.periodMs) + s.count;
    if (rate <= this.threshold) return Passes;
    if (this.timeoutMs > 0) {
      s.until = atMs + this.timeoutMs;
      return s.until;
    }
    if (counted) s.count -= weight;
    return -1;
  }
}

/** What `hitSlot` answers for a request that passes. */
export const Passes = -2;
