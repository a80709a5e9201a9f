/** A clock for tests: `sleep` records the wait and advances time at once, so no test really sleeps. */
import type { Clock } from '../../src/providers/http/clock.js';

export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(public t = 1_000_000) {}
  now(): number {
    return this.t;
  }
  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.t += Math.max(0, ms);
  }
}
