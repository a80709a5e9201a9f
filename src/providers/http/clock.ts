/**
 * Time as the HTTP provider sees it: `now` and `sleep`, and the random source of the jitter. Tests
 * pass a fake clock that records waits and advances instantly instead of sleeping.
 */

/** A clock: milliseconds now, and a wait. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The real clock. */
export const systemClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
};

/** Full-jitter exponential backoff: a random wait in [0, min(max, base * 2^(attempt - 1))). */
export function backoffMs(attempt: number, policy: { backoffBaseMs: number; backoffMaxMs: number }, random: () => number): number {
  const ceiling = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * Milliseconds a `Retry-After` header asks for: delta-seconds or an HTTP date; undefined when
 * absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const text = value.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Math.ceil(Number(text) * 1000);
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
