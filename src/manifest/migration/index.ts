/**
 * The WAF migration kind in the manifest: `waf_migration` (none | validation | pending), the move
 * from the previous WAF to managed rulesets (seed 002). It needs a configuration to migrate to, the
 * previous WAF is gone once the migration finishes, and validation mode needs an Enterprise plan.
 */
import type { DesiredWafMigration } from './desired.js';
import type { ManifestKind } from '../kind.js';
import type { Checks } from '../view.js';

/** Checks `waf_migration` against the sections it depends on. */
function checkMigration(checks: Checks, data: Record<string, unknown>): void {
  if (data.waf_migration === 'pending' && data.previous_waf !== undefined) {
    checks.report(['previous_waf'], 'the previous WAF is gone once migration finishes (waf_migration: pending); '
      + 'remove previous_waf or run zonewall migrate', 'key');
  }
  if ((data.waf_migration === 'validation' || data.waf_migration === 'pending') && data.managed_rules === undefined) {
    checks.report(['waf_migration'], `waf_migration: ${data.waf_migration} needs a managed_rules section: `
      + 'the managed rulesets to migrate to (see zonewall migrate)');
  }
}

/** The WAF migration mode. */
export const migrationKind: ManifestKind = {
  name: 'migration',
  sections: ['waf_migration'],
  check: checkMigration,
  normalize(zone, checks, data) {
    if (data.waf_migration !== undefined && checks.isClean(['waf_migration'])) zone.wafMigration = data.waf_migration as DesiredWafMigration;
  },
  checkTier(desired, { tier, on, add }) {
    if (desired.wafMigration === 'validation' && tier !== 'enterprise') {
      add(desired.locations.waf_migration, ['waf_migration'], `validation mode needs an Enterprise plan ${on}; `
        + 'use waf_migration: pending to migrate in one step');
    }
  },
};
