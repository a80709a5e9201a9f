/**
 * The one registration list of the kinds the manifest knows, each a folder of this directory. The
 * order is the order in which every stage calls them, and so the order of the plan-tier issues a
 * plan reports: firewall, custom rules, Page Rules, managed rules, previous WAF, WAF migration.
 * Its re-exports are what the kinds give other modules. Adding a kind is adding its folder and a
 * line here.
 */
import { customRulesKind } from './custom-rules/index.js';
import { firewallKind } from './firewall/index.js';
import type { ManifestKind } from './kind.js';
import { managedRulesKind } from './managed-rules/index.js';
import { migrationKind } from './migration/index.js';
import { pageRulesKind } from './page-rules/index.js';
import { previousWafKind } from './previous-waf/index.js';
import { rateLimitingKind } from './rate-limiting/index.js';

// Each kind's desired objects (and its fields of `DesiredZone`), defined in its folder.
export type * from './firewall/desired.js';
export type * from './custom-rules/desired.js';
export type * from './managed-rules/desired.js';
export type * from './previous-waf/desired.js';
export type * from './page-rules/desired.js';
export type * from './migration/desired.js';
export type * from './rate-limiting/desired.js';

// Their constants that other modules use (the planner, policy tests, migrate).
export { ActiveRuleQuota, FirewallActionPrecedence, firewallEvaluationOrder, type OrderedRule } from './firewall/index.js';
export { CustomRuleQuota } from './custom-rules/index.js';
export { PageRuleQuota } from './page-rules/index.js';
export { ManagedRulesetAliases, OwaspRulesetId, OwaspAnomalyRuleId, OwaspScoreThresholds, resolveManagedRuleset } from './managed-rules/index.js';
export { managedEntrypointRules, skippedRulesetIds, type DesiredManagedEntry } from './managed-rules/index.js';
export { PreviousWafPackageAliases, resolvePackage } from './previous-waf/index.js';
export { startingWafGenerationOf, wafGenerationOf, type WafGeneration } from './migration/generation.js';

/** Every kind, in the order the stages call them. */
export const kinds: readonly ManifestKind[] = [
  firewallKind, customRulesKind, pageRulesKind, managedRulesKind, previousWafKind, migrationKind,
  rateLimitingKind,
];
