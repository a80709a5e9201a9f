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

/** The fields of one key's state in `RateLimitCounter`'s table: its window, counts, and the end of its mitigation (ms). */
const Window = 0;
const Count = 1;
const Previous = 2;
const Until = 3;
const Stride = 4;

/**
 * The counters of one rule. Each key's state is a slot: a number, its four fields side by side in
 * one `Float64Array` (grown by doubling), so a burst of many keys keeps no object per key.
 */
export class RateLimitCounter {
  private readonly slots = new Map<string, number>();
  private states = new Float64Array(Stride * 8);
  private used = 0;
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

  /** The state of `key` (made, in the window of `atMs`, on first use): the slot `hitSlot` counts on. */
  slot(key: string, atMs = 0): number {
    let s = this.slots.get(key);
    if (s === undefined) {
      s = this.used++;
      if (s * Stride === this.states.length) {
        const grown = new Float64Array(this.states.length * 2);
        grown.set(this.states);
        this.states = grown;
      }
      const at = s * Stride;
      this.states[at + Window] = Math.floor(atMs / this.periodMs);
      this.states[at + Until] = -1;
      this.slots.set(key, s);
    }
    return s;
  }

  /** `hit` on a key's state (`slot`): `Passes` when the request passes, else the end of the action in ms (`-1` for a throttle). */
  hitSlot(slot: number, atMs: number, counted: boolean, applies: boolean, weight: number): number {
    const st = this.states;
    const s = slot * Stride;
    const periodMs = this.periodMs;
    let window = st[s + Window]!;
    // Still in the key's window (the common case): no division. Else the window of `atMs`.
    if (atMs < window * periodMs || atMs >= (window + 1) * periodMs) {
      const was = window;
      window = Math.floor(atMs / periodMs);
      st[s + Previous] = window === was + 1 ? st[s + Count]! : 0;
      st[s + Count] = 0;
      st[s + Window] = window;
    }
    if (applies && atMs < st[s + Until]!) return st[s + Until]!;
    if (counted) st[s + Count] += weight;
    if (!applies) return Passes;
    const elapsed = atMs - window * periodMs;
    const rate = st[s + Previous]! * ((periodMs - elapsed) / periodMs) + st[s + Count]!;
    if (rate <= this.threshold) return Passes;
    if (this.timeoutMs > 0) return (st[s + Until] = atMs + this.timeoutMs);
    if (counted) st[s + Count] -= weight;
    return -1;
  }
}

/** What `hitSlot` answers for a request that passes. */
export const Passes = -2;
