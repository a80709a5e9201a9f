/**
 * The errors of the storage layer. The seed leaves error types open and the issue says to do as the
 * reference runtime does, so the JavaScript-facing storage API throws the reference's JS types and
 * messages (`TypeError` for bad arguments, `RangeError` for limits, `Error` for SQL and transaction
 * misuse, `DOMException` `DataCloneError` for unclonable values). Each of those carries a registered
 * zonewall `code` and `kind`, so logs and the CLI can still classify them. Failures of the namespace
 * itself (closed namespace, unreadable directory) are plain `ZonewallError` subclasses.
 */
import { ErrorCodes, ZonewallError, type ErrorCode, type ErrorKind } from '../errors.js';

/** A failure of the storage layer itself (I/O, closed namespace, corrupt log): `ERR_STORAGE`. */
export class StorageError extends ZonewallError {
  constructor(message: string, options?: { cause?: unknown; code?: ErrorCode }) {
    super(options?.code ?? 'ERR_STORAGE', message, options);
  }
}

/**
 * Another process has the namespace directory open (`ERR_STORAGE_LOCKED`): two processes on one
 * directory would each keep their own live instance of an object and lose each other's updates.
 */
export class StorageLockedError extends StorageError {
  /** The namespace directory, absolute. */
  readonly dir: string;

  constructor(dir: string, waitedMs: number, options?: { cause?: unknown }) {
    super(
      `The namespace directory ${dir} is in use by another process` +
        (waitedMs > 0 ? ` (still after waiting ${waitedMs} ms)` : '') +
        '; close its ObjectNamespace or stop that process, or pass { lockTimeoutMs } to wait for it.',
      { ...options, code: 'ERR_STORAGE_LOCKED' },
    );
    this.dir = dir;
  }
}

/**
 * A file or folder of a namespace directory this process may not read (or, to write, write): an
 * object's SQLite file or its `-wal`/`-shm`, its PITR log, `namespace.lock`, `alarms.sqlite`, a
 * folder (`ERR_STATE_ACCESS`). Raised where storage opens the file, before anything is written
 * (`access.ts`), instead of SQLite's `attempt to write a readonly database` deep in a write or
 * Node's bare `EACCES`. The message names the path, its owner and mode, and what to do; `root` is
 * the directory the advice names (the engine's state directory, which holds several namespaces).
 */
export class StorageAccessError extends StorageError {
  /** The path refused, absolute. */
  readonly path: string;
  /** Its owner's uid and its permission bits (`0o644`). */
  readonly owner: number;
  readonly mode: number;
  /** The uid of this process. */
  readonly uid: number;
  /** Whether writing (true) or reading was refused. */
  readonly writes: boolean;
  /** The directory the advice names (`chown -R UID root`). */
  readonly root: string;

  constructor(at: { path: string; owner: number; mode: number; folder: boolean; uid: number; writes: boolean; root: string; lacksRead?: boolean }, options?: { cause?: unknown }) {
    super(`cannot ${at.writes ? 'write' : 'read'} the state directory ${at.root}: ${accessDetail(at)}`, { ...options, code: 'ERR_STATE_ACCESS' });
    this.path = at.path;
    this.owner = at.owner;
    this.mode = at.mode & 0o777;
    this.uid = at.uid;
    this.writes = at.writes;
    this.root = at.root;
  }
}

/**
 * What a `StorageAccessError` says after naming the state directory: the path, its mode and owner,
 * what this user lacks and what to do. `lacksRead`: a folder or file asked for writing that this
 * user may not even read (or, a folder, search), which is what it then says it is not.
 */
export function accessDetail(at: { path: string; owner: number; mode: number; folder: boolean; uid: number; writes: boolean; root: string; lacksRead?: boolean }): string {
  const mode = (at.mode & 0o777).toString(8).padStart(4, '0');
  const verb = at.writes ? (at.lacksRead === true ? 'read and write' : 'write') : 'read';
  const fix = at.owner === at.uid
    ? `give this user ${verb} access to it (chmod u+${at.writes ? 'rw' : 'r'}${at.folder ? 'x' : ''} ${at.path})`
    : `run zonewall as its owner, or give the files to this user (chown -R ${at.uid} ${at.root})`;
  const lacks = at.writes && at.lacksRead !== true ? 'writable' : 'readable';
  return `the ${at.folder ? 'folder' : 'file'} ${at.path} (mode ${mode}, owner uid ${at.owner}) is not ${lacks} by this user (uid ${at.uid}): ${fix}`;
}

/** A bad argument to a storage call, as the reference's `TypeError`: `ERR_STORAGE_ARGUMENT`. */
export class StorageTypeError extends TypeError {
  readonly code: ErrorCode = 'ERR_STORAGE_ARGUMENT';
  /** `user`: the caller can fix the call. */
  get kind(): ErrorKind { return ErrorCodes[this.code]; }
}

/** A call over a documented limit (key, value, batch, window), as `RangeError`: `ERR_STORAGE_LIMIT`. */
export class StorageRangeError extends RangeError {
  readonly code: ErrorCode = 'ERR_STORAGE_LIMIT';
  /** `user`: the caller can fix the call. */
  get kind(): ErrorKind { return ErrorCodes[this.code]; }
}

/** A SQL statement failed or was refused; the message is SQLite's with the `SQLITE_*` code appended. */
export class SqlError extends Error {
  readonly code: ErrorCode = 'ERR_STORAGE_SQL';
  /** The SQLite result code name (`SQLITE_CONSTRAINT_CHECK`, `SQLITE_AUTH`, ...), when there is one. */
  readonly sqliteCode: string | undefined;

  constructor(message: string, sqliteCode?: string, options?: { cause?: unknown }) {
    super(message, options);
    this.sqliteCode = sqliteCode;
  }

  /** `user`: the statement or its data is at fault. */
  get kind(): ErrorKind { return ErrorCodes[this.code]; }
}

/** Misuse of a transaction (after rollback, after commit, deleteAll inside one): plain `Error`. */
export class TransactionError extends Error {
  readonly code: ErrorCode = 'ERR_STORAGE_ARGUMENT';
  /** `user`: the caller can fix the call. */
  get kind(): ErrorKind { return ErrorCodes[this.code]; }
}

/** An API the backend does not offer (SQL or PITR on the `kv` backend): `ERR_STORAGE_UNSUPPORTED`. */
export class StorageUnsupportedError extends Error {
  readonly code: ErrorCode = 'ERR_STORAGE_UNSUPPORTED';
  /** `user`: choose the `sqlite` backend. */
  get kind(): ErrorKind { return ErrorCodes[this.code]; }
}

/**
 * The object was reset: a write could not be made durable, `ctx.abort()` was called, or
 * `blockConcurrencyWhile()` threw. Callers waiting on the object get this error; the next event
 * constructs a fresh instance. `durableObjectReset` keeps the reference runtime's marker.
 */
export class StorageResetError extends Error {
  readonly code: ErrorCode = 'ERR_STORAGE_RESET';
  readonly durableObjectReset = true;
  /** `system`: nothing the caller did wrong in this call. */
  get kind(): ErrorKind { return ErrorCodes[this.code]; }
}

/**
 * A write the state directory refused after its files were open (`ERR_STATE_WRITE`): the file or
 * folder was made read-only meanwhile, the disk is full, the file system went read-only or failed
 * (EIO). It is a reset of the object (a failed write resets it, as in the reference, so it is a
 * `StorageResetError`), but not a genuine one: the message says which path refused the write, why,
 * and that nothing was half-written (the transaction was rolled back, `committed` false), or, when
 * the commit was durable and only the PITR log after it failed (`committed` true), that the change
 * is saved but the log missed it. `session-reset.ts` tells the two kinds of failure apart.
 */
export class StorageWriteError extends StorageResetError {
  override readonly code: ErrorCode = 'ERR_STATE_WRITE';
  /** The path that refused the write (an object's SQLite file, a folder, a PITR log), absolute. */
  readonly path: string;
  /** The directory the message names (the engine's state directory). */
  readonly root: string;
  /** False: the transaction was rolled back, nothing of it is on disk. True: it is durable, the PITR log missed it. */
  readonly committed: boolean;

  /** `opening`: refused while a file opened, before any change began (nothing to roll back). */
  /** `pending`: the PITR log's work at open (a restore), which stays requested for the next writing open. */
  constructor(at: { path: string; root: string; why: string; committed: boolean; opening?: boolean; pending?: boolean }, options?: { cause?: unknown }) {
    super(
      `cannot write the state directory ${at.root}: ${at.why}; ` +
        (at.committed
          ? 'the change itself was saved, but its point-in-time log entry was not (the log restarts at the next open: rollback cannot go back before this change)'
          : at.pending === true ? 'a restore (rollback) under way stays requested: the next command that writes this zone finishes it'
          : at.opening === true ? 'nothing was written' : 'nothing was written (the change was rolled back)'),
      options,
    );
    this.path = at.path;
    this.root = at.root;
    this.committed = at.committed;
  }
}

/** The structured clone algorithm refused a value: a `DOMException` named `DataCloneError`. */
export function dataCloneError(message: string): DOMException {
  return new DOMException(message, 'DataCloneError');
}

/** Message the reference uses when a transaction statement is sent through `sql.exec()`. */
export const TRANSACTION_STATEMENT_MESSAGE =
  'To execute a transaction, please use the state.storage.transaction() or ' +
  'state.storage.transactionSync() APIs instead of the SQL BEGIN TRANSACTION or SAVEPOINT ' +
  'statements. The JavaScript API is safer because it will automatically roll back on exceptions, ' +
  "and because it interacts correctly with Durable Objects' automatic atomic write coalescing.";

/** Error for SQL, PITR or `transactionSync` on the `kv` backend, naming the way out. */
export function notSqliteBackend(what: string): StorageUnsupportedError {
  return new StorageUnsupportedError(
    `${what} is not available: this object's namespace uses the 'kv' backend, which offers the ` +
      `key-value API and alarms only. Open the namespace with { backend: 'sqlite' } to use it.`,
  );
}
