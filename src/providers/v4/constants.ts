/**
 * Fixed figures and paths of the v4 API that both providers share: the page size of list calls,
 * the batch size of bulk writes, how many reads run at once, and the zone-scoped resource paths.
 */
import {
  ApiErrorCodes, CustomPhase, FilterPaths, FirewallRulePaths, ManagedPhase, MigrationErrors, PageLimits, RulesetErrorCodes, ZonePageLimits,
  ZonePaths,
} from '../../api/index.js';

/** Page, batch and concurrency limits of the v4 client. */
export const V4Limits = {
  /**
   * Items per list page: the largest `per_page` the filters, firewall rules and previous WAF lists
   * accept (their ranges are 5..100), so reading N objects costs ceil(N / 100) requests.
   */
  perPage: PageLimits.maxPerPage,
  /** Items per page of the zones list: its `per_page` range is 5..50. */
  zonesPerPage: ZonePageLimits.maxPerPage,
  /**
   * Objects per bulk write (POST/PUT arrays, `DELETE ?id=..`). The service documents no cap;
   * 100 matches the page size and keeps a `DELETE` query (100 x 36 bytes) far below URL limits.
   */
  batchSize: 100,
  /** Independent reads of `readZone` in flight at once (the HTTP pool has as many connections). */
  readConcurrency: 4,
  /** Attempts of a create whose answer was lost (each re-reads by `ref` before sending again). */
  createAttempts: 5,
} as const;

/** The phases whose entry points the providers read and write (from the wire contract). */
export { CustomPhase, ManagedPhase };

/** Service error codes the client branches on (from the reference; see api-facts.md). */
export const V4Codes = {
  /** `could not find entrypoint ruleset in the <phase> phase` (404). */
  entrypointNotFound: RulesetErrorCodes.entrypointNotFound.code,
  /** zonewall engine: no rule with that id in the ruleset (PATCH/DELETE of one rule; 404). */
  ruleNotFound: RulesetErrorCodes.ruleNotFound.code,
  /** A filter with the same expression exists; `meta.id` names it. */
  duplicateFilter: ApiErrorCodes.duplicateFilter.code,
  /** A simplified-flow filter refuses PUT and DELETE: how a client without `locked` learns it. */
  filterLocked: ApiErrorCodes.filterLocked.code,
  /** zonewall engine: the previous WAF's APIs after the zone migrated (403). */
  previousWafRetired: MigrationErrors.previousWafRetired.code,
  /** zonewall engine: the previous WAF on a Free zone, which has none (403). */
  previousWafUnavailable: MigrationErrors.previousWafUnavailable.code,
} as const;

/** Builds zone-scoped paths; ids are URL-encoded so a malformed id cannot change the route. */
export const V4Paths = {
  zones: () => ZonePaths.collection,
  zone: (zoneId: string) => fill(ZonePaths.item, { zone_id: zoneId }),
  filters: (zoneId: string) => fill(FilterPaths.collection, { zone_id: zoneId }),
  firewallRules: (zoneId: string) => fill(FirewallRulePaths.collection, { zone_id: zoneId }),
  entrypoint: (zoneId: string, phase: string = ManagedPhase) => `/zones/${enc(zoneId)}/rulesets/phases/${enc(phase)}/entrypoint`,
  /** Single-rule POST of a ruleset (an entry point's id works). */
  rulesetRules: (zoneId: string, rulesetId: string) => `/zones/${enc(zoneId)}/rulesets/${enc(rulesetId)}/rules`,
  /** Single-rule PATCH and DELETE. */
  rulesetRule: (zoneId: string, rulesetId: string, ruleId: string) => `/zones/${enc(zoneId)}/rulesets/${enc(rulesetId)}/rules/${enc(ruleId)}`,
  wafPackages: (zoneId: string) => `/zones/${enc(zoneId)}/firewall/waf/packages`,
  wafPackage: (zoneId: string, packageId: string) => `/zones/${enc(zoneId)}/firewall/waf/packages/${enc(packageId)}`,
  wafGroups: (zoneId: string, packageId: string) => `${V4Paths.wafPackage(zoneId, packageId)}/groups`,
  wafGroup: (zoneId: string, packageId: string, groupId: string) => `${V4Paths.wafGroups(zoneId, packageId)}/${enc(groupId)}`,
  wafRules: (zoneId: string, packageId: string) => `${V4Paths.wafPackage(zoneId, packageId)}/rules`,
  wafRule: (zoneId: string, packageId: string, ruleId: string) => `${V4Paths.wafRules(zoneId, packageId)}/${enc(ruleId)}`,
  wafOverrides: (zoneId: string) => `/zones/${enc(zoneId)}/firewall/waf/overrides`,
  wafOverride: (zoneId: string, overrideId: string) => `/zones/${enc(zoneId)}/firewall/waf/overrides/${enc(overrideId)}`,
  migrationCheck: (zoneId: string) => `/zones/${enc(zoneId)}/waf_migration/check`,
  migrationConfig: (zoneId: string) => `/zones/${enc(zoneId)}/waf_migration/config`,
  migrationStatus: (zoneId: string) => `/zones/${enc(zoneId)}/waf_migration/status`,
  pageRules: (zoneId: string) => `/zones/${enc(zoneId)}/pagerules`,
  pageRule: (zoneId: string, ruleId: string) => `/zones/${enc(zoneId)}/pagerules/${enc(ruleId)}`,
  /** zonewall engine extension: what the zone would do to a request. */
  trace: (zoneId: string) => `/zones/${enc(zoneId)}/trace`,
  traceBurst: (zoneId: string) => `/zones/${enc(zoneId)}/trace/burst`,
  /** The service's request tracer, on an account. */
  requestTrace: (accountId: string) => `/accounts/${enc(accountId)}/request-tracer/trace`,
  /** zonewall engine extension: the request tracer, several requests in one call. */
  requestTraceBatch: (accountId: string) => `/accounts/${enc(accountId)}/request-tracer/trace/batch`,
} as const;

function enc(segment: string): string {
  return encodeURIComponent(segment);
}

/** A wire contract route pattern with its `:name` segments filled (URL-encoded). */
export function fill(pattern: string, params: Record<string, string>): string {
  return pattern.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new TypeError(`route ${pattern} needs ${name}`);
    return enc(value);
  });
}
