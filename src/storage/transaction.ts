/**
 * Explicit transactions (after workerd `api/actor-state.c++` and `io/actor-sqlite.c++`).
 * `transaction(closure)` commits any pending implicit writes on their own, then runs the closure
 * inside `blockConcurrencyWhile` in a savepoint: resolving releases it and makes it durable before
 * `transaction()` resolves; throwing rolls it back and rethrows the same value; `txn.rollback()`
 * undoes it at once and makes every later `txn` call fail. Nested calls nest savepoints (an outer
 * rollback also undoes committed inner work). Every storage call made inside the closure belongs to
 * the transaction, whether made on `txn` or on `ctx.storage`; `txn` is a checked forwarder.
 * `transactionSync(fn)` is the synchronous savepoint form: it joins the implicit transaction.
 *
 * Decision: the `kv` backend uses the same savepoint model. The reference's legacy KV backend
 * buffered `txn` writes and left direct `ctx.storage` calls outside the transaction; here they are
 * inside it on both backends, which is strictly more atomic and keeps one code path.
 */
import { TransactionError } from './errors.js';
import type { InputGate } from './gates.js';
import type { GetAlarmOptions, GetOptions, ListOptions, PutOptions, SetAlarmOptions } from './list-options.js';
import type { StorageSession } from './session.js';

const EXPLICIT = '_zw_txn_';
const SYNC = '_zw_sync_';

type TxnState = 'open' | 'rolled back' | 'committed';

/**
 * The storage calls a `txn` forwards: `ObjectStorage`'s (`storage.ts`), which builds transactions
 * through this file, so they are named here rather than imported from there.
 */
export interface TransactionTarget {
  get(...args: unknown[]): Promise<unknown>;
  put(...args: unknown[]): Promise<void>;
  delete(...args: unknown[]): Promise<boolean | number>;
  list<T = unknown>(options?: ListOptions): Promise<Map<string, T>>;
  getAlarm(options?: GetAlarmOptions): Promise<number | null>;
  setAlarm(scheduledTime: number | Date, options?: SetAlarmOptions): Promise<void>;
  deleteAlarm(options?: SetAlarmOptions): Promise<void>;
}

/** The `txn` handed to a `transaction()` closure. */
export class ObjectTransaction {
  readonly #storage: TransactionTarget;
  readonly #rollback: () => void;
  #state: TxnState = 'open';

  /** @internal built by `transaction()`. */
  constructor(storage: TransactionTarget, rollback: () => void) {
    this.#storage = storage;
    this.#rollback = rollback;
  }

  /** As `storage.get`, inside the transaction. */
  get<T = unknown>(key: string, options?: GetOptions): Promise<T | undefined>;
  get<T = unknown>(keys: string[], options?: GetOptions): Promise<Map<string, T>>;
  get(...args: unknown[]): Promise<unknown> {
    return this.#forward('get()', () => (this.#storage.get as (...a: unknown[]) => Promise<unknown>)(...args));
  }

  /** As `storage.put`, inside the transaction. */
  put<T>(key: string, value: T, options?: PutOptions): Promise<void>;
  put<T>(entries: Record<string, T>, options?: PutOptions): Promise<void>;
  put(...args: unknown[]): Promise<void> {
    return this.#forward('put()', () => (this.#storage.put as (...a: unknown[]) => Promise<void>)(...args));
  }

  /** As `storage.delete`, inside the transaction. */
  delete(key: string, options?: PutOptions): Promise<boolean>;
  delete(keys: string[], options?: PutOptions): Promise<number>;
  delete(...args: unknown[]): Promise<boolean | number> {
    return this.#forward('delete()', () => (this.#storage.delete as (...a: unknown[]) => Promise<boolean | number>)(...args));
  }

  /** As `storage.list`, inside the transaction. */
  list<T = unknown>(options?: ListOptions): Promise<Map<string, T>> {
    return this.#forward('list()', () => this.#storage.list<T>(options));
  }

  /** As `storage.getAlarm`, inside the transaction. */
  getAlarm(options?: GetAlarmOptions): Promise<number | null> {
    return this.#forward('getAlarm()', () => this.#storage.getAlarm(options));
  }

  /** As `storage.setAlarm`, inside the transaction. */
  setAlarm(scheduledTime: number | Date, options?: SetAlarmOptions): Promise<void> {
    return this.#forward('setAlarm()', () => this.#storage.setAlarm(scheduledTime, options));
  }

  /** As `storage.deleteAlarm`, inside the transaction. */
  deleteAlarm(options?: SetAlarmOptions): Promise<void> {
    return this.#forward('deleteAlarm()', () => this.#storage.deleteAlarm(options));
  }

  /**
   * Always rejects, as in the reference runtime: `deleteAll()` resets the whole database, which
   * cannot be part of a transaction (code ported from the reference calls it and expects this).
   */
  deleteAll(_options?: PutOptions): Promise<never> {
    return Promise.reject(new TransactionError('Cannot call deleteAll() within a transaction'));
  }

  /** Undoes the transaction now; later calls on `txn` fail. Calling it again does nothing. */
  rollback(): void {
    if (this.#state === 'committed') {
      throw new TransactionError(
        'Cannot call rollback() on transaction that has already committed: did you move `txn` outside of the closure?',
      );
    }
    if (this.#state === 'rolled back') return;
    this.#rollback();
    this.#state = 'rolled back';
  }

  /** @internal the closure settled. */
  finish(): void {
    if (this.#state === 'open') this.#state = 'committed';
  }

  #forward<T>(op: string, call: () => Promise<T>): Promise<T> {
    if (this.#state === 'rolled back') {
      return Promise.reject(new TransactionError(`Cannot ${op} on rolled back transaction`));
    }
    if (this.#state === 'committed') {
      return Promise.reject(new TransactionError(
        `Cannot call ${op} on transaction that has already committed: did you move \`txn\` outside of the closure?`,
      ));
    }
    return call();
  }
}

/** `storage.transaction(closure)`. */
export async function runTransaction<T>(
  storage: TransactionTarget,
  session: StorageSession,
  gate: InputGate,
  closure: (txn: ObjectTransaction) => T | Promise<T>,
): Promise<T> {
  session.requireUsable();
  // Writes made before the call commit on their own, as in the reference.
  if (session.depth === 0) session.commitNow();
  return gate.runBlocking(async () => {
    const level = session.openSavepoint(EXPLICIT);
    session.asyncTransactions++;
    try {
      return await runClosure(storage, session, level, closure);
    } finally {
      session.asyncTransactions--;
    }
  });
}

/** The closure of `transaction()` inside its savepoint at `level`: commit, roll back or rethrow. */
async function runClosure<T>(
  storage: TransactionTarget,
  session: StorageSession,
  level: number,
  closure: (txn: ObjectTransaction) => T | Promise<T>,
): Promise<T> {
  let rolledBack = false;
  const txn = new ObjectTransaction(storage, () => {
    if (session.depth > level + 1) {
      throw new TransactionError('Cannot roll back an outer transaction while a nested transaction is still running.');
    }
    session.rollbackSavepoint(EXPLICIT, level, false);
    rolledBack = true;
  });
  let result: T;
  try {
    result = await closure(txn);
  } catch (err) {
    txn.finish();
    if (!session.broken && !session.closed) session.rollbackSavepoint(EXPLICIT, level, true);
    throw err;
  }
  txn.finish();
  session.requireUsable();
  // After txn.rollback(), writes made directly on ctx.storage are discarded too: nothing commits.
  if (rolledBack) session.rollbackSavepoint(EXPLICIT, level, true);
  else session.releaseSavepoint(EXPLICIT, level);
  if (level === 0) {
    session.commitNow();
    await session.sync();
  }
  return result;
}

/** `storage.transactionSync(fn)`. */
export function runTransactionSync<T>(session: StorageSession, fn: () => T): T {
  session.requireUsable();
  const level = session.openSavepoint(SYNC);
  let result: T;
  try {
    result = fn();
  } catch (err) {
    if (!session.broken && !session.closed) session.rollbackSavepoint(SYNC, level, true);
    throw err;
  }
  session.releaseSavepoint(SYNC, level);
  return result;
}
