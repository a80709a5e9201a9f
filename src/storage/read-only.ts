/**
 * Reading a namespace directory without writing to it (`ObjectNamespace` with `access: 'read'`,
 * what a plan opens): no file is created, changed or fsynced, no lock file is written.
 *
 * A writer holds `namespace.lock` exclusively for as long as it has the directory open
 * (`dir-lock.ts`). A reader asks for a SHARED lock on that same file through a read-only SQLite
 * connection: an OS file lock (fcntl), which writes nothing and which the kernel drops when the
 * process dies. Two outcomes:
 * - `frozen`: the shared lock is held: no writer has the directory, and none can open it until the
 *   reader closes (a writer that tries is refused or waits, as it was refused while a plan held the
 *   engine before). The object files cannot change, so each is read whole into memory and opened
 *   there (`sqlite3_deserialize`): SQLite opens no file, so creates no `-wal`/`-shm` beside it.
 * - `shared`: a writer has the directory (a `serve`, an `apply`), or there is no lock file to ask.
 *   Each object file is opened read-only in WAL mode beside the writer, as SQLite lets readers and
 *   a writer share a database (its `-shm` index is shared memory, which SQLite may create if the
 *   writer has not; the writer deletes it at its last close). The session holds one read
 *   transaction from open to close, so every read of an object sees one committed state.
 * An object with no file yet, or an empty one, reads as empty: an in-memory database stands in for it.
 */
import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { accessErrorOf, objectPaths } from './access.js';
import { StorageError } from './errors.js';
import { LOCK_FILE } from './dir-lock.js';
import { hasPendingRestore } from './pitr/restore.js';

/**
 * How a reader sees a namespace directory (see the file comment); `memory`: there is no directory,
 * every object is an in-memory database that lives as long as the namespace (a scratch engine).
 */
export type ReadMode = 'frozen' | 'shared' | 'memory';

/** A reader's hold on a namespace directory. */
export interface ReadLock {
  readonly mode: ReadMode;
  /** Drops the shared lock (idempotent). */
  release(): void;
}

/**
 * Takes the shared lock of `dir` if it can; never waits, never writes. A lock file or folder this
 * user may not read is a `StorageAccessError` naming `root` in its advice.
 */
export function lockForReading(dir: string, root = dir): ReadLock {
  const file = join(dir, LOCK_FILE);
  if (!existsSync(file)) {
    // No lock file: no writer can be excluded, but nothing exists to change under the reader
    // either when the directory is missing; `shared` reads whatever appears safely.
    return { mode: existsSync(dir) ? 'shared' : 'frozen', release: () => undefined };
  }
  let db: Database.Database | undefined;
  try {
    // timeout 0: a writer holds its lock for as long as it runs; waiting for it would only delay the reader.
    db = new Database(file, { readonly: true, fileMustExist: true, timeout: 0 });
    beginReading(db);
  } catch (err) {
    db?.close();
    const code = (err as { code?: unknown }).code;
    if (typeof code === 'string' && code.startsWith('SQLITE_BUSY')) return { mode: 'shared', release: () => undefined };
    throw accessErrorOf(err, [dir, file], false, root) ?? new StorageError(`Cannot read the namespace directory ${dir}: ${(err as Error).message}`, { cause: err });
  }
  const held = db;
  return { mode: 'frozen', release: () => { if (held.open) held.close(); } };
}

/**
 * Opens a read transaction and reads once: the first read takes SQLite's SHARED lock (which a
 * writer's EXCLUSIVE one refuses) and, in WAL mode, fixes the snapshot every later read sees.
 */
function beginReading(db: Database.Database): void {
  db.exec('BEGIN');
  db.prepare('SELECT count(*) FROM sqlite_master').get();
}

/** The database of one object for reading, and whether it is a real file's (else an empty stand-in). */
export interface ReadDatabase {
  db: Database.Database;
  /** False for the in-memory stand-in of a missing file, which the object may fill (its schema) and nobody sees. */
  readOnly: boolean;
}

/** Files up to this size are read into one buffer kept for the next (SQLite copies what it is given). */
const ReusedBufferBytes = 8 * 1024 * 1024;
let reused: Buffer | null = null;

/** The whole of the open file `fd` (`size` bytes) in a buffer that is valid until the next call. */
function readWhole(fd: number, size: number): Buffer {
  let buffer: Buffer;
  if (size > ReusedBufferBytes) buffer = Buffer.allocUnsafe(size);
  else buffer = reused !== null && reused.length >= size ? reused : (reused = Buffer.allocUnsafe(Math.max(size, 1024 * 1024)));
  let done = 0;
  while (done < size) {
    const n = readSync(fd, buffer, done, size - done, done);
    if (n === 0) throw new StorageError(`${size} bytes expected, the file ended at ${done}`);
    done += n;
  }
  return buffer.subarray(0, size);
}

/**
 * Opens `file` (an object's SQLite file; `pitrDir` its PITR log) for reading in `mode`. Nothing is
 * checked ahead (a read writes nothing): a failed open this user's permissions explain is said as
 * a `StorageAccessError` naming the path that refused and `root` in its advice.
 */
export function openForReading(file: string, pitrDir: string, mode: ReadMode, root: string): ReadDatabase {
  if (mode === 'memory') return { db: new Database(':memory:'), readOnly: false };
  try {
    return openFile(file, pitrDir, mode);
  } catch (err) {
    throw accessErrorOf(err, objectPaths(file), false, root) ?? err;
  }
}

function openFile(file: string, pitrDir: string, mode: ReadMode): ReadDatabase {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw new StorageError(`Cannot read ${file}: ${(err as Error).message}`, { cause: err });
    return { db: new Database(':memory:'), readOnly: false };
  }
  try {
    // A restore the last writer requested but did not get to apply changes the object at its next
    // writing open: reading the file now would show a state that is about to be undone.
    if (hasPendingRestore(pitrDir)) {
      throw new StorageError(`${file} has a point-in-time restore pending, which only a command that writes applies: run apply (or serve) on this state directory first`, { code: 'ERR_STATE_RESTORE_PENDING' });
    }
    const size = fstatSync(fd).size;
    const walSize = statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0;
    // An empty file is a database SQLite has not written yet (a writer stopped between creating the
    // file and its first commit): it holds what a missing file holds.
    if (size === 0 && walSize === 0) return { db: new Database(':memory:'), readOnly: false };
    if (mode === 'frozen' && walSize === 0 && size > 0) {
      const image = readWhole(fd, size);
      // Bytes 18-19 say "WAL mode", which an in-memory database cannot be; with an empty WAL the
      // file alone is the whole committed state, so the copy is marked as a rollback-journal file.
      image[18] = 1;
      image[19] = 1;
      return { db: new Database(image, { readonly: true }), readOnly: true };
    }
  } finally {
    closeSync(fd);
  }
  // A writer is (or may be) at work, or a crash left committed pages in the WAL: SQLite reads them.
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    beginReading(db);
  } catch (err) {
    db.close();
    throw err;
  }
  return { db, readOnly: true };
}
