/**
 * The zones of an engine, over its registry object and its zone objects, for both runtimes: the
 * built-in host (one process, so its copy of the registry is always right) and the Worker on
 * workerd (`shared`: other isolates may create or delete zones, so a miss or a list asks the
 * registry again). Creating a zone initialises its object first and registers it second, undoing
 * the first when the name was taken meanwhile.
 */
import { ListErrors } from '../../api/index.js';
import { ApiError } from '../api-errors.js';
import type { ZoneCreateOptions } from '../context.js';
import type { ZoneDirectory } from '../engine-route.js';
import { isId, newId, timestamp } from '../ids.js';
import type { MaybePromise } from '../maybe-promise.js';
import type { AccountInfo, PlanTier, ZoneInfo } from '../types.js';
import { DefaultAccount, normalizeAccountName } from './accounts.js';
import { normalizeZoneName } from './names.js';

/** The registry object's methods as a directory calls them (through a stub or an RPC). */
export interface RegistryPort {
  list(): MaybePromise<ZoneInfo[]>;
  add(zone: ZoneInfo): MaybePromise<boolean>;
  remove(id: string): MaybePromise<boolean>;
  accounts(): MaybePromise<AccountInfo[]>;
  addAccount(account: AccountInfo): MaybePromise<boolean>;
}

/** The zone object's lifecycle methods as a directory calls them. */
export interface ZoneObjectPort {
  init(zone: ZoneInfo, options: ZoneCreateOptions): MaybePromise<void>;
  destroy(): Promise<void>;
}

/** A `ZoneDirectory` over a registry and the zone objects. */
export class RegistryDirectory implements ZoneDirectory {
  readonly #registry: RegistryPort;
  readonly #zoneObject: (id: string) => ZoneObjectPort;
  readonly #shared: boolean;
  #zones = new Map<string, ZoneInfo>();
  #accounts = new Map<string, AccountInfo>([[DefaultAccount.id, { ...DefaultAccount }]]);

  private constructor(registry: RegistryPort, zoneObject: (id: string) => ZoneObjectPort, shared: boolean) {
    this.#registry = registry;
    this.#zoneObject = zoneObject;
    this.#shared = shared;
  }

  /** A directory with the registry's zones loaded. `shared`: other processes write the registry too. */
  static async load(registry: RegistryPort, zoneObject: (id: string) => ZoneObjectPort, options: { shared: boolean }): Promise<RegistryDirectory> {
    const directory = new RegistryDirectory(registry, zoneObject, options.shared);
    await directory.#refresh();
    return directory;
  }

  /** A shared directory that loads the registry at its first use (the Worker builds it per isolate). */
  static lazy(registry: RegistryPort, zoneObject: (id: string) => ZoneObjectPort): RegistryDirectory {
    return new RegistryDirectory(registry, zoneObject, true);
  }

  async #refresh(): Promise<void> {
    this.#zones = new Map((await this.#registry.list()).map((z) => [z.id, z]));
    this.#accounts = new Map((await this.#registry.accounts()).map((a) => [a.id, a]));
  }

  /** An account by id or name from the loaded copy, without asking the registry. */
  knownAccount(nameOrId: string): AccountInfo | undefined {
    const key = nameOrId.trim();
    return this.#accounts.get(key.toLowerCase()) ?? [...this.#accounts.values()].find((a) => a.name === key);
  }

  /** An account by id or name (asks the registry again on a miss when shared). */
  async getAccount(nameOrId: string): Promise<AccountInfo | undefined> {
    const found = this.knownAccount(nameOrId);
    if (found !== undefined || !this.#shared) return found;
    await this.#refresh();
    return this.knownAccount(nameOrId);
  }

  /** An account by id, synchronous when the loaded copy answers (every list call asks). */
  accountById(id: string): MaybePromise<AccountInfo | undefined> {
    const account = this.#accounts.get(id);
    if (account !== undefined || !this.#shared) return account;
    return this.#refresh().then(() => this.#accounts.get(id));
  }

  /** Every account, the default one first. */
  async listAccounts(): Promise<AccountInfo[]> {
    if (this.#shared) await this.#refresh();
    return [...this.#accounts.values()];
  }

  /** Creates an account (default plan: enterprise); refuses a taken name or id. */
  async createAccount(name: string, options: { plan?: PlanTier; id?: string; /** Imports of an account keep its creation time. */ createdOn?: string } = {}): Promise<AccountInfo> {
    if (options.id !== undefined && !isId(options.id)) throw ApiError.from(ListErrors.accountExists, `an account id must be 32 lowercase hex characters, got ${JSON.stringify(options.id)}`, { pointer: '/id' });
    let normalized: string;
    try {
      normalized = normalizeAccountName(name);
    } catch (err) {
      throw ApiError.of('invalidField', (err as Error).message, { pointer: '/name' });
    }
    const account: AccountInfo = { id: options.id ?? newId(), name: normalized, plan: options.plan ?? 'enterprise', created_on: options.createdOn ?? timestamp() };
    if ((await this.getAccount(account.name)) !== undefined || (await this.getAccount(account.id)) !== undefined || !(await this.#registry.addAccount(account))) {
      throw ApiError.from(ListErrors.accountExists, `account ${account.name} already exists; choose another name or use the existing account`, { pointer: '/name' });
    }
    this.#accounts.set(account.id, account);
    return account;
  }

  /** The zones of an account. */
  async zonesOf(accountId: string): Promise<ZoneInfo[]> {
    return (await this.listZones()).filter((z) => (z.account_id ?? DefaultAccount.id) === accountId);
  }

  /** A zone by id or name from the loaded copy, without asking the registry. */
  known(nameOrId: string): ZoneInfo | undefined {
    const key = nameOrId.trim().toLowerCase();
    if (isId(key) && this.#zones.has(key)) return this.#zones.get(key);
    return [...this.#zones.values()].find((z) => z.name === key);
  }

  /**
   * A zone by id (asks the registry again on a miss when shared). Synchronous when the loaded copy
   * answers: every request to a zone asks, and an await would cost it a turn of the microtask queue.
   */
  zoneById(id: string): MaybePromise<ZoneInfo | undefined> {
    const zone = this.#zones.get(id);
    if (zone !== undefined || !this.#shared) return zone;
    return this.#refresh().then(() => this.#zones.get(id));
  }

  async listZones(): Promise<ZoneInfo[]> {
    if (this.#shared) await this.#refresh();
    return [...this.#zones.values()];
  }

  async getZone(nameOrId: string): Promise<ZoneInfo | undefined> {
    const found = this.known(nameOrId);
    if (found !== undefined || !this.#shared) return found;
    await this.#refresh();
    return this.known(nameOrId);
  }

  async createZone(name: string, options: { plan?: PlanTier; waf?: 'previous' | 'new'; id?: string; account?: string } = {}): Promise<ZoneInfo> {
    if (options.id !== undefined && !isId(options.id)) throw new TypeError(`zone id must be 32 lowercase hex characters, got ${JSON.stringify(options.id)}`);
    const zone: ZoneInfo = { id: options.id ?? newId(), name: normalizeZoneName(name), plan: options.plan ?? 'enterprise', status: 'active', created_on: timestamp() };
    if (options.account !== undefined) {
      const account = await this.getAccount(options.account);
      if (account === undefined) throw ApiError.from(ListErrors.accountNotFound, `account ${options.account} not found; create it first (zonewall engine account create NAME)`, { pointer: '/account/id' });
      if (account.id !== DefaultAccount.id) zone.account_id = account.id;
    }
    if ((await this.getZone(zone.name)) !== undefined) throw zoneExists(zone.name);
    // Checked before `adopt` initialises the object of that id: an existing zone's object is never touched.
    if (options.id !== undefined && (await this.getZone(zone.id)) !== undefined) throw ApiError.of('zoneExists', `a zone with id ${zone.id} already exists`);
    return this.adopt(zone, options.waf !== undefined ? { waf: options.waf } : {});
  }

  /** Creates `zone` as given (id and creation time included): zone creation, and imports of zones from another engine. */
  async adopt(zone: ZoneInfo, options: ZoneCreateOptions): Promise<ZoneInfo> {
    const object = this.#zoneObject(zone.id);
    await object.init(zone, options);
    if (!(await this.#registry.add(zone))) {
      await object.destroy();
      throw zoneExists(zone.name);
    }
    this.#zones.set(zone.id, zone);
    return zone;
  }

  async deleteZone(nameOrId: string): Promise<boolean> {
    const zone = await this.getZone(nameOrId);
    if (zone === undefined) return false;
    await this.#registry.remove(zone.id);
    this.#zones.delete(zone.id);
    await this.#zoneObject(zone.id).destroy();
    return true;
  }
}

function zoneExists(name: string): ApiError {
  return ApiError.of('zoneExists', `zone ${name} already exists; choose another name or use the existing zone`, { pointer: '/name' });
}
