/**
 * One storage session: the SQLite connection behind one live object instance, and the implicit
 * transaction that coalesces its writes (after workerd `io/actor-sqlite.c++`). Every storage call
 * runs synchronously against SQLite at call time. The first write of a turn issues `BEGIN`; the
 * `COMMIT` runs on the next turn of the event loop (`setImmediate`), after the current synchronous
 * code and its microtasks, so writes with no intervening real I/O commit atomically and reads see
 * pending writes. The batch's promise is the output gate and the answer to `sync()`.
 *
 * A write made inside a `setImmediate` callback commits in the next loop iteration's check phase,
 * so a timer that falls due in between may run first and its writes join the batch: the atomic
 * unit can only grow that way, never split.
 *
 * Explicit transactions are savepoints inside the implicit transaction; while one is open the turn
 * commit is deferred until it ends. A failed commit (or a critical SQLite error) breaks the session:
 * the transaction is rolled back, waiting callers get a `StorageResetError` (`session-reset.ts`), and
 * the host constructs a fresh instance on the next event.
 */
import type Database from 'better-sqlite3';
import { newBatch, type Batch } from './batch.js';
import { StorageResetError } from './errors.js';
import { isCriticalError, sessionClosedError, sessionResetError } from './session-reset.js';
import { parkCursors } from './open-cursors.js';

/** Which storage backend a namespace uses. */
export type Backend = 'sqlite' | 'kv';

/** What the session tells its owner. */
export interface SessionHooks {
  /** Runs right before each implicit transaction begins (PITR reads its log at the first). */
  beforeBegin?: () => void;
  /** Runs synchronously right after each durable COMMIT (PITR logs the commit here). */
  afterCommit?: () => void;
  /** Runs once when the session breaks; the host resets the object. */
  onBroken?: (err: StorageResetError) => void;
  /** Runs right before the connection closes (PITR makes its log durable first). */
  beforeClose?: () => void;
  /**
   * Says a failure that broke the session before its transaction committed as the write the file
   * system refused (`StorageWriteError`, naming the path), when it is one; undefined: a reset.
   */
  writeFailure?: (cause: unknown) => StorageResetError | undefined;
}

/** The connection of one object instance plus its implicit transaction. */
export class StorageSession {
  readonly db: Database.Database;
  readonly backend: Backend;
  readonly #hooks: SessionHooks;
  /** Prepared at the first write: a session that only reads (a plan's) never compiles them. */
  #begin: Database.Statement | null = null;
  #commit: Database.Statement | null = null;
  readonly #rollbackListeners: Array<() => void> = [];
  readonly #savepointStmts = new Map<string, Database.Statement>();
  #inTxn = false;
  #depth = 0;
  #batch: Batch | null = null;
  #commitScheduled = false;
  #broken: StorageResetError | null = null;
  #closed = false;
  readonly #commitOnTurnEnd = (): void => {
    this.#commitScheduled = false;
    this.commitNow();
  };

  /**
   * A read-only session (`read-only.ts`) issues no BEGIN or COMMIT of its own: its connection
   * holds one read transaction for the whole session, or reads an in-memory copy nobody else
   * changes. Savepoints still work, and SQLite refuses any write (SQLITE_READONLY).
   */
  readonly #readOnly: boolean;

  /**
   * Set for a writer's object opened for reading because it may not write its files
   * (`ObjectNamespaceOptions.readsWhenNotWritable`): the error of a write, asked at each one (a
   * `StorageResetError` once the files are writable again: the session breaks, the object reopens).
   */
  readonly #refuseWrites: (() => Error) | undefined;

  constructor(db: Database.Database, backend: Backend, hooks: SessionHooks = {}, readOnly = false, refuseWrites?: () => Error) {
    this.db = db;
    this.backend = backend;
    this.#hooks = hooks;
    this.#readOnly = readOnly;
    this.#refuseWrites = refuseWrites;
  }

  /** True for a read-only session: nothing it reads can change while it is open (see `#readOnly`). */
  get readOnly(): boolean {
    return this.#readOnly;
  }

  /** The error every call gets once the session broke, or null. */
  get broken(): StorageResetError | null {
    return this.#broken;
  }

  /** True once closed (after a reset or namespace close). */
  get closed(): boolean {
    return this.#closed;
  }

  /** Savepoint depth of explicit transactions (0 outside `transaction()`/`transactionSync()`). */
  get depth(): number {
    return this.#depth;
  }

  /** Throws the reset error when the session broke or closed; every storage call starts here. */
  requireUsable(): void {
    if (this.#broken) throw this.#broken;
    if (this.#closed) throw sessionClosedError();
  }

  /** Counts `write()` calls, so a caller can tell that nothing else wrote since it last looked. */
  writeSeq = 0;

  /** Opens the implicit transaction if needed and records a write in the current batch. */
  write(confirmed: boolean): void {
    this.writeSeq++;
    this.ensureTxn();
    const batch = (this.#batch ??= newBatch());
    if (confirmed) batch.confirmed = true;
  }

  /** Opens the implicit transaction (first write or savepoint of the turn) and schedules its commit. */
  ensureTxn(): void {
    this.requireUsable();
    if (this.#refuseWrites !== undefined) {
      const refused = this.#refuseWrites();
      if (refused instanceof StorageResetError) this.fail(refused, 'its files are writable again', refused);
      throw refused;
    }
    if (!this.#inTxn) {
      this.#hooks.beforeBegin?.();
      if (!this.#readOnly) (this.#begin ??= this.db.prepare('BEGIN')).run();
      this.#inTxn = true;
      this.#batch ??= newBatch();
    }
    if (!this.#commitScheduled) {
      this.#commitScheduled = true;
      setImmediate(this.#commitOnTurnEnd);
    }
  }

  /** Commits the implicit transaction now, unless an explicit transaction is still open. */
  commitNow(): void {
    if (!this.#inTxn || this.#depth > 0 || this.#closed) return;
    const batch = this.#batch;
    try {
      if (!this.#readOnly) (this.#commit ??= this.db.prepare('COMMIT')).run();
    } catch (err) {
      this.fail(err, 'a write could not be committed', this.#hooks.writeFailure?.(err));
      return;
    }
    this.#inTxn = false;
    this.#batch = null;
    try {
      this.#hooks.afterCommit?.();
    } catch (err) {
      // The batch is durable, but bookkeeping after it (alarm timer, index) failed: reset the object.
      this.fail(err, 'bookkeeping after a commit failed');
    }
    batch?.resolve();
  }

  /** Resolves when every write issued so far is durable (confirmed or not); rejects if it fails. */
  sync(): Promise<void> {
    if (this.#broken) return Promise.reject(this.#broken);
    return this.#batch ? this.#batch.promise : Promise.resolve();
  }

  /** Open `transaction()` closures: their writes become durable when the outermost one returns. */
  asyncTransactions = 0;

  /**
   * `storage.sync()`: as `sync()`, but inside a `transaction()` closure it resolves at once, as in
   * the reference: the writes before the transaction committed when it began, and the
   * transaction's own become durable before `transaction()` resolves (waiting for them here would
   * wait for the closure that is waiting: a deadlock).
   */
  syncFromApi(): Promise<void> {
    if (this.asyncTransactions > 0) return this.#broken ? Promise.reject(this.#broken) : Promise.resolve();
    return this.sync();
  }

  /** The output gate: a promise while confirmed writes are pending, else null. */
  outputGate(): Promise<void> | null {
    if (this.#broken) return Promise.reject(this.#broken);
    return this.#batch?.confirmed ? this.#batch.promise : null;
  }

  /** Opens a savepoint (explicit transaction level) and returns its depth. */
  openSavepoint(prefix: string): number {
    this.ensureTxn();
    const level = this.#depth;
    this.#savepoint(`SAVEPOINT ${prefix}${level}`).run();
    this.#depth++;
    return level;
  }

  /** Commits a savepoint into its parent. */
  releaseSavepoint(prefix: string, level: number): void {
    this.#runSavepoint(`RELEASE ${prefix}${level}`);
    this.#depth = level;
  }

  /** Undoes a savepoint's work; with `release`, also closes it. */
  rollbackSavepoint(prefix: string, level: number, release: boolean): void {
    this.#runSavepoint(`ROLLBACK TO ${prefix}${level}`);
    if (release) {
      this.#runSavepoint(`RELEASE ${prefix}${level}`);
      this.#depth = level;
    }
    this.notifyRollback();
  }

  /** Registers a callback run after any rollback (caches of table contents must be dropped). */
  onRollback(listener: () => void): void {
    this.#rollbackListeners.push(listener);
  }

  /** Tells caches that data they mirror may have been rolled back. */
  notifyRollback(): void {
    for (const listener of this.#rollbackListeners) listener();
  }

  /**
   * Checks a failed statement: after a critical error, or when SQLite itself rolled our transaction
   * back (`INSERT OR ROLLBACK`, disk full), the session breaks and the reset error is thrown instead.
   */
  checkStatementError(err: unknown): void {
    if (isCriticalError(err) || (this.#inTxn && !this.#readOnly && !this.db.inTransaction)) {
      this.fail(err, 'a critical SQLite error rolled the transaction back', this.#hooks.writeFailure?.(err));
      throw this.#broken;
    }
  }

  /**
   * Breaks the session: roll back, fail the waiting batch, tell the host. `as`: the error to say
   * (a write the file system refused); by default the reset error of `cause` and `why`.
   */
  fail(cause: unknown, why: string, as?: StorageResetError): void {
    if (this.#broken) return;
    this.#broken = as ?? sessionResetError(cause, why);
    this.#discard();
    this.#batch?.reject(this.#broken);
    this.#batch = null;
    this.#hooks.onBroken?.(this.#broken);
  }

  /** Discards pending writes with `err` as the reason (ctx.abort) and closes the connection. */
  abort(err: StorageResetError): void {
    if (!this.#broken) this.#broken = err;
    this.#discard();
    this.#batch?.reject(err);
    this.#batch = null;
    this.#close();
  }

  /** Commits pending writes (rolling back an unfinished explicit transaction) and closes. */
  close(): void {
    if (this.#closed) return;
    if (!this.#broken) {
      if (this.#depth > 0) {
        this.rollbackSavepoint('', 0, false);
        this.#depth = 0;
      }
      this.commitNow();
    }
    this.#close();
  }

  #discard(): void {
    try {
      if (this.db.open && this.db.inTransaction) this.db.prepare('ROLLBACK').run();
    } catch {
      // The connection is being abandoned; SQLite rolls back on close anyway.
    }
    this.#inTxn = false;
    this.#depth = 0;
    this.notifyRollback();
  }

  #close(): void {
    if (this.#closed) return;
    this.#closed = true;
    try {
      if (this.db.open) parkCursors(this.db);
      this.#hooks.beforeClose?.();
    } finally {
      if (this.db.open) this.db.close();
    }
  }

  #savepoint(sql: string): Database.Statement {
    let stmt = this.#savepointStmts.get(sql);
    if (!stmt) {
      stmt = this.db.prepare(sql);
      this.#savepointStmts.set(sql, stmt);
    }
    return stmt;
  }

  #runSavepoint(sql: string): void {
    try {
      this.#savepoint(sql).run();
    } catch (err) {
      this.fail(err, 'a transaction savepoint was lost', this.#hooks.writeFailure?.(err));
      throw this.#broken;
    }
  }
}
