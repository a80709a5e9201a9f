/**
 * One account as a SQLite-backed Durable Object (`ACCOUNTS` binding, named by account id): the
 * engine's account object class (`accountObjectClass`: the account's lists, items and bulk
 * operations), unchanged, over workerd's `ctx.storage`, beside the zone objects. This class only
 * adapts it to workerd's RPC and adds PITR by time, as `ZoneObject` does.
 */
import { DurableObject } from 'cloudflare:workers';
import {
  accountObjectClass,
  type AccountCall, type AccountObjectApi, type AccountObjectState, type ApiResponse, type ListCatalogEntry, type ZoneDump,
} from '../../src/engine/workerd.js';
import { logError, type Settings } from './settings.js';

/** The Durable Object class of an account (`ACCOUNTS` binding). */
export class AccountObject extends DurableObject<Settings> {
  readonly #account: AccountObjectApi;

  constructor(ctx: DurableObjectState, env: Settings) {
    super(ctx, env);
    const polls = Number(env.ZONEWALL_LIST_OPERATION_POLLS ?? '0');
    const Account = accountObjectClass({ operationPolls: Number.isSafeInteger(polls) && polls > 0 ? polls : 0, logError });
    this.#account = new Account(ctx as unknown as AccountObjectState, env);
  }

  /** One Lists API call (one storage transaction). */
  handle(call: AccountCall): ApiResponse {
    return this.#account.handle(call);
  }

  /** The account's lists (with their items when asked), for the zone objects. */
  catalog(withItems: boolean): ListCatalogEntry[] {
    return this.#account.catalog(withItems);
  }

  /** Replaces the account's rows (importing an account of the built-in runtime). */
  load(dump: ZoneDump): void {
    this.#account.load(dump);
  }

  /** PITR: the bookmark of the account's storage now. */
  bookmark(): Promise<string> {
    return this.#account.bookmark();
  }

  /** PITR: restores the account to `bookmark` or to its state at `time` (ms since the epoch). */
  async restore(target: { bookmark: string } | { time: number }): Promise<void> {
    const bookmark = 'bookmark' in target ? target.bookmark : await this.ctx.storage.getBookmarkForTime(target.time);
    await this.#account.restore(bookmark);
  }
}
