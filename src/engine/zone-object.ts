/**
 * The stateful object of one zone (seed 001: one object per zone, SQLite backend). It owns the
 * zone's tables (every resource module's schema, run at each start) and executes one v4 request per
 * event: the route's handler runs inside one storage transaction, so a refused request (a thrown
 * `ApiError`) or a crash changes nothing, and a returned response commits (including the seed's
 * partial creation, which is a `success: false` response that keeps the inline filters). GET
 * handlers are read-only and run without a transaction; answers of cacheable GET routes are
 * memoised until the next write request (list pages stay, as their list answers them). Answers may
 * therefore share objects: callers outside the engine get copies of all but their frozen parts
 * (`Engine.dispatch`).
 *
 * The class is built per engine (`zoneObjectClass`) so that the plan limits and the error log are
 * bound without passing them through every call; calls carry only plain data (`ZoneCall`).
 */
import type { ResourceModule, ZoneCreateOptions, ZoneRequestContext, ZoneRoute } from './context.js';
import { dryRunAnswer } from './dry-run.js';
import { failureResponse } from './envelope.js';
import { epochMicros, timestamp, timestampMicros } from './ids.js';
import type { PlanLimitsConfig } from './limits.js';
import { resetListViews, settleListViews } from './list-view.js';
import { MEMO_ENTRIES, memoKey, refreshMemo } from './read-memo.js';
import { routeKey } from './router.js';
import { StoredObject, type StoredObjectState } from './stored-object.js';
import type { ApiResponse, ZoneInfo } from './types.js';
import type { ZoneDump } from './zone-dump.js';
import { createdObjects, schemaPresent } from './zone-schema.js';
import type { ListCatalogEntry } from './lists/catalog.js';
import type { ListReferenceInfo } from './lists/context.js';
import { requireKnownLists, unsatisfiedKeys, zoneListReferences } from './lists/references.js';

/** One request as it crosses the stub: plain data only. */
export interface ZoneCall {
  /** `routeKey()` of the matched route. */
  route: string;
  params: Record<string, string>;
  /** The query as name/value pairs (URLSearchParams is not plain data); shared between calls, never written. */
  query: readonly [string, string][];
  body: unknown;
  zone: ZoneInfo;
  /** Writes: the account's lists (see `ZoneRequestContext.lists`); a write leaving a rule that references a list not in them is refused. */
  lists?: ListCatalogEntry[];
  /** Validate the write as usual, then roll it back (`?dry_run=true`, `dry-run.ts`). */
  dryRun?: boolean;
}

/** The slice of the storage object state (`ctx`) the zone object uses. */
export type ZoneObjectState = StoredObjectState;

/** Thrown inside a dry run's transaction to roll it back (`#dryRun`). */
const DryRunRollback = new Error('dry run rollback');

/** What the zone object's class is built from. */
export interface ZoneObjectDeps {
  resources: readonly ResourceModule[];
  planLimits: PlanLimitsConfig;
  /** Where unexpected errors are reported (never to the client). */
  logError(message: string, err: unknown): void;
}

/** The zone object's methods, as the engine calls them through a stub. */
export interface ZoneObjectApi {
  handle(call: ZoneCall): ApiResponse;
  init(zone: ZoneInfo, options: ZoneCreateOptions): void;
  bookmark(): Promise<string>;
  restore(bookmark: string): Promise<void>;
  ping(): boolean;
  destroy(): Promise<void>;
  /** Every row of the zone's tables (moving a zone to another runtime). */
  dump(): ZoneDump;
  /** Replaces the zone's rows with a dump's, in one transaction. */
  load(dump: ZoneDump): void;
  /** Every `$name` reference of the zone's stored rules (a list delete asks every zone of the account). */
  listReferences(zone: ZoneInfo): ListReferenceInfo[];
}

/** Builds the zone object class bound to `deps`. */
export function zoneObjectClass(deps: ZoneObjectDeps): new (state: ZoneObjectState, env: unknown) => ZoneObjectApi {
  const routes = new Map<string, ZoneRoute>();
  for (const m of deps.resources) for (const r of m.routes) routes.set(routeKey(r), r);
  const ddl = deps.resources.flatMap((m) => m.schema);
  const created = createdObjects(ddl);

  return class ZoneObject extends StoredObject implements ZoneObjectApi {
    /** Answers of cacheable GET routes since the last write request (see `#read`). */
    readonly #memo = new Map<string, ApiResponse>();

    constructor(state: ZoneObjectState, _env: unknown) {
      super(state);
      resetListViews(state.storage.sql);
      if (created === null || !schemaPresent(state.storage.sql, created)) this.createTables(ddl);
    }

    /** Runs one request in one transaction. */
    handle(call: ZoneCall): ApiResponse {
      const route = routes.get(call.route);
      if (route === undefined) throw new Error(`zone object: no route ${call.route}`);
      if (route.method === 'GET') return this.#read(route, call);
      const ctx = this.#context(call);
      if (call.dryRun === true) return this.#dryRun(route, ctx, call);
      // A POST that changes nothing (the traces): no transaction, and the read memo stays.
      if (route.readOnly === true) return this.#read(route, call);
      try {
        const lists = call.lists;
        const sql = this.state.storage.sql;
        const answer = this.state.storage.transactionSync(() => {
          if (lists === undefined) return route.handler(ctx);
          const before = unsatisfiedKeys(sql, call.zone, lists);
          const response = route.handler(ctx);
          requireKnownLists(sql, call.zone, lists, before, ctx.body);
          return response;
        });
        this.#settleLists();
        return answer;
      } catch (err) {
        return this.#failure(call, err);
      } finally {
        refreshMemo(this.#memo);
      }
    }

    /**
     * A dry run: the route's handler in the request's transaction, as a write, which is then rolled
     * back whatever the handler answered (a refusal rolls back as any write's does).
     */
    #dryRun(route: ZoneRoute, ctx: ZoneRequestContext, call: ZoneCall): ApiResponse {
      let answer: ApiResponse | undefined;
      try {
        this.state.storage.transactionSync(() => {
          // The list check too: a dry run answers the errors the write would get (10311 for an unknown list).
          const lists = call.lists;
          const before = lists === undefined ? undefined : unsatisfiedKeys(this.state.storage.sql, call.zone, lists);
          answer = route.handler(ctx);
          if (lists !== undefined) requireKnownLists(this.state.storage.sql, call.zone, lists, before!, ctx.body);
          throw DryRunRollback;
        });
      } catch (err) {
        if (err !== DryRunRollback) return this.#failure(call, err);
      } finally {
        // The rolled-back rows' ids were noted: the lists read them again, as they were.
        this.#settleLists();
        refreshMemo(this.#memo);
      }
      return dryRunAnswer(answer!);
    }

    /**
     * A read: no transaction (the handler is synchronous, so nothing interleaves, and skipping
     * BEGIN/COMMIT lets the answer leave without waiting for an empty commit). Cacheable routes
     * answer repeats from the memo, which every write request clears but for list pages, brought
     * up to date (`refreshMemo`): the zone object is the only writer of its storage, so a
     * memoised answer is exactly what the SQL would say again.
     */
    #read(route: ZoneRoute, call: ZoneCall): ApiResponse {
      const key = route.cacheable === true ? memoKey(call) : undefined;
      const hit = key === undefined ? undefined : this.#memo.get(key);
      if (hit !== undefined) return hit;
      let response: ApiResponse;
      try {
        response = route.handler(this.#context(call, true));
      } catch (err) {
        return this.#failure(call, err);
      }
      if (key !== undefined && response.status === 200) {
        if (this.#memo.size >= MEMO_ENTRIES) this.#memo.delete(this.#memo.keys().next().value as string);
        this.#memo.set(key, response);
      }
      return response;
    }

    /** The in-memory lists take in the write just made (`settleListViews`); never fails the write. */
    #settleLists(): void {
      const sql = this.state.storage.sql;
      try {
        settleListViews(sql);
      } catch (err) {
        resetListViews(sql);
        deps.logError('bringing the in-memory lists up to date after a write failed; they are read again at the next read', err);
      }
    }

    /**
     * The handler's view of one call (built only when a handler runs, not for a memo hit). A write's
     * time is taken now, before its handler runs; a read's only if its handler asks for it (reads do
     * not: a plan's thousand list pages would each make a Date and its text for nothing).
     */
    #context(call: ZoneCall, reading = false): ZoneRequestContext {
      let micros = reading ? undefined : epochMicros();
      let now: string | undefined;
      let nowMicros: string | undefined;
      return {
        sql: this.state.storage.sql,
        zone: call.zone,
        limits: deps.planLimits[call.zone.plan],
        planLimits: deps.planLimits,
        params: call.params,
        query: new URLSearchParams(call.query),
        body: call.body,
        get now() {
          return (now ??= timestamp(new Date(Math.floor((micros ??= epochMicros()) / 1000))));
        },
        get nowMicros() {
          return (nowMicros ??= timestampMicros(micros ??= epochMicros()));
        },
        ...(call.lists !== undefined ? { lists: call.lists } : {}),
      };
    }

    #failure(call: ZoneCall, err: unknown): ApiResponse {
      return failureResponse(err, `${call.route} on zone ${call.zone.id}`, deps.logError);
    }

    /** Runs the modules' one-time creation hooks. */
    init(zone: ZoneInfo, options: ZoneCreateOptions): void {
      this.#memo.clear();
      resetListViews(this.state.storage.sql);
      const now = timestamp();
      this.state.storage.transactionSync(() => {
        for (const m of deps.resources) {
          m.onCreate?.({ sql: this.state.storage.sql, zone, limits: deps.planLimits[zone.plan], options, now });
        }
      });
    }

    listReferences(zone: ZoneInfo): ListReferenceInfo[] {
      return zoneListReferences(this.state.storage.sql, zone).map(({ needs: _needs, ...ref }) => ref);
    }

    override load(dump: ZoneDump): void {
      this.#memo.clear();
      super.load(dump);
    }

    /** Deletes all of the zone's storage (zone deletion). */
    async destroy(): Promise<void> {
      this.#memo.clear();
      resetListViews(this.state.storage.sql);
      await this.state.storage.deleteAll();
    }
  };
}
