/**
 * Export of `waf_migration` from the zone's migration state.
 */
import type { LiveZone } from '../live.js';

/**
 * `waf_migration` from the zone's state: `none` while only the previous WAF runs, `validation`
 * while both run; left out once migrated, as the schema asks. A manifest without it means the new
 * WAF (`wafGenerationOf`), so a zone that still runs the previous WAF always gets `none` (a Free
 * zone too: the generation is what the zone runs, whatever its tier lets the previous WAF do).
 */
export function exportWafMigration(live: LiveZone, hasManagedRules: boolean): 'none' | 'validation' | undefined {
  const state = live.migration?.waf_state;
  if (state === 'previous_only') return 'none';
  if (state === 'both') return hasManagedRules ? 'validation' : undefined;
  return undefined;
}
