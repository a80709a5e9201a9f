/**
 * The managed rules kind in the manifest: `managed_rules`, the `http_request_firewall_managed` entry
 * point (execute rules, overrides, the OWASP shorthands). It checks each item's expression, refs,
 * overrides and the catalog, and writes the zone's `managedRules` with aliases resolved.
 */
import type { CheckedExpression } from '../expression-check.js';
import type { ManifestKind } from '../kind.js';
import { checkManagedCatalog } from './check-catalog.js';
import { checkManagedExpressions, checkManagedRules } from './check.js';
import { checkManagedExceptions } from './check-exceptions.js';
import { normalizeManagedRules } from './normalize.js';
import { checkManagedTier } from './tier.js';

export {
  ManagedRulesetAliases, OwaspAnomalyRuleId, OwaspRulesetId, OwaspScoreThresholds, resolveManagedRuleset,
} from './catalog.js';
export { managedEntrypointRules, skippedRulesetIds, type DesiredManagedEntry } from './entries.js';

/** Managed rulesets. */
export const managedRulesKind: ManifestKind<(CheckedExpression | undefined)[]> = {
  name: 'managed-rules',
  sections: ['managed_rules'],
  checkExpressions: checkManagedExpressions,
  check(checks, data) {
    checkManagedRules(checks, data);
    checkManagedCatalog(checks, data);
    checkManagedExceptions(checks, data);
  },
  normalize: normalizeManagedRules,
  checkTier: checkManagedTier,
};
