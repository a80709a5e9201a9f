/**
 * The embedded engine: the service of seed 000 running in-process and persistently. Each zone is
 * one stateful object (seed 001, SQLite backend) in the `zones/` namespace of the state directory;
 * a registry object in `registry/` maps names to ids and plan tiers. `dispatch` serves one v4 API
 * call: it matches the route (404 / 405 in the real envelope), resolves the zone, checks the
 * caller's zone scope and runs the call inside the zone's object, one storage transaction per call.
 * One process at a time may open a state directory for writing (`state-lock.ts`); a read-only
 * engine (a plan) takes no lock file and writes nothing (`EngineOptions.readOnly`).
 *
 * @example
 * const engine = await Engine.open({ dir: '.zonewall' });
 * const zone = await engine.createZone('example.com', { plan: 'pro' });
 * const res = await engine.dispatch({ method: 'GET', path: `/zones/${zone.id}/filters` });
 * await engine.close();
 */
import { StorageResetError, StorageWriteError, type ObjectNamespace } from '../storage/index.js';
import { ApiError } from './api-errors.js';
import { copyAnswer } from './copy-answer.js';
import { accessFailureOf, errorResponse } from './envelope.js';
import { V4Dispatcher, type ZoneDirectory } from './dispatch.js';
import type { EngineOptions } from './engine-options.js';
import { openEngineState, type EngineState } from './engine-state.js';
import type { PlanLimitsConfig } from './limits.js';
import { LiveZones } from './live-zones.js';
import type { ApiRequest, ApiResponse, PlanTier, ZoneInfo } from './types.js';
import type { ZoneObjectApi } from './zone-object.js';
import type { ZoneDump } from './zone-dump.js';
import { accountIdOf } from './zones/accounts.js';
import type { RegistryDirectory } from './zones/directory.js';
import type { RegistryApi } from './zones/registry.js';
import type { AccountObjectApi } from './account-object.js';
import type { AccountInfo } from './types.js';

export type { EngineOptions } from './engine-options.js';

/** The embedded engine. */
export class Engine implements ZoneDirectory {
  readonly planLimits: PlanLimitsConfig;
  /** Real API shapes only (see `EngineOptions.strict`). */
  readonly strict: boolean;
  /** Opened with `readOnly` (see `EngineOptions.readOnly`). */
  readonly readOnly: boolean;
  readonly #zonesNs: ObjectNamespace<ZoneObjectApi>;
  readonly #registryNs: ObjectNamespace<RegistryApi>;
  readonly #accountsNs: ObjectNamespace<AccountObjectApi>;
  readonly #directory: RegistryDirectory;
  readonly #front: V4Dispatcher;
  readonly #unlock: () => void;
  readonly #logError: (message: string, err: unknown) => void;
  /** The zone objects' stubs, of which a few are kept live, the others hibernated (`live-zones.ts`). */
  readonly #liveZones: LiveZones;
  #closed = false;

  private constructor(state: EngineState) {
    const { zonesNs, accountsNs, directory, resources, logError, strict } = state;
    this.strict = strict;
    this.readOnly = state.readOnly;
    this.#unlock = state.unlock;
    this.#logError = logError;
    this.#zonesNs = zonesNs;
    this.#registryNs = state.registryNs;
    this.#accountsNs = accountsNs;
    this.#directory = directory;
    this.planLimits = state.planLimits;
    this.#liveZones = new LiveZones(zonesNs, state.readOnly);
    this.#front = new V4Dispatcher({
      resources, strict, directory: this, logError,
      zoneById: (id) => directory.zoneById(id),
      callZone: (call) => this.#liveZones.stub(call.zone.id).handle(call),
      accounts: {
        accountById: (id) => directory.accountById(id),
        callAccount: (call) => accountsNs.get(call.account.id).handle(call),
        catalog: (id, withItems) => accountsNs.get(id).catalog(withItems),
        zonesOf: (id) => directory.zonesOf(id),
        zoneReferences: (zone) => this.#liveZones.stub(zone.id).listReferences(zone),
      },
    });
  }

  /** Opens (creating if needed) the engine state in `options.dir`. */
  static async open(options: EngineOptions): Promise<Engine> {
    return new Engine(await openEngineState(options));
  }

  /**
   * One v4 API call, in-process. Never throws: failures are error envelopes. The answer is the
   * caller's own copy (the engine memoises read answers, see `zone-object.ts`), but for its frozen
   * parts (list pages), which it shares with the engine and nobody can change.
   */
  async dispatch(request: ApiRequest): Promise<ApiResponse> {
    const answer = await this.respond(request);
    // A state-directory file this process may not use: the in-process caller gets storage's
    // one-line error (`ERR_STATE_ACCESS`), not a 500 (the HTTP server answers the 500 and logs it).
    const denied = accessFailureOf(answer);
    if (denied !== undefined) throw denied;
    return copyAnswer(answer);
  }

  /**
   * @internal Like `dispatch`, but the answer may share objects with the engine's read memo: for
   * the HTTP server, which only serialises it. Never mutate the answer.
   */
  respond(request: ApiRequest): Promise<ApiResponse> {
    // Not async: the front's promise is the answer, without a turn of the microtask queue more.
    if (this.#closed) return Promise.resolve(errorResponse(closedError()));
    return this.#front.respond(request);
  }

  /**
   * Creates a zone (default plan: enterprise). Refuses a taken or malformed name. `id` chooses the
   * zone's id (32 lowercase hex; default: a new random one): a provider that planned a zone before
   * it existed creates it with the id its plan shows.
   */
  async createZone(name: string, options: { plan?: PlanTier; waf?: 'previous' | 'new'; id?: string; account?: string } = {}): Promise<ZoneInfo> {
    this.#requireWritable();
    return this.#directory.createZone(name, options);
  }

  /** Creates an account (default plan: enterprise); refuses a taken name or id. */
  async createAccount(name: string, options: { plan?: PlanTier; id?: string } = {}): Promise<AccountInfo> {
    this.#requireWritable();
    return this.#directory.createAccount(name, options);
  }

  /** Every account, the default one first. */
  async listAccounts(): Promise<AccountInfo[]> {
    this.#requireOpen();
    return this.#directory.listAccounts();
  }

  /** An account by id or name, or undefined. */
  async getAccount(nameOrId: string): Promise<AccountInfo | undefined> {
    this.#requireOpen();
    return this.#directory.getAccount(nameOrId);
  }

  /** PITR: a bookmark of the account's lists now. */
  async bookmarkAccount(accountId: string): Promise<string> {
    this.#requireWritable();
    return this.#accountsNs.get(this.#mustAccount(accountId).id).bookmark();
  }

  /** PITR: restores the account's lists to `bookmark`; takes effect before this resolves. */
  async restoreAccount(accountId: string, bookmark: string): Promise<void> {
    this.#requireWritable();
    const stub = this.#accountsNs.get(this.#mustAccount(accountId).id);
    try {
      await stub.restore(bookmark);
    } catch (err) {
      // The object resets itself to apply the restore; a write the state directory refused is no such reset.
      if (!(err instanceof StorageResetError) || err instanceof StorageWriteError) throw err;
    }
    await stub.ping();
  }

  #mustAccount(nameOrId: string): AccountInfo {
    this.#requireOpen();
    const account = this.#directory.knownAccount(nameOrId);
    if (account === undefined) throw ApiError.of('zoneNotFound', `account ${nameOrId} not found`);
    return account;
  }

  /** Every zone, in creation order. */
  async listZones(): Promise<ZoneInfo[]> {
    this.#requireOpen();
    return this.#directory.listZones();
  }

  /** A zone by id or name (case-insensitive), or undefined. */
  async getZone(nameOrId: string): Promise<ZoneInfo | undefined> {
    this.#requireOpen();
    return this.#directory.known(nameOrId);
  }

  /** Deletes a zone and all of its data; false when there is no such zone. */
  async deleteZone(nameOrId: string): Promise<boolean> {
    this.#requireWritable();
    return this.#directory.deleteZone(nameOrId);
  }

  /** Every row of a zone's tables, to move the zone to another runtime (`zone-dump.ts`). */
  async dumpZone(zoneId: string): Promise<ZoneDump> {
    return this.#liveZones.stub(this.#mustZone(zoneId).id).dump();
  }

  /** Every row of an account's tables (its lists, items and bulk operations), to move it to another runtime. */
  async dumpAccount(accountId: string): Promise<ZoneDump> {
    return this.#accountsNs.get(this.#mustAccount(accountId).id).dump();
  }

  /** Replaces a zone's rows with a dump's, in one transaction (a copy of a zone from another engine, `dumpZone`). */
  async loadZone(zoneId: string, dump: ZoneDump): Promise<void> {
    this.#requireWritable();
    return this.#liveZones.stub(this.#mustZone(zoneId).id).load(dump);
  }

  /**
   * A scratch engine (in memory, gone at its close) holding a copy of a zone, id and all, with its
   * account and the account's lists: what is written to it changes nothing here. Plan's pre-flight
   * runs apply's writes on it.
   */
  async copyZone(zoneId: string, listsFrom: Engine = this): Promise<Engine> {
    const zone = this.#mustZone(zoneId);
    const dump = await this.dumpZone(zone.id);
    // The zone's account comes along with its lists (`listsFrom`'s: a zone planned before it exists
    // lives in a scratch engine, its account in the state directory's): a rule's `$name` is checked against them.
    const account = await listsFrom.#directory.accountById(accountIdOf(zone));
    const lists = account === undefined ? undefined : await listsFrom.#accountsNs.get(account.id).dump();
    const copy = await Engine.open({ dir: `zonewall-copy-${zone.id}`, memory: true, limits: this.planLimits, strict: this.strict, logError: this.#logError });
    try {
      if (account !== undefined && (await copy.getAccount(account.id)) === undefined) await copy.createAccount(account.name, { plan: account.plan, id: account.id });
      await copy.createZone(zone.name, { plan: zone.plan, id: zone.id, ...(zone.account_id !== undefined ? { account: zone.account_id } : {}) });
      await copy.loadZone(zone.id, dump);
      if (account !== undefined && lists !== undefined) await copy.#accountsNs.get(account.id).load(lists);
      return copy;
    } catch (err) {
      await copy.close();
      throw err;
    }
  }

  /** PITR: a bookmark of the zone's storage now. */
  async bookmark(zoneId: string): Promise<string> {
    this.#requireWritable();
    return this.#liveZones.stub(this.#mustZone(zoneId).id).bookmark();
  }

  /** PITR: restores the zone's storage to `bookmark`; takes effect before this resolves. */
  async restore(zoneId: string, bookmark: string): Promise<void> {
    this.#requireWritable();
    const stub = this.#liveZones.stub(this.#mustZone(zoneId).id);
    try {
      await stub.restore(bookmark);
    } catch (err) {
      // The object aborts itself to apply the restore: that reset is the expected outcome (a write
      // the state directory refused, also a reset of the object, is not).
      if (!(err instanceof StorageResetError) || err instanceof StorageWriteError) throw err;
    }
    // The next event restarts the object on the restored storage.
    await stub.ping();
  }

  /** Closes every object and database; the engine refuses calls afterwards. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    try {
      await this.#zonesNs.close();
      await this.#registryNs.close();
      await this.#accountsNs.close();
    } finally {
      this.#unlock();
    }
  }

  #mustZone(nameOrId: string): ZoneInfo {
    this.#requireOpen();
    const zone = this.#directory.known(nameOrId);
    if (zone === undefined) throw ApiError.of('zoneNotFound', `zone ${nameOrId} not found`);
    return zone;
  }

  /**
   * Whether every read sees one state for as long as the engine is open: it is read-only and no
   * writer has its state directory or can open it (the zones' storage is `frozen`).
   */
  get frozen(): boolean {
    return this.readOnly && this.#zonesNs.frozen;
  }

  /** Zone objects live now, the others hibernated (see `live-zones.ts`). */
  get liveZoneObjects(): number {
    return this.#liveZones.size;
  }

  #requireOpen(): void {
    if (this.#closed) throw closedError();
  }

  #requireWritable(): void {
    this.#requireOpen();
    if (this.readOnly) throw new ApiError(503, [{ code: 10500, message: 'the engine is open read-only (a command that only reads); this change needs a command that writes, e.g. apply' }]);
  }
}

function closedError(): ApiError {
  return new ApiError(503, [{ code: 10500, message: 'the engine is closed' }]);
}
