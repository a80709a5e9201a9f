/**
 * The custom rules kind in the manifest: `custom_rules`, the `http_request_firewall_custom` phase
 * entry point of the Rulesets API (reference/custom-rules.md). It checks each rule's expression and
 * which fields go with its action, and writes the zone's `customRules` in key order.
 */
import type { CheckedExpression } from '../expression-check.js';
import type { ManifestKind } from '../kind.js';
import { checkCustomExpressions, checkCustomRules } from './check.js';
import { normalizeCustomRules } from './normalize.js';
import { checkCustomTier } from './tier.js';

export { CustomRuleQuota } from './tier.js';

/** WAF custom rules. */
export const customRulesKind: ManifestKind<(CheckedExpression | undefined)[]> = {
  name: 'custom-rules',
  sections: ['custom_rules'],
  checkExpressions: checkCustomExpressions,
  check: checkCustomRules,
  normalize: normalizeCustomRules,
  checkTier: checkCustomTier,
};
