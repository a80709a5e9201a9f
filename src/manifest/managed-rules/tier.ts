/**
 * What a zone's plan tier allows of managed rulesets (reference/api-facts.md §4): a free zone may
 * deploy only the Free Managed Ruleset; every other managed ruleset needs Pro or higher.
 */
import type { DesiredZone } from '../desired.js';
import type { TierReport } from '../kind.js';
import { FreeRulesetId } from './catalog.js';

/** Reports the managed rulesets the tier does not allow. */
export function checkManagedTier(desired: DesiredZone, { tier, on, add }: TierReport): void {
  if (tier !== 'free') return;
  for (const [i, m] of (desired.managedRules ?? []).entries()) {
    if (m.rulesetId === FreeRulesetId) continue;
    add(m.fieldLocations?.ruleset ?? m.location, ['managed_rules', i, 'ruleset'], `this managed ruleset needs a Pro plan or higher ${on}; `
      + 'a free zone can deploy only the free ruleset');
  }
}
