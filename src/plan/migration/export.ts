/**
 * Export of `waf_migration` from the zone's migration state.
 */
import type { LiveZone } from '../live.js';

/**
 * `waf_migration` from the zone's state: `none` while only the previous WAF runs (and the zone
 * has one), `validation` while both run; left out once migrated, as the schema asks.
 */
export function exportWafMigration(live: LiveZone, hasManagedRules: boolean): 'none' | 'validation' | undefined {
  const state = live.migration?.waf_state;
  if (state === 'previous_only') return live.previousWaf !== null ? 'none' : undefined;
  if (state === 'both') return hasManagedRules ? 'validation' : undefined;
  return undefined;
}
