/**
 * The finding codes of this kind, and its finding builder (which also builds the shared codes of
 * `finding.ts`):
 *
 * | code | level | meaning |
 * |---|---|---|
 * | `page-rules-unavailable` | error | `page_rules` on a zone whose service has no Page Rules API |
 */
import { findingsOf, type FindingLevel } from '../finding.js';

/** This kind's finding codes and their levels. */
export const PageRuleFindings = {
  'page-rules-unavailable': 'error',
} as const satisfies Record<string, FindingLevel>;

type Codes = typeof PageRuleFindings;

declare module '../finding.js' {
  interface FindingCodeRegistry extends Codes {}
}

/** Builds a finding of this kind's codes or the shared ones; the level comes from the code. */
export const finding = findingsOf(PageRuleFindings);
