/**
 * The zone registry: one stateful object (its own namespace, SQLite backend) holding the zones
 * table, name <-> id, plan tier and creation time. Zone names are unique (stored lowercase). The
 * engine keeps an in-memory copy, loaded at open and updated on every change, so request dispatch
 * never waits on the registry.
 */
import type { Sql } from '../sql.js';
import type { PlanTier, ZoneInfo } from '../types.js';

/** The slice of the storage object state the registry uses. */
export interface RegistryState {
  storage: { sql: Sql; transactionSync<T>(fn: () => T): T };
}

/** The registry's methods, as the engine calls them through a stub. */
export interface RegistryApi {
  list(): ZoneInfo[];
  /** Adds a zone; false when the name is taken. */
  add(zone: ZoneInfo): boolean;
  /** Removes a zone by id; false when unknown. */
  remove(id: string): boolean;
}

/** The registry object class. */
export class RegistryObject implements RegistryApi {
  readonly #state: RegistryState;

  constructor(state: RegistryState, _env: unknown) {
    this.#state = state;
    state.storage.sql.exec(`CREATE TABLE IF NOT EXISTS zones (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      plan TEXT NOT NULL,
      created_on TEXT NOT NULL
    )`);
  }

  list(): ZoneInfo[] {
    return this.#state.storage.sql
      .exec<{ id: string; name: string; plan: string; created_on: string }>('SELECT id, name, plan, created_on FROM zones ORDER BY created_on, name')
      .toArray()
      .map((r) => ({ id: r.id, name: r.name, plan: r.plan as PlanTier, status: 'active', created_on: r.created_on }));
  }

  add(zone: ZoneInfo): boolean {
    return this.#state.storage.transactionSync(() => {
      const taken = this.#state.storage.sql.exec('SELECT id FROM zones WHERE name = ? OR id = ?', zone.name, zone.id).toArray();
      if (taken.length > 0) return false;
      this.#state.storage.sql.exec('INSERT INTO zones (id, name, plan, created_on) VALUES (?, ?, ?, ?)', zone.id, zone.name, zone.plan, zone.created_on);
      return true;
    });
  }

  remove(id: string): boolean {
    return this.#state.storage.sql.exec('DELETE FROM zones WHERE id = ?', id).rowsWritten > 0;
  }
}
