/**
 * Limits and error codes of the WAF migration. The limits are the seed's (at most 200 firewall rules
 * to migrate, expressions of at most 4 KB); the error codes are zonewall's, since the reference has
 * none for these conditions, in an 11xxx range of their own, listed here once:
 *
 * | code  | HTTP | condition |
 * |-------|------|-----------|
 * | 11001 | 400  | the zone has URI-based WAF overrides (delete them first) |
 * | 11002 | 400  | more than 200 firewall rules to migrate |
 * | 11003 | 400  | a firewall rule to migrate has an expression over 4 KB (4096 bytes of UTF-8) |
 * | 11004 | 403  | `waf_migration=validation` on a zone that is not Enterprise |
 * | 11005 | 400  | the zone already finished its migration (`new only`) |
 * | 11006 | 400  | a Free zone asked to migrate (it has no previous WAF) |
 * | 11007 | 400  | Pro/Business zone not migrated: entry point rules must all be disabled |
 * | 11008 | 400  | bad `waf_migration` value |
 * | 11010 | 403  | previous WAF API called after the migration |
 * | 11011 | 403  | previous WAF API called on a Free zone |
 * | 11012-11015 | 400 | phase-1 admission, pending without an enabled execute rule, bad phase_two (see `src/api/migration.ts`) |
 */

/** The seed's limits on what a migration can carry. */
export const MigrationLimits = {
  /** Firewall rules that bypass WAF managed rules, the ones the migration converts. */
  firewallRules: 200,
  /** Bytes of UTF-8 in one such rule's expression (4 KB). */
  expressionBytes: 4096,
} as const;

/** Error codes and HTTP statuses of the migration's refusals: the wire contract's table (`src/api/migration.ts`). */
export { MigrationErrors, type MigrationErrorKind } from '../../api/index.js';
