/**
 * The zone registry: one stateful object (its own namespace, SQLite backend) holding the zones
 * table, name <-> id, plan tier, creation time and account, and the accounts table (id, name, plan).
 * Zone names are unique (stored lowercase); so are account names. A registry written before
 * accounts gains the `account_id` column (empty: the default account) at its next start. The
 * engine keeps an in-memory copy, loaded at open and updated on every change, so request dispatch
 * never waits on the registry.
 */
import type { Sql } from '../sql.js';
import type { AccountInfo, PlanTier, ZoneInfo } from '../types.js';
import { DefaultAccount } from './accounts.js';

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
  /** Every account, the default one first. */
  accounts(): AccountInfo[];
  /** Adds an account; false when its name or id is taken. */
  addAccount(account: AccountInfo): boolean;
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
    const sql = state.storage.sql;
    const columns = sql.exec<{ name: string }>('PRAGMA table_info(zones)').toArray();
    if (!columns.some((c) => c.name === 'account_id')) sql.exec(`ALTER TABLE zones ADD COLUMN account_id TEXT NOT NULL DEFAULT ''`);
    sql.exec(`CREATE TABLE IF NOT EXISTS accounts (
      id TEXT PRIMARY KEY,
      name TEXT NOT NULL UNIQUE,
      plan TEXT NOT NULL,
      created_on TEXT NOT NULL
    )`);
  }

  list(): ZoneInfo[] {
    return this.#state.storage.sql
      .exec<{ id: string; name: string; plan: string; created_on: string; account_id: string }>('SELECT id, name, plan, created_on, account_id FROM zones ORDER BY created_on, name')
      .toArray()
      .map((r) => {
        const zone: ZoneInfo = { id: r.id, name: r.name, plan: r.plan as PlanTier, status: 'active', created_on: r.created_on };
        if (r.account_id !== '' && r.account_id !== DefaultAccount.id) zone.account_id = r.account_id;
        return zone;
      });
  }

  add(zone: ZoneInfo): boolean {
    return this.#state.storage.transactionSync(() => {
      const taken = this.#state.storage.sql.exec('SELECT id FROM zones WHERE name = ? OR id = ?', zone.name, zone.id).toArray();
      if (taken.length > 0) return false;
      this.#state.storage.sql.exec('INSERT INTO zones (id, name, plan, created_on, account_id) VALUES (?, ?, ?, ?, ?)', zone.id, zone.name, zone.plan, zone.created_on, zone.account_id ?? '');
      return true;
    });
  }

  accounts(): AccountInfo[] {
    const rows = this.#state.storage.sql
      .exec<{ id: string; name: string; plan: string; created_on: string }>('SELECT id, name, plan, created_on FROM accounts ORDER BY created_on, name')
      .toArray()
      .map((r) => ({ id: r.id, name: r.name, plan: r.plan as PlanTier, created_on: r.created_on }));
    // The default account exists in every engine (zones made before accounts belong to it).
    return rows.some((a) => a.id === DefaultAccount.id) ? rows : [{ ...DefaultAccount }, ...rows];
  }

  addAccount(account: AccountInfo): boolean {
    return this.#state.storage.transactionSync(() => {
      if (account.id === DefaultAccount.id || account.name === DefaultAccount.name) return false;
      const taken = this.#state.storage.sql.exec('SELECT id FROM accounts WHERE name = ? OR id = ?', account.name, account.id).toArray();
      if (taken.length > 0) return false;
      this.#state.storage.sql.exec('INSERT INTO accounts (id, name, plan, created_on) VALUES (?, ?, ?, ?)', account.id, account.name, account.plan, account.created_on);
      return true;
    });
  }

  remove(id: string): boolean {
    return this.#state.storage.sql.exec('DELETE FROM zones WHERE id = ?', id).rowsWritten > 0;
  }
}
