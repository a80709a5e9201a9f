/**
 * Wire contract of the WAF migration API (seed 002, reference §6): check, config and status routes,
 * the `waf_migration` / `phase_two` query parameters (also on the PUT of the managed entry point),
 * result shapes and the migration's error codes (zonewall's: the real API publishes none), with
 * their HTTP statuses. Types and constants only.
 */

/** Route patterns. The step that moves a zone is the PUT of the managed entry point (rulesets.ts). */
export const MigrationRoutes = {
  check: '/zones/:zone_id/waf_migration/check',
  config: '/zones/:zone_id/waf_migration/config',
  status: '/zones/:zone_id/waf_migration/status',
} as const;

/**
 * Query parameters. `waf_migration`: `pending` or `1`, `validation` or `2` (entry point PUT only).
 * `phase_two`: `1` (or `true`) selects phase-2 behaviour on check, config and the entry point PUT;
 * absent (or `0`/`false`) applies phase 1's admission rules (`MigrationErrors.phaseOne*`).
 */
export const MigrationQuery = {
  wafMigration: 'waf_migration',
  phaseTwo: 'phase_two',
  wafMigrationValues: { pending: ['pending', '1'], validation: ['validation', '2'] },
  phaseTwoValues: { on: ['1', 'true'], off: ['0', 'false'] },
} as const;

/** A `waf_migration` mode. */
export type MigrationMode = 'pending' | 'validation';
/** Which WAF versions run on a zone (seed: previous only, both, new only). */
export const WafStates = ['previous_only', 'both', 'new_only'] as const;
/** One of `WafStates`. */
export type WafState = (typeof WafStates)[number];
/** `migration_state`: `start` (real), then zonewall's values. */
export type MigrationState = 'start' | 'validation' | 'completed';

/** One reason a zone is not compatible (the code of the refusal a migration PUT would get). */
export interface MigrationReason {
  code: number;
  message: string;
}

/**
 * `result` of the check. `compatible` and `migration_state` are real; `phase` (1 or 2, what was
 * checked) and `reasons` (empty when compatible) are zonewall's: a successful answer keeps
 * `errors` and `messages` empty, as the seed says.
 */
export interface MigrationCheckResult {
  compatible: boolean;
  migration_state: MigrationState;
  phase: 1 | 2;
  reasons: MigrationReason[];
}

/** A rule of the config result: server fields as empty strings (seed). */
export interface MigrationConfigRule {
  id: '';
  version: '';
  ref: '';
  action: 'execute' | 'skip';
  expression: string;
  description: string;
  enabled: boolean;
  action_parameters: Record<string, unknown>;
  logging?: { enabled: boolean };
}

/** `result` of the config: an entry point body ready for the PUT. */
export interface MigrationConfigResult {
  name: 'default';
  rules: MigrationConfigRule[];
}

/** `result` of the status. `created`/`source` appear once a migration began. */
export interface MigrationStatusResult {
  migration_state: MigrationState;
  old_waf_status: 'enabled' | 'disabled';
  new_waf_status: 'enabled' | 'disabled';
  waf_state: WafState;
  created?: string;
  source?: 'api' | 'zone_creation';
}

/**
 * Error codes of the migration (zonewall's 11xxx range) and their HTTP statuses.
 *
 * | code  | HTTP | condition |
 * |-------|------|-----------|
 * | 11001 | 400  | the zone has URI-based WAF overrides (delete them first) |
 * | 11002 | 400  | more than 200 firewall rules to migrate |
 * | 11003 | 400  | a firewall rule to migrate has an expression over 4 KB |
 * | 11004 | 403  | `waf_migration=validation` on a zone that is not Enterprise |
 * | 11005 | 400  | the zone already finished its migration |
 * | 11006 | 400  | a Free zone asked to migrate |
 * | 11007 | 400  | Pro/Business zone not migrated: entry point rules must all be disabled |
 * | 11008 | 400  | bad `waf_migration` value |
 * | 11010 | 403  | previous WAF API called after the migration |
 * | 11011 | 403  | previous WAF API called on a Free zone |
 * | 11012 | 400  | phase 1 (no `phase_two=1`): the OWASP package is enabled with the WAF on |
 * | 11013 | 400  | phase 1: firewall rules or Page Rules bypass, enable or disable WAF managed rules |
 * | 11014 | 400  | `waf_migration=pending` without an enabled `execute` rule |
 * | 11015 | 400  | bad `phase_two` value |
 */
export const MigrationErrors = {
  uriOverrides: { code: 11001, status: 400 },
  tooManyFirewallRules: { code: 11002, status: 400 },
  expressionTooLong: { code: 11003, status: 400 },
  validationEnterpriseOnly: { code: 11004, status: 403 },
  alreadyMigrated: { code: 11005, status: 400 },
  freePlan: { code: 11006, status: 400 },
  enabledRulesBeforeMigration: { code: 11007, status: 400 },
  invalidMode: { code: 11008, status: 400 },
  previousWafRetired: { code: 11010, status: 403 },
  previousWafUnavailable: { code: 11011, status: 403 },
  phaseOneOwasp: { code: 11012, status: 400 },
  phaseOneBypass: { code: 11013, status: 400 },
  pendingWithoutEnabledRuleset: { code: 11014, status: 400 },
  invalidPhaseTwo: { code: 11015, status: 400 },
} as const;

/** The name of one migration error. */
export type MigrationErrorKind = keyof typeof MigrationErrors;
