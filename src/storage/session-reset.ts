/**
 * When a storage session breaks and what it says then: the SQLite result codes after which the
 * transaction state is unknown (the object must reset), and the `StorageResetError`s of a broken
 * session and of a closed one (calls on an old `ctx`). `session.ts` raises them.
 *
 * Of those failures, the ones the file system caused (a file or folder made read-only after it was
 * opened, a full disk, a read-only or failing file system: `writeFailureReason`) are not said as a
 * reset but as the write the state directory refused (`StorageWriteError`, built by `access.ts`,
 * which names the path): the user can do something about them, and a reset says nothing of what.
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

/** SQLite's result codes of a write the file system refused (a file it may no longer write, a full disk, an I/O error). */
const WRITE_REFUSED = /^SQLITE_(IOERR|FULL|READONLY|CANTOPEN|PERM)/;

/** Node's codes of the same, and what each says. */
const ERRNO_REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EFBIG: 'file too large',
  EIO: 'input/output error',
};

/**
 * Why the file system refused a write, when `err` (or the error it wraps) is such a refusal:
 * `no space left on the device (SQLITE_FULL)`; undefined for any other failure (a genuine reset).
 */
export function writeFailureReason(err: unknown): string | undefined {
  for (let e = err, depth = 0; typeof e === 'object' && e !== null && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    const errno = ERRNO_REASONS[code];
    if (errno !== undefined) return errno;
    if (!WRITE_REFUSED.test(code)) continue;
    if (code.startsWith('SQLITE_FULL')) return `no space left on the device (${code})`;
    const message = e instanceof Error ? e.message : code;
    return `${message} (${code})`;
  }
  return undefined;
}
