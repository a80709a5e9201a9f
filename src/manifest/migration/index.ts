/**
 * The WAF migration kind in the manifest: `waf_migration` (none | validation | pending), the move
 * from the previous WAF to managed rulesets (seed 002). It needs a configuration to migrate to, the
 * previous WAF is gone once the migration finishes, and validation mode needs an Enterprise plan.
 */
import type { DesiredWafMigration } from './desired.js';
import type { DesiredZone } from '../desired.js';
import type { ManifestKind, TierReport } from '../kind.js';
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

/**
 * What the service refuses for the zone's WAF state (issue 31), found before apply: managed
 * rulesets enabled on a Pro or Business zone still on the previous WAF (11007), `pending` with
 * every managed ruleset disabled (11014), a Bypass > WAF firewall rule whose expression is over
 * 4 KB of UTF-8 when the migration converts it (11003). Skipped once the zone has migrated, and
 * when a plan did not read its WAF state (the pre-flight finds them there).
 */
function checkMigrationState(desired: DesiredZone, { tier, waf, on, add }: TierReport): void {
  if (waf === 'new' || waf === 'unknown') return;
  const managed = desired.managedRules ?? [];
  const want = desired.wafMigration;
  if ((tier === 'pro' || tier === 'business') && want !== 'pending') {
    // The item's place in `managed_rules`, exceptions included (`managedRules` holds the deployments only).
    const exceptions = desired.managedExceptions ?? [];
    for (const [i, m] of managed.entries()) {
      if (!m.enabled) continue;
      add(m.location, ['managed_rules', i + exceptions.filter((e) => e.after <= i).length], `a ${tier} zone on the previous WAF may only deploy disabled managed rulesets ${on}; the service refuses this (11007): `
        + 'add waf_migration: pending to migrate with this apply (a no-op once the zone has migrated), or set enabled: false');
    }
  }
  if (want === 'pending' && desired.managedRules !== undefined && !managed.some((m) => m.enabled)) {
    add(desired.locations.waf_migration, ['waf_migration'], 'waf_migration: pending needs at least one enabled managed ruleset: the migration switches the previous WAF off, and the service refuses it with every managed ruleset disabled (11014)');
  }
  if (want === 'pending' || want === 'validation') {
    const filters = new Map(desired.filters.map((f) => [f.ref, f]));
    for (const r of desired.firewallRules) {
      if (r.action !== 'bypass' || !r.products.includes('waf')) continue;
      const bytes = new TextEncoder().encode(filters.get(r.filterRef)?.expression ?? '').length;
      if (bytes <= MigrationExpressionBytes) continue;
      add(r.location, ['firewall_rules', r.ref], `this Bypass > WAF rule's expression has ${bytes} bytes of UTF-8; the migration converts at most ${MigrationExpressionBytes} bytes (4 KB) and the service refuses the zone's migration (11003): shorten it`);
    }
  }
}

/** Bytes of UTF-8 a converted firewall rule's expression may have (the service's 4 KB, 11003). */
const MigrationExpressionBytes = 4096;

/** The WAF migration mode. */
export const migrationKind: ManifestKind = {
  name: 'migration',
  sections: ['waf_migration'],
  check: checkMigration,
  normalize(zone, checks, data) {
    if (data.waf_migration !== undefined && checks.isClean(['waf_migration'])) zone.wafMigration = data.waf_migration as DesiredWafMigration;
  },
  checkTier(desired, report) {
    const { tier, on, add } = report;
    if (desired.wafMigration === 'validation' && tier !== 'enterprise') {
      add(desired.locations.waf_migration, ['waf_migration'], `validation mode needs an Enterprise plan ${on}; `
        + 'use waf_migration: pending to migrate in one step');
    }
    checkMigrationState(desired, report);
  },
};
