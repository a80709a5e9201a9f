/**
 * The one interface through which zonewall reads and writes a zone. Two implementations: the
 * embedded engine in-process (`engine/`) and the v4 HTTP API (`http/`). Both speak the v4 JSON
 * shapes of `plan/live.ts`; every implementation runs `contract.suite.ts`.
 */
import type {
  EntrypointBody,
  FilterBody,
  FirewallRuleBody,
  LiveEntrypoint,
  LiveFilter,
  LiveFirewallRule,
  LiveMigrationStatus,
  LiveZone,
  LiveZoneInfo,
  PlanTier,
} from '../plan/index.js';

/** The answer of the migration compatibility check. */
export interface MigrationCheck {
  compatible: boolean;
  migration_state: string;
  /** Why the zone is not compatible (the service's `messages`). */
  reasons: string[];
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
   * Finds a zone by name or id. With `create`, a missing zone is created on the embedded engine
   * (other providers refuse) and `created` is true.
   */
  resolveZone(zone: string, options?: { create?: { plan: PlanTier } }): Promise<{ zone: LiveZoneInfo; created: boolean }>;
  /** Reads all of a zone's state: one paginated list per resource type. */
  readZone(zoneId: string): Promise<LiveZone>;

  createFilters(zoneId: string, filters: FilterBody[]): Promise<LiveFilter[]>;
  updateFilters(zoneId: string, filters: (FilterBody & { id: string })[]): Promise<LiveFilter[]>;
  deleteFilters(zoneId: string, ids: string[]): Promise<void>;

  createFirewallRules(zoneId: string, rules: FirewallRuleBody[]): Promise<LiveFirewallRule[]>;
  updateFirewallRules(zoneId: string, rules: (FirewallRuleBody & { id: string })[]): Promise<LiveFirewallRule[]>;
  deleteFirewallRules(zoneId: string, ids: string[]): Promise<void>;

  /** PUT of the `http_request_firewall_managed` entry point, optionally as a migration step. */
  putEntrypoint(zoneId: string, body: EntrypointBody, options?: { wafMigration?: 'validation' | 'pending' }): Promise<LiveEntrypoint>;

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
