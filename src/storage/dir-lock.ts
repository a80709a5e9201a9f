/**
 * The cross-process lock of a namespace directory: one process at a time may open it, because each
 * process keeps its own live instance of every object and two would lose each other's updates.
 * The lock is an OS file lock taken through SQLite on `<dir>/namespace.lock`: the connection sets
 * `locking_mode=EXCLUSIVE` and holds a `BEGIN EXCLUSIVE` transaction open until release. The
 * kernel drops the lock when the process dies, however it dies, so a SIGKILLed holder never
 * leaves a stale lock behind (unlike a pid file) and nothing has to guess whether a holder lives.
 * Within one process `namespace.ts` refuses a second open before this lock is tried.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { StorageError, StorageLockedError } from './errors.js';

/** The lock file's name inside a namespace directory. */
export const LOCK_FILE = 'namespace.lock';

/** A held directory lock. */
export interface DirLock {
  /** Releases the lock (idempotent). */
  release(): void;
}

function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * Takes the lock of `dir` (which must exist), waiting up to `timeoutMs` for a holder to go away.
 * The wait blocks the thread (SQLite's busy handler); `ObjectNamespace.open()` waits without
 * blocking by retrying with a timeout of 0. Throws `StorageLockedError` when the lock stays held.
 */
export function lockDir(dir: string, timeoutMs: number): DirLock {
  let db: Database.Database | undefined;
  try {
    db = new Database(join(dir, LOCK_FILE), { timeout: timeoutMs });
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db?.close();
    if (isBusy(err)) throw new StorageLockedError(dir, timeoutMs, { cause: err });
    throw new StorageError(`Cannot lock the namespace directory ${dir}: ${(err as Error).message}`, { cause: err });
  }
  const held = db;
  return {
    release: () => {
      // Closing the connection ends the transaction and drops the file lock.
      if (held.open) held.close();
    },
  };
}
