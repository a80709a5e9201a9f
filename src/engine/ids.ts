/**
 * Identifiers and timestamps the engine assigns: ids are 32 lowercase hex characters (like the real
 * service's), timestamps RFC 3339 in UTC with milliseconds.
 */
import { randomBytes } from 'node:crypto';

/** A new random 32-hex-character id. */
export function newId(): string {
  return randomBytes(16).toString('hex');
}

/** True for a 32-character lowercase hex id. */
export function isId(value: string): boolean {
  return /^[0-9a-f]{32}$/.test(value);
}

/** RFC 3339 timestamp of `date` (default now), e.g. `2024-05-01T12:00:00.123Z`. */
export function timestamp(date = new Date()): string {
  return date.toISOString();
}
