/**
 * The finding codes of this kind, and its finding builder (which also builds the shared codes of
 * `finding.ts`):
 *
 * | code | level | meaning |
 * |---|---|---|
 * | `duplicate-expression` | error | a filter to create has the expression of a filter the zone keeps; the service refuses duplicates |
 * | `duplicate-desired-expression` | error | two filters of the manifest have the same expression |
 * | `missing-filter` | error | a firewall rule names a filter the manifest does not declare |
 * | `locked-filter-duplicate` | error | a simplified-flow filter with the same expression blocks a create |
 * | `filter-still-used` | warning | a filter left the manifest but an unmanaged rule still uses it: kept |
 * | `locked-filter-orphan` | warning | a simplified-flow filter without a rule: the API can neither delete nor change it |
 * | `filter-lock-unknown` | warning | the service does not say which filters the simplified flow created; a write to one zonewall did not create may be refused (10104) |
 */
import { findingsOf, type FindingLevel } from '../finding.js';

/** This kind's finding codes and their levels. */
export const FirewallFindings = {
  'duplicate-expression': 'error',
  'duplicate-desired-expression': 'error',
  'missing-filter': 'error',
  'locked-filter-duplicate': 'error',
  'filter-still-used': 'warning',
  'locked-filter-orphan': 'warning',
  'filter-lock-unknown': 'warning',
} as const satisfies Record<string, FindingLevel>;

type Codes = typeof FirewallFindings;

declare module '../finding.js' {
  interface FindingCodeRegistry extends Codes {}
}

/** Builds a finding of this kind's codes or the shared ones; the level comes from the code. */
export const finding = findingsOf(FirewallFindings);
