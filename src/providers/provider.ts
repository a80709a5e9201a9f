/**
 * The one interface through which zonewall reads and writes a zone. Two implementations: the
 * embedded engine in-process (`engine/`) and the v4 HTTP API (`http/`). Both speak the v4 JSON
 * shapes of `plan`'s live types (`plan/live.ts` and each kind's `live.ts`); every implementation runs `contract.suite.ts`.
 */
import type {
  BulkOperationJson, CustomMatch, FirewallMatch, LegacyMatch, ListCreateBody, ListItemBody, ListItemJson, ListJson, ListUpdateBody, ManagedMatch, ServedPhase, TracerBatchBody, TracerBatchResult, TracerRequestBody, TracerResult, ZoneTrace,
} from '../api/index.js';
import type { BurstTrace, BurstTraceRequest } from '../api/index.js';
import type {
  RulePosition,
  EntrypointBody,
  FilterBody,
  FirewallRuleBody,
  LiveFilter,
  LiveFirewallRule,
  LiveMigrationStatus,
  LivePageRule,
  LiveRuleset,
  LiveSection,
  LiveZone,
  LiveZoneInfo,
  PageRuleBody,
  PhaseBody,
  PhaseRuleBody,
  PhaseStep,
  PlanTier,
} from '../plan/index.js';

/** The answer of the migration compatibility check. */
export interface MigrationCheck {
  compatible: boolean;
  migration_state: string;
  /** Why the zone is not compatible (the service's `messages`). */
  reasons: string[];
}

/**
 * A request for the zonewall engine's trace operation (`POST /zones/{id}/trace`), in plain terms:
 * the shape `zonewall test` cases carry. The real service has no such operation.
 */
export interface TraceRequest {
  method?: string;
  scheme?: 'http' | 'https';
  host?: string;
  path?: string;
  query?: string | Record<string, string | string[]>;
  url?: string;
  headers?: Record<string, string | string[]>;
  ip?: string;
  country?: string;
  body?: string;
  /** Rules language catalog field name to value (`cf.threat_score: 40`). */
  fields?: Record<string, unknown>;
}

/** A firewall rule that matched, as the trace reports it (`src/api`'s trace shapes). */
export type TraceFirewallMatch = FirewallMatch;
/** A managed rule that matched (run by the entry point rule `entrypoint_rule`). */
export type TraceManagedMatch = ManagedMatch;
/** A previous WAF rule that matched. */
export type TraceLegacyMatch = LegacyMatch;
/** A matched WAF custom rule in a trace. */
export type TraceCustomMatch = CustomMatch;
/** What the zone would do to a request: the trace operation's answer, as the engine sends it. */
export type TraceResult = ZoneTrace;

/** How `Provider.waitForListOperation` polls. */
export interface ListOperationWaitOptions {
  /** Called after each poll that is not final (progress on a terminal). */
  onPoll?: (operation: BulkOperationJson, polls: number) => void;
  /** Waits between polls (default: 250 ms doubling to 2 s); tests pass one that does not sleep. */
  sleep?: (ms: number, poll: number) => Promise<void>;
  /** Polls before giving up (default 600). */
  maxPolls?: number;
}

/** Counters a provider keeps, for the plan's call estimate and for benchmarks. */
export interface ProviderStats {
  /** API requests made so far (HTTP requests, or in-process dispatches for the engine). */
  requests: number;
  /** Of those, attempts that repeated a call after a 429, a 5xx or a timeout (HTTP only). */
  retries?: number;
}

/** Reads and writes zones. Every write takes a batch; implementations never send one call per object. */
export interface Provider {
  /** `engine` or `http`. */
  readonly kind: 'engine' | 'http';
  /** Human description for output, never containing credentials (e.g. `embedded engine at .zonewall`). */
  readonly description: string;
  /**
   * Where this provider reads and writes, to tell two apart (`apply plan.json` writes where the
   * plan was made): the embedded engine's state directory as an absolute path, or the v4 API's
   * base URL. Never credentials.
   */
  readonly target: string;
  readonly stats: ProviderStats;

  /**
   * Finds a zone by name or id. With `create`, a zone the embedded engine does not have is
   * `missing`: it reads as a new zone of that tier would (with `create.id` as its id, when given),
   * and the engine creates it at the first write to it, so a run that writes nothing creates
   * nothing. Other providers refuse. `create.waf` is the WAF generation the zone is created in
   * (default `previous`; `new`: already migrated, as a manifest that names neither `previous_waf`
   * nor `waf_migration` means).
   */
  resolveZone(zone: string, options?: { create?: { plan: PlanTier; id?: string; waf?: 'previous' | 'new' } }): Promise<{ zone: LiveZoneInfo; missing: boolean }>;
  /** Embedded engine only: the zones created during this run (at their first write). */
  readonly zonesCreated?: readonly LiveZoneInfo[];
  /**
   * Reads a zone's state: one paginated list per resource type. Filters and firewall rules always;
   * the other sections all, or only `sections` (`readsFor(desired)` of `plan`).
   */
  readZone(zoneId: string, sections?: readonly LiveSection[]): Promise<LiveZone>;
  /**
   * Looks up many zones at once before `resolveZone` is called for each: one zones list for the
   * whole run instead of one lookup per zone, when the list is not longer than the lookups.
   * `expected`: how many zones by name the run will look up, when not every name is known yet (a
   * run that reads its manifests as it goes knows how many files it has).
   */
  preloadZones?(zones: readonly string[], expected?: number): Promise<void>;

  createFilters(zoneId: string, filters: FilterBody[]): Promise<LiveFilter[]>;
  updateFilters(zoneId: string, filters: (FilterBody & { id: string })[]): Promise<LiveFilter[]>;
  deleteFilters(zoneId: string, ids: string[]): Promise<void>;

  createFirewallRules(zoneId: string, rules: FirewallRuleBody[]): Promise<LiveFirewallRule[]>;
  updateFirewallRules(zoneId: string, rules: (FirewallRuleBody & { id: string })[]): Promise<LiveFirewallRule[]>;
  /**
   * Deletes rules; with `deleteFilterIfUnused`, each rule's filter too when no other rule uses it
   * (the API's `delete_filter_if_unused`, the only way a simplified-flow filter can go).
   */
  deleteFirewallRules(zoneId: string, ids: string[], options?: { deleteFilterIfUnused?: boolean }): Promise<void>;

  /**
   * PUT of a rules phase entry point (the custom phase, the managed phase, …): the whole rule list
   * (rules sent with their `id` keep it; rules left out are deleted). Creates the entry point when
   * the zone has none. `step`: the PUT also takes that step of the WAF migration (the API's `waf_migration`).
   */
  putPhase<R extends LiveRuleset = LiveRuleset>(zoneId: string, phase: ServedPhase, body: PhaseBody, options?: { step?: PhaseStep }): Promise<R>;
  /** POST of one rule into the entry point `rulesetId` of `phase` (appended unless `position` says). */
  createPhaseRule<R extends LiveRuleset = LiveRuleset>(zoneId: string, phase: ServedPhase, rulesetId: string, body: PhaseRuleBody, position?: RulePosition): Promise<R>;
  /** PATCH of one rule: the complete new rule, a position, or both (a position alone moves it). */
  updatePhaseRule<R extends LiveRuleset = LiveRuleset>(zoneId: string, phase: ServedPhase, rulesetId: string, ruleId: string, change: { body?: PhaseRuleBody; position?: RulePosition }): Promise<R>;
  /** DELETE of one rule. */
  deletePhaseRule<R extends LiveRuleset = LiveRuleset>(zoneId: string, phase: ServedPhase, rulesetId: string, ruleId: string): Promise<R>;

  /** Page Rules: one call per rule (the API has no batch form). */
  createPageRule(zoneId: string, body: PageRuleBody): Promise<LivePageRule>;
  updatePageRule(zoneId: string, ruleId: string, body: PageRuleBody): Promise<LivePageRule>;
  deletePageRule(zoneId: string, ruleId: string): Promise<void>;

  patchWafPackage(zoneId: string, packageId: string, body: { sensitivity?: string; action_mode?: string }): Promise<void>;
  patchWafGroup(zoneId: string, packageId: string, groupId: string, mode: 'on' | 'off'): Promise<void>;
  patchWafRule(zoneId: string, packageId: string, ruleId: string, mode: string): Promise<void>;
  deleteWafOverride(zoneId: string, overrideId: string): Promise<void>;

  checkMigration(zoneId: string): Promise<MigrationCheck>;
  migrationConfig(zoneId: string): Promise<EntrypointBody>;
  migrationStatus(zoneId: string): Promise<LiveMigrationStatus>;

  /** Embedded engine only: a PITR bookmark of the zone now, recorded before an apply. */
  bookmark?(zoneId: string): Promise<string>;
  /** Embedded engine only: restore the zone to a bookmark. */
  restore?(zoneId: string, bookmark: string): Promise<void>;
  /** Embedded engine only: a PITR bookmark of the account's lists now, recorded before an apply writes them. */
  bookmarkAccount?(accountId: string): Promise<string>;
  /** Embedded engine only: restore the account's lists to a bookmark. */
  restoreAccount?(accountId: string, bookmark: string): Promise<void>;

  /** The account of a name or id (`GET /accounts`): lists belong to accounts; `tier` when the service says its plan. */
  resolveAccount(account: string): Promise<{ id: string; name: string; tier?: PlanTier }>;
  /** Every list of the account. */
  listLists(accountId: string): Promise<ListJson[]>;
  /** Every item of a list, ascending, read page by page (cursor pagination). */
  listItems(accountId: string, listId: string, options?: { search?: string; perPage?: number }): Promise<ListItemJson[]>;
  /** Creates an empty list. */
  createList(accountId: string, body: ListCreateBody): Promise<ListJson>;
  /** Changes a list's description (`name` and `kind` are immutable). */
  updateList(accountId: string, listId: string, body: ListUpdateBody): Promise<ListJson>;
  /** Deletes a list; the service refuses while any rule of the account's zones references it. */
  deleteList(accountId: string, listId: string): Promise<void>;
  /** Appends items (an existing value's comment is overwritten); answers the bulk operation id. */
  addListItems(accountId: string, listId: string, items: readonly ListItemBody[]): Promise<string>;
  /** Replaces every item of the list (empty: delete all); answers the bulk operation id. */
  replaceListItems(accountId: string, listId: string, items: readonly ListItemBody[]): Promise<string>;
  /** Deletes items by id; answers the bulk operation id. */
  deleteListItems(accountId: string, listId: string, itemIds: readonly string[]): Promise<string>;
  /** One poll of a bulk operation. */
  getListOperation(accountId: string, operationId: string): Promise<BulkOperationJson>;
  /**
   * Polls a bulk operation until it completes; throws when it fails (the service's reason) or is
   * still processing after `maxPolls`. `onPoll` sees each non-final poll (progress).
   */
  waitForListOperation(accountId: string, operationId: string, options?: ListOperationWaitOptions): Promise<BulkOperationJson & { status: 'completed' }>;

  /**
   * Pre-flight (`apply/preflight.ts`): a provider on which apply's writes to `zoneId` are validated
   * by the service and kept nowhere, each against the state the earlier ones made. The embedded
   * engine: a copy of the zone in a scratch in-memory engine (every write goes through the engine's
   * own code, then the copy is dropped). A remote API: the Rulesets writes with `dry_run=true`
   * (`remoteDryRuns`), the others taken as written. Close it when done.
   */
  validator?(zoneId: string): Promise<Provider>;

  /** zonewall engine only (embedded or `zonewall serve`): what the zone would do to a request. */
  trace?(zoneId: string, request: TraceRequest): Promise<TraceResult>;
  /** zonewall engine only: a burst of the request through the custom and rate limiting rules (`POST /zones/{id}/trace/burst`). */
  traceBurst?(zoneId: string, body: BurstTraceRequest<TraceRequest>): Promise<BurstTrace>;

  /**
   * The service's request tracer (`POST /accounts/{account_id}/request-tracer/trace`) on the zone's
   * account: the real service (a token with Request Tracer Read) and zonewall's engine alike.
   */
  requestTrace?(zoneId: string, body: TracerRequestBody): Promise<TracerResult>;
  /**
   * zonewall engine only (`POST /accounts/{account_id}/request-tracer/trace/batch`, not under
   * `serve --strict`): several tracer bodies in one call, answered in order; a service without
   * the route answers 404.
   */
  requestTraceBatch?(zoneId: string, body: TracerBatchBody): Promise<TracerBatchResult>;

  /**
   * Seconds the provider's request budget needs to send `requests` more calls (the HTTP
   * provider's rate limit; 0 for the embedded engine). Lets a plan say how long an apply takes.
   */
  estimateSeconds?(requests: number): number;
  /** The request budget the provider keeps to (HTTP only). */
  readonly rateLimit?: { requests: number; seconds: number };

  /** Releases connections and files. */
  close(): Promise<void>;
}
