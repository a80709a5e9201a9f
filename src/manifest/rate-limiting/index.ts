/**
 * The rate limiting kind in the manifest: `rate_limiting_rules`, the `http_ratelimit` phase entry
 * point of the Rulesets API (security-phases.md §1). It checks each rule's expressions and fields,
 * writes the zone's `rateLimitingRules` in key order, and reports what the plan tier does not allow.
 */
import type { ManifestKind } from '../kind.js';
import { checkRateLimitExpressions, checkRateLimitRules, type CheckedRateLimit } from './check.js';
import { normalizeRateLimitRules } from './normalize.js';
import { checkRateLimitTier } from './tier.js';

/** Rate limiting rules. */
export const rateLimitingKind: ManifestKind<(CheckedRateLimit | undefined)[]> = {
  name: 'rate-limiting',
  sections: ['rate_limiting_rules'],
  checkExpressions: checkRateLimitExpressions,
  check: checkRateLimitRules,
  normalize: normalizeRateLimitRules,
  checkTier: checkRateLimitTier,
};
