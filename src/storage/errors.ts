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

  constructor(at: { path: string; owner: number; mode: number; folder: boolean; uid: number; writes: boolean; root: string }, options?: { cause?: unknown }) {
    const mode = (at.mode & 0o777).toString(8).padStart(4, '0');
    const verb = at.writes ? 'write' : 'read';
    const fix = at.owner === at.uid
      ? `give this user ${verb} access to it (chmod u+${at.writes ? 'rw' : 'r'}${at.folder ? 'x' : ''} ${at.path})`
      : `run zonewall as its owner, or give the files to this user (chown -R ${at.uid} ${at.root})`;
    super(
      `cannot ${verb} the state directory ${at.root}: the ${at.folder ? 'folder' : 'file'} ${at.path} (mode ${mode}, owner uid ${at.owner}) ` +
        `is not ${at.writes ? 'writable' : 'readable'} by this user (uid ${at.uid}): ${fix}`,
      { ...options, code: 'ERR_STATE_ACCESS' },
    );
    this.path = at.path;
    this.owner = at.owner;
    this.mode = at.mode & 0o777;
    this.uid = at.uid;
    this.writes = at.writes;
    this.root = at.root;
  }
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
