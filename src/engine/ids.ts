/**
 * Identifiers and timestamps the engine assigns: ids are 32 lowercase hex characters (like the real
 * service's), timestamps RFC 3339 in UTC with milliseconds, or microseconds where the service writes
 * them (the Rulesets API's `last_updated`, e.g. `2025-03-21T11:02:08.769537Z`). Randomness comes from Web Crypto
 * (`globalThis.crypto`), which Node 20 and workerd both provide: the zone object runs on either.
 */

/** Hex of each byte value. */
const Hex = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));
/**
 * Random bytes drawn 4 KiB at a time (256 ids): a bulk write of 500,000 list items would otherwise
 * make 500,000 calls into the random source. Filled lazily, within a request (workerd allows no
 * randomness at global scope).
 */
const pool = new Uint8Array(4096);
let used = pool.length;

/** A new random 32-hex-character id. */
export function newId(): string {
  if (used + 16 > pool.length) {
    globalThis.crypto.getRandomValues(pool);
    used = 0;
  }
  let hex = '';
  for (let i = used; i < used + 16; i++) hex += Hex[pool[i]!]!;
  used += 16;
  return hex;
}

/** True for a 32-character lowercase hex id. */
export function isId(value: string): boolean {
  return /^[0-9a-f]{32}$/.test(value);
}

/** RFC 3339 timestamp of `date` (default now), e.g. `2024-05-01T12:00:00.123Z`. */
export function timestamp(date = new Date()): string {
  return date.toISOString();
}

let lastMicros = 0;

/**
 * Microseconds since the epoch: the clock's milliseconds plus the monotonic clock's sub-millisecond
 * part. Readings strictly increase (bumped by 1 µs when one would not be later than the last and
 * is less than a millisecond behind it), so the versions of a ruleset written in the same
 * millisecond keep their order by `last_updated`; a clock set back further (a test's fake time) is
 * followed as it is.
 */
export function epochMicros(): number {
  const ms = Date.now();
  const sub = typeof performance === 'undefined' ? 0 : Math.floor((performance.now() % 1) * 1000);
  let micros = ms * 1000 + sub;
  if (micros <= lastMicros && lastMicros - micros < 1000) micros = lastMicros + 1;
  lastMicros = micros;
  return micros;
}

/** RFC 3339 timestamp with 6 fractional digits of `micros` (µs since the epoch), e.g. `2025-03-21T11:02:08.769537Z`. */
export function timestampMicros(micros = epochMicros()): string {
  return `${new Date(Math.floor(micros / 1000)).toISOString().slice(0, -1)}${String(micros % 1000).padStart(3, '0')}Z`;
}
