/**
 * `ctx`, the first argument of an object's constructor: its `id`, its `storage`,
 * `blockConcurrencyWhile(fn)` and `abort(reason?)`. Aborting resets the object: pending writes are
 * discarded, in-flight callers get the error, and the next event constructs a fresh instance (the
 * restart at which a pending PITR restore takes effect).
 */
import { createHash } from 'node:crypto';
import { StorageResetError } from './errors.js';
import type { InputGate } from './gates.js';
import type { ObjectStorage } from './storage.js';

/** The identity of an object: its name in the namespace. */
export class ObjectId {
  /** The name given to `ns.get(name)`. */
  readonly name: string;
  readonly #hex: string;

  constructor(name: string) {
    this.name = name;
    this.#hex = createHash('sha256').update(name, 'utf8').digest('hex');
  }

  /** 64 lowercase hex digits derived from the name (also the object's file name). */
  toString(): string {
    return this.#hex;
  }

  /** True when both ids name the same object. */
  equals(other: ObjectId): boolean {
    return other instanceof ObjectId && other.#hex === this.#hex;
  }
}

/** What a host gives each `ctx` so it can reset the instance. */
export interface StateHooks {
  gate: InputGate;
  /** Resets the instance with `err` as the reason callers see. */
  reset(err: StorageResetError): void;
  /** Commits the writes of the current batch now (outside explicit transactions). */
  commitPending(): void;
}

/** The `ctx` passed to an object's constructor. */
export class ObjectState {
  /** This object's id. */
  readonly id: ObjectId;
  /** This object's storage. */
  readonly storage: ObjectStorage;
  readonly #hooks: StateHooks;

  /** @internal built by the namespace for each instance. */
  constructor(id: ObjectId, storage: ObjectStorage, hooks: StateHooks) {
    this.id = id;
    this.storage = storage;
    this.#hooks = hooks;
  }

  /**
   * Runs `fn` while no other event is delivered to this object, and resolves to its result. If
   * `fn` throws, the object is reset (the next event constructs a fresh instance), the writes `fn`
   * made are discarded, and the error is rethrown; the events waiting meanwhile fail with a reset
   * error of the same message, as in workerd. Writes made before the call commit first, as
   * in the reference (where the callback starts on a later turn), so a throwing `fn` cannot undo
   * them. Calls may nest to any depth.
   * @example
   * constructor(ctx, env) { ctx.blockConcurrencyWhile(async () => { this.n = (await ctx.storage.get('n')) ?? 0; }); }
   */
  async blockConcurrencyWhile<T>(fn: () => T | Promise<T>): Promise<T> {
    this.#hooks.commitPending();
    try {
      return await this.#hooks.gate.runBlocking(fn);
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      this.#hooks.reset(new StorageResetError(message, { cause: err }));
      throw err;
    }
  }

  /**
   * Resets the object: pending unconfirmed writes are discarded, in-flight callers get an error with
   * `reason` as message, and the next event constructs a fresh instance. Throws that error.
   */
  abort(reason?: string): never {
    const err = new StorageResetError(reason ?? 'Application called abort() to reset the object.');
    this.#hooks.reset(err);
    throw err;
  }
}
