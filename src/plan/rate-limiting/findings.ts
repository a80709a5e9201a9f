/**
 * The finding codes of this kind, and its finding builder:
 *
 * | code | level | meaning |
 * |---|---|---|
 * | `weakens-rate-limit` | danger | a rate limiting rule lets more through: a higher threshold, a longer period for the same count, a shorter mitigation timeout, a narrower counting, a stopping action turned into `log` |
 * | `disables-rate-limit` | danger | a rate limiting rule that stops traffic is disabled or deleted |
 */
import { findingsOf, type FindingLevel } from '../finding.js';

/** This kind's finding codes and their levels. */
export const RateLimitFindings = {
  'weakens-rate-limit': 'danger',
  'disables-rate-limit': 'danger',
} as const satisfies Record<string, FindingLevel>;

type Codes = typeof RateLimitFindings;

declare module '../finding.js' {
  interface FindingCodeRegistry extends Codes {}
}

/** Builds a finding of this kind's codes or the shared ones. */
export const finding = findingsOf(RateLimitFindings);
