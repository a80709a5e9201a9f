/**
 * The embedded engine's public surface: the `Engine` (zones, in-process v4 dispatch, PITR), the
 * HTTP server of `zonewall serve`, credentials, plan limits and the v4 data shapes. Other modules
 * import the engine only through this file (and only `providers/engine/` and `cli` do).
 */
export { Engine, type EngineOptions } from './engine.js';
/** The state directory's access error, for the provider's mode tightening (`providers/engine/private-state.ts`). */
export { accessError } from '../storage/index.js';
export { startServer, type RunningServer, type ServerOptions } from './server/server.js';
export { CredentialEnv, CredentialLimits, type Credential } from './server/credentials.js';
export { loadCredentials } from './server/credentials-file.js';
export { DefaultMaxBodyBytes } from './server/body.js';
export {
  DefaultPlanLimits, resolvePlanLimits, validatePlanLimits,
  type PlanLimitsConfig, type PlanLimitsOverride, type TierLimits, type Feature,
} from './limits.js';
export { loadPlanLimitsFile } from './limits-file.js';
export { ApiError, ApiErrorCodes, type ApiErrorKind } from './api-errors.js';
export { PageLimits } from './envelope.js';
export { FilterLimits } from './filters/constants.js';
export { FirewallActions, BypassProducts, FirewallRuleLimits, type FirewallAction, type BypassProduct } from './firewall-rules/constants.js';
export { zoneToJson, EngineAccount } from './zones/json.js';
// Accounts and their lists (issue 30): the default account, the catalog's managed-list samples,
// the zone side's reference scan, for embedders, the providers and tests.
export { accountToJson, DefaultAccount, accountIdOf } from './zones/accounts.js';
export { ManagedListSamples, catalogLists, withManagedLists, type ListCatalogEntry, type CatalogHost } from './lists/catalog.js';
export { normaliseValue as normaliseListItemValue, sortKey as listItemSortKey, type ItemValue as ListItemValue } from './lists/items.js';
export type { ListReferenceInfo } from './lists/context.js';
export {
  PlanTiers,
  type PlanTier, type ZoneInfo, type AccountInfo, type ApiRequest, type ApiResponse, type Envelope, type ApiMessage, type ResultInfo, type AuthScope,
} from './types.js';
// Engine part 2: the managed rulesets catalog, the Rulesets API entry point, the previous WAF, the
// WAF migration and the trace (their words, codes and limits, for embedders and tests).
export {
  ManagedRulesets, PreviousWafPackages, ManagedRulesetId, OwaspRulesetId, FreeRulesetId, ExposedCredentialsRulesetId,
  OwaspThresholdRuleId, OwaspScoreThresholds, CloudflarePackageId, OwaspPackageId, LegacyOwaspThresholds,
  type ManagedRuleset, type ManagedRule, type LegacyPackage, type LegacyGroup, type LegacyRule,
} from './catalog/index.js';
export { ManagedPhase, CustomPhase, RulesetErrors } from './rulesets/index.js';
export { PreviousWafErrors } from './previous-waf/constants.js';
export {
  MigrationErrors, MigrationLimits, OwaspSensitivityMapping, entrypointTransition, migrationStateOf, parseMigrationMode,
  type WafState, type MigrationState, type MigrationMode,
} from './migration/index.js';
// The trace's pure evaluators (`traceZone` combines the three) and the shapes they read, so
// `zonewall test` evaluates a manifest offline with exactly the code that answers
// `POST /zones/{id}/trace` (policy tests).
export {
  traceZone, traceFirewallRules, traceCustomRules, traceEntrypoint, tracePreviousWaf, TracePhases,
  RuleIndex, guardOf, indexedTrace, type Guard, type GuardAlternative,
  type ZoneTrace, type ZoneTraceInput, type ZoneTraceDecider,
  type FirewallTrace, type FirewallMatch, type CustomTrace, type CustomMatch, type ManagedTrace, type ManagedMatch, type PreviousTrace, type LegacyMatch,
} from './trace/index.js';
// Bursts through the rate limiting rules: the counting core the engine's burst trace and `zonewall test` share.
export { traceBurst, variantCount, requestCount, requestTime, variantRequest, BurstLimits, readBurstSpec, RateLimitCounter, countingRules, prepareRequest, rateLimitStep } from './trace/index.js';
export { LegacyOwaspThresholdRuleId } from './catalog/index.js';
export type { RuleWithFilter, RuleRecord } from './firewall-rules/store.js';
export type { FilterRecord } from './filters/store.js';
export type { Entrypoint, EntrypointRule as EntrypointRuleRecord, StoredRuleset, StoredRule, StoredCustomEntrypoint, CustomStoredRule } from './rulesets/types.js';
export type { PreviousWafSettings, WafOverride } from './previous-waf/model.js';
// Page Rules (seed 002's subset): what the offline trace and `zonewall migrate` read of them.
export { pageRuleExpression, pageRulesInEvaluationOrder, wafEffect, type PageRuleLike, type PageRuleWafEffect } from './page-rules/index.js';
// The workerd runtime of `zonewall serve --runtime workerd` (deploy/worker run by Miniflare).
export { startWorkerdServer, WorkerdStateFolder, WorkerCompatibility, defaultWorkerScript, type WorkerdServerOptions, type RunningWorkerd } from './workerd-host.js';
