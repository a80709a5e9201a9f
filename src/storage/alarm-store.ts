/**
 * Where an object's alarm lives: one row of `_zw_meta(key TEXT PRIMARY KEY, value) WITHOUT ROWID`
 * in the object's own database, created lazily by the first alarm write (as the reference's
 * `_cf_METADATA`). Being in the same database, an alarm write shares the implicit or explicit
 * transaction of the writes around it, is rolled back with them, and is restored by PITR. The
 * in-memory mirror is dropped on every rollback; `dirty` tells the host to re-arm its timer after
 * the next commit.
 */
import type Database from 'better-sqlite3';
import type { StorageSession } from './session.js';

/** Name of the hidden metadata table. */
export const META_TABLE = '_zw_meta';

const ALARM_KEY = 'alarm';

/** Reads and writes the persisted alarm time (integer ms since epoch) of one session. */
export class AlarmStore {
  readonly #session: StorageSession;
  readonly #db: Database.Database;
  #value: number | null | undefined;
  #dirty = false;
  readonly #beforeSet: (time: number) => void;

  /** `beforeSet` runs before a new time is written (the namespace lowers its alarm index). */
  constructor(session: StorageSession, beforeSet: (time: number) => void = () => undefined) {
    this.#session = session;
    this.#beforeSet = beforeSet;
    this.#db = session.db;
    session.onRollback(() => {
      this.#value = undefined;
      this.#dirty = true;
    });
  }

  /** The stored alarm time, or null; includes writes not yet committed. */
  get(): number | null {
    if (this.#value === undefined) this.#value = this.#read();
    return this.#value;
  }

  /** Stores (or with null, deletes) the alarm in the current transaction. */
  set(time: number | null, confirmed: boolean): void {
    if (this.get() === time) return;
    this.#session.write(confirmed);
    if (time === null) {
      if (this.#tableExists()) this.#db.prepare(`DELETE FROM ${META_TABLE} WHERE key = ?`).run(ALARM_KEY);
    } else {
      this.#beforeSet(time);
      this.#db.prepare(`CREATE TABLE IF NOT EXISTS ${META_TABLE} (key TEXT PRIMARY KEY, value) WITHOUT ROWID`).run();
      this.#db.prepare(`INSERT OR REPLACE INTO ${META_TABLE} (key, value) VALUES (?, ?)`).run(ALARM_KEY, time);
    }
    this.#value = time;
    this.#dirty = true;
  }

  /** True (once) when the alarm may have changed since the last call: re-arm the timer. */
  takeDirty(): boolean {
    const dirty = this.#dirty;
    this.#dirty = false;
    return dirty;
  }

  #tableExists(): boolean {
    return this.#db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '${META_TABLE}'`).get() !== undefined;
  }

  #read(): number | null {
    if (!this.#tableExists()) return null;
    const value = this.#db.prepare(`SELECT value FROM ${META_TABLE} WHERE key = ?`).pluck().get(ALARM_KEY);
    return typeof value === 'number' ? value : null;
  }
}
