/**
 * Which WAF generation a manifest means, when it says so and when it does not.
 */
import type { DesiredWafMigration } from './desired.js';

/** Which WAF generation a manifest means: `previous` (the previous WAF runs) or `new` (managed rulesets only). */
export type WafGeneration = 'previous' | 'new';

/**
 * The generation a manifest means (issue 32). Decision: a manifest with neither `previous_waf` nor
 * `waf_migration` means the new WAF, as every real zone has run since the previous WAF's APIs
 * ended (2025-06-15); `waf_migration` says it outright (`pending`: new; `none`, `validation`: the
 * previous WAF still runs), and a `previous_waf` section means the previous WAF. `zonewall test`
 * evaluates this generation offline, the embedded engine creates a missing zone in it, and
 * `export` writes `waf_migration: none` for a zone that still runs the previous WAF, so offline and
 * live verdicts agree by construction.
 * @example wafGenerationOf(desired) // 'new' for a manifest that says nothing
 */
export function wafGenerationOf(desired: { wafMigration?: DesiredWafMigration | undefined; previousWaf?: unknown }): WafGeneration {
  if (desired.wafMigration !== undefined) return desired.wafMigration === 'pending' ? 'new' : 'previous';
  return desired.previousWaf !== undefined ? 'previous' : 'new';
}

/**
 * The generation a zone made for this manifest starts on, before its first apply: the previous WAF
 * when the manifest says anything of the migration (even `pending`: the zone migrates at that
 * apply) or has `previous_waf`; else the new WAF. `validate --plan TIER` checks such a zone.
 */
export function startingWafGenerationOf(desired: { wafMigration?: DesiredWafMigration | undefined; previousWaf?: unknown }): WafGeneration {
  return desired.wafMigration !== undefined ? 'previous' : wafGenerationOf(desired);
}
