/**
 * The finding codes of this kind, and its finding builder (which also builds the shared codes of
 * `finding.ts`):
 *
 * | code | level | meaning |
 * |---|---|---|
 * | `unknown-previous-waf-object` | error | a previous-WAF package, group or rule the zone does not have |
 * | `invalid-previous-waf-setting` | error | a previous-WAF setting the object does not allow |
 * | `previous-waf-unavailable` | error | `previous_waf` on a zone whose previous WAF does not answer (migrated: run `zonewall migrate PATH --write`) |
 * | `weakens-previous-waf` | danger | a previous-WAF package, group or rule stops blocking |
 */
import { findingsOf, type FindingLevel } from '../finding.js';

/** This kind's finding codes and their levels. */
export const PreviousWafFindings = {
  'unknown-previous-waf-object': 'error',
  'invalid-previous-waf-setting': 'error',
  'previous-waf-unavailable': 'error',
  'weakens-previous-waf': 'danger',
} as const satisfies Record<string, FindingLevel>;

type Codes = typeof PreviousWafFindings;

declare module '../finding.js' {
  interface FindingCodeRegistry extends Codes {}
}

/** Builds a finding of this kind's codes or the shared ones; the level comes from the code. */
export const finding = findingsOf(PreviousWafFindings);
