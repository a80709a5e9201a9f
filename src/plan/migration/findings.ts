/**
 * The finding codes of this kind, and its finding builder (which also builds the shared codes of
 * `finding.ts`):
 *
 * | code | level | meaning |
 * |---|---|---|
 * | `migration-blocked` | error | URI-based WAF overrides block the migration |
 * | `migration-step-unavailable` | error | apply cannot build the migration step's body (the service's proposed configuration is missing): `zonewall migrate --mode` takes it |
 * | `flips-waf-migration` | danger | the WAF migration moves on (irreversible for `pending`) |
 * | `migration-irreversible` | error | the manifest asks for an earlier migration state than the zone's |
 * | `migration-unavailable` | warning | the service does not report the migration state |
 * | `migration-without-rules` | warning | migrating while the manifest has no `managed_rules`: the service's proposal is deployed as it is |
 */
import { findingsOf, type FindingLevel } from '../finding.js';

/** This kind's finding codes and their levels. */
export const MigrationFindings = {
  'migration-blocked': 'error',
  'migration-step-unavailable': 'error',
  'flips-waf-migration': 'danger',
  'migration-irreversible': 'error',
  'migration-unavailable': 'warning',
  'migration-without-rules': 'warning',
} as const satisfies Record<string, FindingLevel>;

type Codes = typeof MigrationFindings;

declare module '../finding.js' {
  interface FindingCodeRegistry extends Codes {}
}

/** Builds a finding of this kind's codes or the shared ones; the level comes from the code. */
export const finding = findingsOf(MigrationFindings);
