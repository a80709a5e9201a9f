/**
 * What a zone route's handler gets: the zone's SQL storage, the zone (identity and plan tier), its
 * tier's limits, the matched path parameters, the query and the parsed body, and the request's
 * timestamp. Handlers are synchronous: a write request runs inside one storage transaction
 * (`zone-object.ts`), so a thrown `ApiError` leaves the zone exactly as it was; GET handlers are
 * read-only and run without one.
 */
import type { PlanLimitsConfig, TierLimits } from './limits.js';
import type { HttpMethod } from './router.js';
import type { Sql } from './sql.js';
import type { ApiResponse, ZoneInfo } from './types.js';
import type { ListCatalogEntry } from './lists/catalog.js';

/** The request context of a zone route handler. */
export interface ZoneRequestContext {
  /** The zone object's SQL storage (inside the request's transaction). */
  readonly sql: Sql;
  readonly zone: ZoneInfo;
  /** Quotas and entitlements of the zone's plan tier. */
  readonly limits: TierLimits;
  /** Every tier's limits, for messages such as "needs business or higher". */
  readonly planLimits: PlanLimitsConfig;
  /** Path parameters by name (`zone_id`, `filter_id`, ...). */
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  /** Parsed JSON body; undefined when none was sent. */
  readonly body: unknown;
  /** RFC 3339 time of this request: every timestamp a request writes is the same. */
  readonly now: string;
  /** The same instant with microseconds (6 fractional digits): the Rulesets API's `last_updated`. */
  readonly nowMicros: string;
  /**
   * Writes only: the lists of the zone's account (managed ones included), with their items when the
   * route asks (`ZoneRoute.listItems`); undefined on an engine without accounts.
   */
  readonly lists?: readonly ListCatalogEntry[];
}

/**
 * A route served inside a zone's stateful object. Patterns start with `/zones/:zone_id/`, or, for an
 * account route that acts on one zone (the request tracer), name the zone in the body (`zoneHost`).
 */
export interface ZoneRoute {
  method: HttpMethod;
  pattern: string;
  /** Builds the answer, or throws `ApiError` (the transaction then rolls back). */
  handler(ctx: ZoneRequestContext): ApiResponse;
  /**
   * GET only: the answer depends on nothing but the zone's stored data and the request, so the
   * zone object may repeat a 200 answer from memory until its next write request. Leave unset for
   * anything that depends on the clock or on data written outside a request (alarms).
   */
  cacheable?: boolean;
  /** Write routes only: the handler needs the account's list items (`ctx.lists`), e.g. the trace. */
  listItems?: boolean;
  /**
   * A POST that changes nothing (the traces): the zone object runs it as it runs a read, with no
   * transaction and the read memo kept; `ctx.lists` is still given.
   */
  readOnly?: boolean;
  /**
   * An account route (`/accounts/:account_id/...`) only: the host name the body names; the zone is
   * the account's zone of that name or of its nearest parent domain.
   */
  zoneHost?(body: unknown): string | undefined;
}

/** What a resource module may do once, when its zone is created. */
export interface ZoneCreateContext {
  readonly sql: Sql;
  readonly zone: ZoneInfo;
  readonly limits: TierLimits;
  /** Options given to `Engine.createZone` (e.g. `waf: 'previous' | 'new'`). */
  readonly options: ZoneCreateOptions;
  readonly now: string;
}

/** Options of zone creation that resource modules may act on. */
export interface ZoneCreateOptions {
  /** Which WAF the zone starts with; the previous-WAF / migration modules decide the default. */
  waf?: 'previous' | 'new';
}

/** One resource module of a zone: its tables and its routes (see `resources.ts`). */
export interface ResourceModule {
  /** Short name, for errors and logs. */
  name: string;
  /** DDL run every time a zone object starts; each statement must be idempotent (`IF NOT EXISTS`). */
  schema: readonly string[];
  routes: readonly ZoneRoute[];
  /** Runs once, in the zone creation transaction (seed data such as a WAF catalog). */
  onCreate?(ctx: ZoneCreateContext): void;
}
