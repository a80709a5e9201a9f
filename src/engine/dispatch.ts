/**
 * The front of the v4 API, shared by both runtimes of the zone objects: it matches the route (404 /
 * 405 in the real envelope), serves the engine's own routes (zones, expression validation) through
 * a `ZoneDirectory`, resolves the zone of a zone route, checks the caller's zone scope, and hands the
 * call to the zone's object. The built-in host (`engine.ts`: objects in this process) and the Worker
 * on workerd (`deploy/worker`: one Durable Object per zone) differ only in the directory and in how
 * a call reaches a zone object (`callZone`).
 */
import { ApiError, apiMessage } from './api-errors.js';
import type { ResourceModule } from './context.js';
import { dryRunOf } from './dry-run.js';
import { errorResponse, failureResponse, noRouteError } from './envelope.js';
import { validateExprRoutes } from './filters/validate-expr.js';
import { after, type MaybePromise } from './maybe-promise.js';
import { routeKey, Router, type HttpMethod, type RouteMatch } from './router.js';
import { allZones, inScope } from './scope.js';
import { ExtensionRoutes, withoutExtensions } from './strict.js';
import type { AccountInfo, ApiRequest, ApiResponse, ZoneInfo } from './types.js';
import type { ZoneCall } from './zone-object.js';
import { accountObjectRoutes, type AccountCall } from './account-object.js';
import { withManagedLists, type ListCatalogEntry } from './lists/catalog.js';
import type { ListReferenceInfo } from './lists/context.js';
import { ListErrors } from '../api/index.js';
import { accountIdOf } from './zones/accounts.js';
import type { EngineRoute, ZoneDirectory } from './engine-route.js';
import { zoneRoutes } from './zones/routes.js';
import { accountRoutes } from './zones/account-routes.js';

export type { ZoneDirectory } from './engine-route.js';

/** What a `V4Dispatcher` is built from. */
export interface DispatcherOptions {
  resources: readonly ResourceModule[];
  /** Real API shapes only (`serve --strict`). */
  strict: boolean;
  directory: ZoneDirectory;
  /** The zone of a zone id, or undefined when the engine has no such zone. */
  zoneById(id: string): MaybePromise<ZoneInfo | undefined>;
  /** Runs one call in the zone's object (one storage transaction per write). */
  callZone(call: ZoneCall): Promise<ApiResponse>;
  /** Where unexpected errors are reported. Never sent to clients. */
  logError(message: string, err: unknown): void;
  /** Routes of this runtime only (the Worker's PITR and import routes), served like the engine's. */
  extraRoutes?: readonly EngineRoute[];
  /** The accounts' objects (the Lists API); without it, no account routes and no list checks. */
  accounts?: AccountHost;
}

/** How the front reaches the account objects, and the zones' list references. */
export interface AccountHost {
  /** The account of an id, or undefined. */
  accountById(id: string): MaybePromise<AccountInfo | undefined>;
  /** Runs one Lists call in the account's object. */
  callAccount(call: AccountCall): Promise<ApiResponse>;
  /** The account's lists (names and kinds; with items when asked), managed lists not included. */
  catalog(accountId: string, withItems: boolean): Promise<ListCatalogEntry[]>;
  /** The zones of the account. */
  zonesOf(accountId: string): Promise<ZoneInfo[]>;
  /** Every list reference of a zone's stored rules. */
  zoneReferences(zone: ZoneInfo): Promise<ListReferenceInfo[]>;
}

/** Router answers kept by path (`#match`); all of them are dropped when there are more. */
const MATCH_ENTRIES = 512;

/** A route of either kind; a zone route carries its `routeKey`, made once (every call sends it). */
type AnyRoute = { method: HttpMethod; pattern: string } & ({ kind: 'engine'; route: EngineRoute } | { kind: 'zone'; key: string; listItems: boolean; zoneHost?: (body: unknown) => string | undefined } | { kind: 'account'; key: string; references: boolean });

/** Routes v4 calls to the engine's routes and the zone objects. */
export class V4Dispatcher {
  readonly #options: DispatcherOptions;
  readonly #router: Router<AnyRoute>;
  /** Router answers by method, then path (`#match`). */
  readonly #matches = new Map<string, Map<string, RouteMatch<AnyRoute>>>();
  #matchCount = 0;

  constructor(options: DispatcherOptions) {
    this.#options = options;
    const engineRoutes: AnyRoute[] = [...zoneRoutes, ...accountRoutes, ...validateExprRoutes, ...(options.extraRoutes ?? [])].map((route) => ({ method: route.method, pattern: route.pattern, kind: 'engine', route }));
    const zoneRoutesAll: AnyRoute[] = options.resources.flatMap((m) => m.routes.map((r) => ({ method: r.method, pattern: r.pattern, kind: 'zone' as const, key: routeKey(r), listItems: r.listItems === true, ...(r.zoneHost !== undefined ? { zoneHost: r.zoneHost } : {}) })));
    const accountRoutesAll: AnyRoute[] = options.accounts === undefined ? [] : accountObjectRoutes.map((r) => ({ method: r.method, pattern: r.pattern, kind: 'account' as const, key: routeKey(r), references: r.references === true }));
    const all = [...engineRoutes, ...accountRoutesAll, ...zoneRoutesAll];
    this.#router = new Router(options.strict ? all.filter((r) => !ExtensionRoutes.has(routeKey(r))) : all);
  }

  /**
   * One v4 API call. Never rejects: failures are error envelopes. Not an `async` function, nor are
   * the steps below: a zone call's answer comes back through one promise (the zone object's) and a
   * catch, instead of a turn of the microtask queue per layer (issue 17: `serve` reads).
   */
  respond(request: ApiRequest): Promise<ApiResponse> {
    try {
      return Promise.resolve(this.#dispatch(request)).catch((err: unknown) => this.#failure(request, err));
    } catch (err) {
      return Promise.resolve(this.#failure(request, err));
    }
  }

  #failure(request: ApiRequest, err: unknown): ApiResponse {
    return failureResponse(err, `${request.method} ${request.path}`, this.#options.logError);
  }

  #dispatch(request: ApiRequest): MaybePromise<ApiResponse> {
    const method = request.method.toUpperCase();
    const match = this.#match(method, request.path);
    if (match.kind === 'none') throw noRouteError(request.path);
    if (match.kind === 'method') {
      throw new ApiError(405, [apiMessage('methodNotAllowed', `${method} is not allowed on ${request.path}; allowed: ${match.allowed.join(', ')}`)], { allow: match.allowed.join(', ') });
    }
    const { route, params } = match;
    const answer = this.#run(route, params, request);
    if (!this.#options.strict) return answer;
    return after(answer, (a) => withoutExtensions(route.pattern, a));
  }

  /**
   * The router's answer for `method` and `path`, kept for the next request of the same path (a
   * client pages through the same few paths): matching splits the path and walks every route.
   * Paths are data, and the answer depends on nothing else; the kept parameters are frozen, as
   * every request of that path shares them.
   */
  #match(method: string, path: string): RouteMatch<AnyRoute> {
    // By method, then path: no key string made per request, and a path the server hands on again
    // (its target cache) is the same string, whose hash V8 keeps.
    let byPath = this.#matches.get(method);
    let match = byPath?.get(path);
    if (match === undefined) {
      match = this.#router.match(method, path);
      if (match.kind === 'found') Object.freeze(match.params);
      if (this.#matchCount >= MATCH_ENTRIES) {
        this.#matches.clear();
        this.#matchCount = 0;
        byPath = undefined;
      }
      if (byPath === undefined) this.#matches.set(method, (byPath = new Map()));
      byPath.set(path, match);
      this.#matchCount++;
    }
    return match;
  }

  #run(route: AnyRoute, params: Record<string, string>, request: ApiRequest): MaybePromise<ApiResponse> {
    if (route.kind === 'engine') return route.route.handler(this.#options.directory, request, params);
    if (route.kind === 'account') return this.#runAccount(route.key, route.references, params, request);
    const host = this.#options.accounts;
    // The server's pairs, made once per target, else made now (a caller may reuse its query object).
    const pairs = request.queryPairs ?? (request.query === undefined ? [] : [...request.query]);
    const zoneOf = route.zoneHost !== undefined ? accountZone(this.#options.directory, params.account_id!, route.zoneHost(request.body)) : this.#options.zoneById(params.zone_id!);
    return after(zoneOf, (found) => {
      const zone = this.#inScope(request, found);
      // `?dry_run=` is the dispatcher's, for every write route (`dry-run.ts`): the zone object runs it.
      const { dryRun, query } = dryRunOf(route.method, route.pattern, pairs, this.#options.strict);
      const call: ZoneCall = { route: route.key, params, query, body: request.body, zone, ...(dryRun ? { dryRun } : {}) };
      // Writes see the account's lists (their `$name` are checked against them; the trace resolves them).
      // A write whose body names no `$` (no rule it writes can use a list) skips the account's call:
      // it adds no reference (a list a stored rule uses cannot be deleted, so those stay satisfied).
      if (host === undefined || route.method === 'GET' || (!route.listItems && !mentionsList(request.body))) return this.#options.callZone(call);
      return this.#zoneCatalog(host, zone, route.listItems).then((lists) => this.#options.callZone({ ...call, lists }));
    });
  }

  async #zoneCatalog(host: AccountHost, zone: ZoneInfo, withItems: boolean): Promise<ListCatalogEntry[]> {
    const account = await host.accountById(accountIdOf(zone));
    if (account === undefined) return [];
    return withManagedLists(await host.catalog(account.id, withItems), account.plan, withItems);
  }

  /** A Lists call: the account (404 when unknown, 403 out of scope), the zones' references when the route needs them. */
  async #runAccount(key: string, needsReferences: boolean, params: Record<string, string>, request: ApiRequest): Promise<ApiResponse> {
    const host = this.#options.accounts!;
    const account = await host.accountById(params.account_id!);
    if (account === undefined) {
      if (!allZones(request.auth)) throw ApiError.of('forbidden', 'Authentication error');
      throw ApiError.from(ListErrors.accountNotFound, `account ${params.account_id} not found`);
    }
    const zones = needsReferences || !allZones(request.auth) ? await host.zonesOf(account.id) : [];
    // A zone-scoped credential may use the lists of an account one of its zones belongs to.
    if (!allZones(request.auth) && !zones.some((z) => inScope(request.auth, z))) throw ApiError.of('forbidden', 'Authentication error');
    const references = needsReferences ? (await Promise.all(zones.map((z) => host.zoneReferences(z)))).flat() : [];
    const call: AccountCall = {
      route: key, params, body: request.body, account, references,
      query: request.queryPairs ?? (request.query === undefined ? [] : [...request.query]),
    };
    return host.callAccount(call);
  }

  /** The zone of a zone-scoped path: 403 when out of the caller's scope, 404 (7003) when unknown. */
  #inScope(request: ApiRequest, zone: ZoneInfo | undefined): ZoneInfo {
    if (zone !== undefined && inScope(request.auth, zone)) return zone;
    if (!allZones(request.auth)) throw ApiError.of('forbidden', 'Authentication error');
    throw noRouteError(request.path);
  }
}

/** Whether any string of a request body holds a `$` (a list reference `$name`, or a regex's `$`). */
export function mentionsList(body: unknown): boolean {
  // A loop, not recursion: a body may be nested 100,000 deep (the route refuses it, with a 400).
  const pending: unknown[] = [body];
  while (pending.length > 0) {
    const value = pending.pop();
    if (typeof value === 'string') {
      if (value.includes('$')) return true;
    } else if (Array.isArray(value)) {
      for (const item of value) pending.push(item);
    } else if (typeof value === 'object' && value !== null) {
      for (const key in value) pending.push((value as Record<string, unknown>)[key]);
    }
  }
  return false;
}

/**
 * The zone of an account route (the request tracer): the account's zone named `host` or its
 * nearest parent domain (`www.shop.example.com` finds `shop.example.com`, else `example.com`).
 * A body without a host, or a host no zone of the account serves, is refused (400, 10014 at `/url`).
 */
async function accountZone(directory: ZoneDirectory, accountId: string, host: string | undefined): Promise<ZoneInfo> {
  if (host === undefined) throw ApiError.of('invalidField', 'url is required: an absolute http(s) URL whose host is one of the account\'s zones', { pointer: '/url' });
  const labels = host.replace(/\.$/, '').split('.');
  for (let i = 0; i < labels.length - 1; i++) {
    const zone = await directory.getZone(labels.slice(i).join('.'));
    if (zone !== undefined && accountIdOf(zone) === accountId) return zone;
  }
  throw ApiError.of('invalidField', `no zone of account ${accountId} serves host ${host}`, { pointer: '/url' });
}
