/**
 * Opens the storage of one object for one session: its SQLite file under `<dir>/objects/`, named by
 * the sha256 of the object name (safe for any name), and the parts that work on it (key-value table,
 * alarm row, SQL API, PITR). On the SQLite backend a pending restore is applied, and the PITR log
 * brought up to date, before SQLite opens the file; a session with nothing of that to do reads the
 * log at its first write (`pitr.ts`). A namespace open for reading reads the file without writing
 * anything (`read-only.ts`), and has no PITR.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { accessErrorOf, assertUsable, objectPaths, writeFailureOf } from './access.js';
import { AlarmStore } from './alarm-store.js';
import type { AlarmIndex } from './alarm-index.js';
import { KvStore } from './kv.js';
import { markGap, PitrService, SessionPitr, type PitrApi } from './pitr.js';
import { openForReading, type ReadMode } from './read-only.js';
import { hasPendingRestore } from './pitr/restore.js';
import { openDatabase } from './database.js';
import { StorageSession, type Backend, type SessionHooks } from './session.js';
import { StorageAccessError, StorageResetError } from './errors.js';
import { SqlStorage } from './sql.js';
import type { ObjectId } from './state.js';

/**
 * What opening a session needs of its namespace's configuration: the part of the host's
 * `HostConfig` (`host.ts`, which opens sessions through this file) read here.
 */
export interface OpenConfig {
  dir: string;
  backend: Backend;
  now: () => number;
  /** The namespace's alarm hints (`HostConfig.alarmIndex`). */
  alarmIndex: Pick<AlarmIndex, 'lower'>;
  /** Set when the namespace is open for reading only (`read-only.ts`): how its files are read. */
  readMode?: ReadMode;
  /** The directory a `StorageAccessError`'s advice names (default `dir`). */
  root?: string;
  /** A writer opens an object whose files it may not write for reading, and refuses its writes (`ObjectNamespaceOptions`). */
  readsWhenNotWritable?: boolean;
}

/** Everything one session of one object works with. */
export interface SessionParts {
  session: StorageSession;
  kv: KvStore;
  alarms: AlarmStore;
  sql: SqlStorage;
  pitr: PitrApi | null;
  /** Commits pending writes and closes the session. */
  close(): void;
  /** Set when opened for reading because its files were not writable: whether they are now (`readsWhenNotWritable`). */
  writableAgain?: () => boolean;
}

/** Directory of the object files of a namespace directory. */
export function objectsDir(dir: string): string {
  return join(dir, 'objects');
}

/**
 * The session's hooks: PITR's, and the naming of a write the file system refused after the files
 * opened (`writeFailureOf`: which path, why, and that the transaction was rolled back).
 */
function sessionHooks(pitr: SessionPitr | null, hooks: SessionHooks, session: () => StorageSession, file: string, root: string): SessionHooks {
  // The file first: named when no permission explains the failure (a full disk, an I/O error).
  const paths = [file, ...objectPaths(file).filter((p) => p !== file)];
  const written: SessionHooks = { ...hooks, writeFailure: (cause) => writeFailureOf(cause, paths, root, { committed: false }) };
  if (pitr === null) return written;
  return {
    ...written,
    // A write is about to begin: the log must be read now, before the WAL holds anything of it.
    // Nothing is written yet: a log this user may no longer read or write is said as such.
    beforeBegin: () => {
      try {
        pitr.parts();
      } catch (err) {
        throw accessErrorOf(err, [pitr.dir], true, root) ?? err;
      }
      hooks.beforeBegin?.();
    },
    afterCommit: () => {
      try {
        pitr.parts().recorder.afterCommit();
      } catch (err) {
        // The commit is durable but the log missed it: restart the log at the next open.
        markGap(pitr.dir);
        session().fail(err, 'the point-in-time recovery log could not be written', writeFailureOf(err, [pitr.dir], root, { committed: true, deep: true }));
      }
      hooks.afterCommit?.();
    },
    beforeClose: () => {
      pitr.close();
      hooks.beforeClose?.();
    },
  };
}

/** `openDatabase`, with a write the file system refuses there (SQLite writes at open) said as such. */
function openWriting(file: string, sqlite: boolean, root: string): ReturnType<typeof openDatabase> {
  try {
    return openDatabase(file, sqlite);
  } catch (err) {
    throw accessErrorOf(err, objectPaths(file), true, root) ?? writeFailureOf(err, [file, ...objectPaths(file).filter((p) => p !== file)], root, { committed: false, opening: true }) ?? err;
  }
}

/**
 * The session's PITR log, which at open may finish or apply a restore (a rollback) and log what a
 * crash left unlogged: a write the file system refuses there is said in one line (which path, why),
 * and what it was doing stays requested, for the next writing open to finish.
 */
function openSessionPitr(dir: string, file: string, now: () => number, root: string): SessionPitr {
  try {
    return new SessionPitr(dir, file, now);
  } catch (err) {
    throw accessErrorOf(err, [dir, ...objectPaths(file)], true, root)
      ?? writeFailureOf(err, [file, dir, ...objectPaths(file).filter((p) => p !== file)], root, { committed: false, opening: true, pending: hasPendingRestore(dir) })
      ?? err;
  }
}

/** Opens one object's storage for a new session. */
export function openSessionParts(id: ObjectId, cfg: OpenConfig, hooks: SessionHooks): SessionParts {
  const base = join(objectsDir(cfg.dir), id.toString());
  const file = `${base}.sqlite`;
  const sqlite = cfg.backend === 'sqlite';
  // A writer may write every file of the object (SQLite would open a file it may not write
  // read-only and fail at the first write; the PITR log after the commit it logs): said now, before
  // anything is written (`access.ts`). A reader is told after a failed open (`read-only.ts`).
  const root = cfg.root ?? cfg.dir;
  const assertWritable = (): void => {
    assertUsable(objectPaths(file), true, root);
    if (sqlite) assertUsable([`${base}.pitr`], true, root, true);
  };
  let readMode = cfg.readMode;
  let refuseWrites: (() => StorageAccessError | StorageResetError) | undefined;
  if (readMode === undefined) {
    try {
      assertWritable();
    } catch (err) {
      // A server answers reads of a zone it may not write: the object is read, and each write is
      // refused (nothing written) until the files are writable again; then the host reopens the
      // idle object for writing at its next event (`writableAgain`), or a write that meets them
      // writable first resets it.
      if (cfg.readsWhenNotWritable !== true || !(err instanceof StorageAccessError) || !existsSync(file)) throw err;
      // This writer holds the directory's lock, so nothing changes the file while it is read: read
      // whole, as a frozen reader does, SQLite makes no -wal/-shm (of the file's mode) beside it.
      readMode = 'frozen';
      refuseWrites = () => {
        try {
          assertWritable();
        } catch (still) {
          if (still instanceof StorageAccessError) return still;
          throw still;
        }
        return new StorageResetError(`The files of this object are writable again (${file}): it was open for reading only and reopens for writing at the next event; send the write again.`);
      };
    }
  }
  // A reader keeps no PITR log: only writes are logged, and reading the log could write (it repairs).
  const read = readMode !== undefined ? openForReading(file, `${base}.pitr`, readMode, root) : undefined;
  const pitr = sqlite && read === undefined ? openSessionPitr(`${base}.pitr`, file, cfg.now, root) : null;
  const db = read?.db ?? openWriting(file, sqlite, cfg.root ?? cfg.dir);
  let session: StorageSession | null = null;
  try {
    pitr?.attach(db);
    session = new StorageSession(db, cfg.backend, sessionHooks(pitr, hooks, () => session as StorageSession, file, root), read?.readOnly === true, refuseWrites);
  } catch (err) {
    db.close();
    pitr?.close();
    throw err;
  }
  return {
    session,
    kv: new KvStore(session),
    alarms: new AlarmStore(session, (time) => cfg.alarmIndex.lower(id.name, time)),
    sql: new SqlStorage(sqlite ? session : null),
    pitr: pitr ? new PitrService(pitr, session, cfg.now) : null,
    close: () => (session as StorageSession).close(),
    ...(refuseWrites !== undefined ? { writableAgain: () => !(refuseWrites() instanceof StorageAccessError) } : {}),
  };
}
