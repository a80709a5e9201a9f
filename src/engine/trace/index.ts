/**
 * The trace operation as a zone resource module (no tables: it only reads the other modules').
 */
import type { ResourceModule } from '../context.js';
import { traceRoutes } from './handlers.js';

/** The trace's resource module. */
export const traceResource: ResourceModule = { name: 'trace', schema: [], routes: traceRoutes };

export { traceZone, type ZoneTrace, type ZoneTraceInput, type ZoneTraceDecider } from './zone.js';
export { traceFirewallRules, type FirewallTrace, type FirewallMatch } from './firewall.js';
export { traceCustomRules, customRulesNotRun, type CustomTrace, type CustomMatch } from './custom.js';
export { traceEntrypoint, type ManagedTrace, type ManagedMatch } from './managed.js';
export { tracePreviousWaf, type PreviousTrace, type LegacyMatch } from './previous.js';
export { TracePhases } from './matchers.js';
export { RuleIndex } from './rule-index.js';
export { guardOf, type Guard, type GuardAlternative } from './rule-guard.js';
export { indexedTrace } from './indexed.js';
export { urlMatches } from './url-pattern.js';
export { firstPageRule } from './page-rules.js';
export { traceBurst, variantCount, requestCount, requestTime, variantRequest, BurstLimits } from './burst.js';
export { readBurstSpec } from './burst-request.js';
export { RateLimitCounter } from './ratelimit-counter.js';
export { countingRules, prepareRequest, rateLimitStep, counterKey, type CountingRule, type RulePrepared } from './ratelimit.js';
