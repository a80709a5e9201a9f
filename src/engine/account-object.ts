/**
 * The stateful object of one account (beside the zone objects, its own namespace): it owns the
 * account's lists, their items and the bulk operations of item writes (`lists/`), and executes one
 * Lists API request per event inside one storage transaction, as a zone object does. It also
 * answers its list catalog (names and kinds, and the items for a trace) to the dispatcher, which
 * hands it to the zone objects: rules are checked against it, and the trace resolves `$name` by it.
 */
import { failureResponse } from './envelope.js';
import { timestamp } from './ids.js';
import type { AccountRequestContext, AccountRoute, ListReferenceInfo } from './lists/context.js';
import { listRoutes } from './lists/handlers.js';
import { valueText } from './lists/items.js';
import type { ZoneDump } from './zone-dump.js';
import { allLists, listValues, listsSchema } from './lists/store.js';
import { routeKey } from './router.js';
import { StoredObject, type StoredObjectState } from './stored-object.js';
import type { AccountInfo, ApiResponse } from './types.js';
import type { ListCatalogEntry } from './lists/catalog.js';

/** One request as it crosses the stub: plain data only. */
export interface AccountCall {
  /** `routeKey()` of the matched route. */
  route: string;
  params: Record<string, string>;
  query: readonly [string, string][];
  body: unknown;
  account: AccountInfo;
  /** Every list reference of the account's zones (routes with `references: true`; else empty). */
  references: ListReferenceInfo[];
}

/** The slice of the storage object state (`ctx`) the account object uses. */
export type AccountObjectState = StoredObjectState;

/** What the account object's class is built from. */
export interface AccountObjectDeps {
  /** Polls an operation answers `pending`/`running` before its final status (test hook). */
  operationPolls: number;
  logError(message: string, err: unknown): void;
}

/** The account object's methods, as the engine calls them through a stub. */
export interface AccountObjectApi {
  handle(call: AccountCall): ApiResponse;
  /** The account's lists: names and kinds, with their items' values when `withItems`. */
  catalog(withItems: boolean): ListCatalogEntry[];
  /** Every row of the account's tables (a copy of the account in another engine, `Engine.copyZone`). */
  dump(): ZoneDump;
  /** Replaces the account's rows with a dump's, in one transaction. */
  load(dump: ZoneDump): void;
  bookmark(): Promise<string>;
  restore(bookmark: string): Promise<void>;
  ping(): boolean;
}

/** The routes the account object serves (every Lists route); the accounts collection's own are `zones/account-routes.ts`'s `accountRoutes`. */
export const accountObjectRoutes: readonly AccountRoute[] = listRoutes;

/** Builds the account object class bound to `deps`. */
export function accountObjectClass(deps: AccountObjectDeps): new (state: AccountObjectState, env: unknown) => AccountObjectApi {
  const routes = new Map<string, AccountRoute>();
  for (const r of accountObjectRoutes) routes.set(routeKey(r), r);
  return class AccountObject extends StoredObject implements AccountObjectApi {
    constructor(state: AccountObjectState, _env: unknown) {
      super(state);
      this.createTables(listsSchema);
    }

    handle(call: AccountCall): ApiResponse {
      const route = routes.get(call.route);
      if (route === undefined) throw new Error(`account object: no route ${call.route}`);
      const ctx: AccountRequestContext = {
        sql: this.state.storage.sql,
        account: call.account,
        params: call.params,
        query: new URLSearchParams(call.query),
        body: call.body,
        now: timestamp(),
        references: call.references,
        operationPolls: deps.operationPolls,
      };
      try {
        // Reads too: polling an operation moves it on (see `lists/operations.ts`).
        return this.state.storage.transactionSync(() => route.handler(ctx));
      } catch (err) {
        return failureResponse(err, `${call.route} on account ${call.account.id}`, deps.logError);
      }
    }

    catalog(withItems: boolean): ListCatalogEntry[] {
      const sql = this.state.storage.sql;
      return allLists(sql).map((l) => {
        const entry: ListCatalogEntry = { name: l.name, kind: l.kind };
        if (withItems) entry.items = listValues(sql, l.id).map((v) => (v.kind === 'hostname' ? { host: valueText(v), excludeExact: v.hostname.exclude_exact_hostname !== false } : valueText(v)));
        return entry;
      });
    }
  };
}
