/**
 * Identifiers and timestamps the engine assigns: ids are 32 lowercase hex characters (like the real
 * service's), timestamps RFC 3339 in UTC with milliseconds. Randomness comes from Web Crypto
 * (`globalThis.crypto`), which Node 20 and workerd both provide: the zone object runs on either.
 */

/** A new random 32-hex-character id. */
export function newId(): string {
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(16));
  let hex = '';
  for (const b of bytes) hex += b.toString(16).padStart(2, '0');
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
