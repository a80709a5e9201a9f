/**
 * When a storage session breaks and what it says then: the SQLite result codes after which the
 * transaction state is unknown (the object must reset), and the `StorageResetError`s of a broken
 * session and of a closed one (calls on an old `ctx`). `session.ts` raises them.
 */
import { StorageResetError } from './errors.js';

/** SQLite result codes after which the transaction state is unknown: the object must reset. */
const CRITICAL = /^SQLITE_(FULL|IOERR|NOMEM|INTERRUPT|CORRUPT|CANTOPEN|NOTADB)/;

/** Whether `err` is a SQLite error after which the transaction state is unknown (see `CRITICAL`). */
export function isCriticalError(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && CRITICAL.test(code);
}

/** The error of every call on a session that was closed (the object reset, or its namespace closed). */
export function sessionClosedError(): StorageResetError {
  return new StorageResetError(
    "This object's storage session is closed: the object was reset or its namespace closed. " +
      'Calls on the old ctx are refused; the next event gets a fresh instance.',
  );
}

/** The error of a session broken because `why` (by `cause`): its writes since the last commit are rolled back. */
export function sessionResetError(cause: unknown, why: string): StorageResetError {
  const detail = cause instanceof Error ? cause.message : String(cause);
  const code = (cause as { code?: unknown }).code;
  const suffix = typeof code === 'string' ? `: ${code}` : '';
  return new StorageResetError(
    `Object was reset and rolled back to its last known good state because ${why}: ${detail}${suffix}`,
    { cause },
  );
}
