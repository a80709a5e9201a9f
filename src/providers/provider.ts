/**
 * The one interface through which zonewall reads and writes a zone. Two implementations: the
 * embedded engine in-process (`engine/`) and the v4 HTTP API (`http/`). Both speak the v4 JSON
 * shapes of `plan/live.ts`; every implementation runs `contract.suite.ts`.
 */
import type { MigrationMode } from '../api/index.js';
import type {
  CustomRuleBody,
  CustomRulePosition,
  EntrypointBody,
  LiveCustomEntrypoint,
  FilterBody,
  FirewallRuleBody,
  LiveEntrypoint,
  LiveFilter,
  LiveFirewallRule,
  LiveMigrationStatus,
  LivePageRule,
  LiveSection,
  LiveZone,
  LiveZoneInfo,
  PageRuleBody,
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

/** A firewall rule that matched, as the trace reports it. */
export interface TraceFirewallMatch { id: string; ref?: string; action: string; priority: number | null; description?: string; products?: string[] }

/** A managed rule that matched (run by the entry point rule `entrypoint_rule`). */
export interface TraceManagedMatch {
  entrypoint_rule: string; ruleset_id: string; ruleset: string; rule_id: string;
  description: string; action: string; categories: string[]; score?: number;
}

/** A previous WAF rule that matched. */
export interface TraceLegacyMatch {
  package_id: string; package: string; group_id: string | null; group: string | null;
  rule_id: string; description: string; mode: string; action: string; score?: number;
}

/** A matched WAF custom rule in a trace. */
export interface TraceCustomMatch {
  ref: string;
  id: string;
  action: string;
  description?: string;
}

/** What the zone would do to a request: the trace operation's answer. */
export interface TraceResult {
  waf_state: string;
  /** The final action; null when the request reaches the origin. */
  action: string | null;
  decided_by: 'firewall_rules' | 'custom_rules' | 'managed_rules' | 'previous_waf' | null;
  firewall_rules: { matched: TraceFirewallMatch[]; action: string | null; rule: TraceFirewallMatch | null };
  /** WAF custom rules, when the zone has the entry point; `rule.ref` names the deciding rule. */
  custom_rules?: {
    enabled: boolean; matched: TraceCustomMatch[]; action: string | null; rule: TraceCustomMatch | null;
    skipped_phases: string[]; skipped_products: string[]; ended_by?: string; skipped_by?: string;
  };
  managed_rules?: {
    enabled: boolean; matched: TraceManagedMatch[]; action: string | null; rule: TraceManagedMatch | null;
    owasp?: { score: number; threshold: number; action: string; exceeded: boolean }; skipped_by?: string;
  };
  previous_waf?: {
    enabled: boolean; skipped?: string; override?: string; matched: TraceLegacyMatch[]; action: string | null; rule: TraceLegacyMatch | null;
    owasp?: { score: number; threshold: number; sensitivity: string; action_mode: string; exceeded: boolean };
  };
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
  readonly stats: ProviderStats;

  /**
   * Finds a zone by name or id. With `create`, a zone the embedded engine does not have is
   * `missing`: it reads as a new zone of that tier would (with `create.id` as its id, when given),
   * and the engine creates it at the first write to it, so a run that writes nothing creates
   * nothing. Other providers refuse.
   */
  resolveZone(zone: string, options?: { create?: { plan: PlanTier; id?: string } }): Promise<{ zone: LiveZoneInfo; missing: boolean }>;
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

  /** PUT of the `http_request_firewall_managed` entry point, optionally as a migration step. */
  putEntrypoint(zoneId: string, body: EntrypointBody, options?: { wafMigration?: MigrationMode }): Promise<LiveEntrypoint>;

  /**
   * PUT of the `http_request_firewall_custom` entry point: the whole rule list (rules sent with
   * their `id` keep it; rules left out are deleted). Creates the entry point when the zone has none.
   */
  putCustomEntrypoint(zoneId: string, body: { description?: string; rules: CustomRuleBody[] }): Promise<LiveCustomEntrypoint>;
  /** POST of one custom rule into the entry point `rulesetId` (appended unless `position` says). */
  createCustomRule(zoneId: string, rulesetId: string, body: CustomRuleBody, position?: CustomRulePosition): Promise<LiveCustomEntrypoint>;
  /** PATCH of one custom rule: the complete new rule, a position, or both (a position alone moves it). */
  updateCustomRule(zoneId: string, rulesetId: string, ruleId: string, change: { body?: CustomRuleBody; position?: CustomRulePosition }): Promise<LiveCustomEntrypoint>;
  /** DELETE of one custom rule. */
  deleteCustomRule(zoneId: string, rulesetId: string, ruleId: string): Promise<LiveCustomEntrypoint>;

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

  /** zonewall engine only (embedded or `zonewall serve`): what the zone would do to a request. */
  trace?(zoneId: string, request: TraceRequest): Promise<TraceResult>;

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
