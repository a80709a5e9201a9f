/**
 * What a zone's plan tier allows of managed rulesets (reference/api-facts.md §4): a free zone may
 * deploy only the Free Managed Ruleset; every other managed ruleset needs Pro or higher. The
 * expressions of the entry point's rules, exceptions included, are held to the plan-gated fields
 * (`PlanGatedFields`), as the service refuses them (20204).
 */
import { ManagedPhase } from '../../api/index.js';
import type { DesiredZone } from '../desired.js';
import type { TierReport } from '../kind.js';
import { gatedFieldIssues } from '../plan-tier.js';
import { FreeRulesetId } from './catalog.js';

/** Reports the managed rulesets the tier does not allow. */
export function checkManagedTier(desired: DesiredZone, report: TierReport): void {
  const { tier, on, add } = report;
  // An item's place in `managed_rules` interleaves deployments and exceptions (`after`: the deployments before it).
  const exceptions = desired.managedExceptions ?? [];
  exceptions.forEach((e, j) => {
    gatedFieldIssues(e.expression, e.fieldLocations?.expression ?? e.location, ['managed_rules', e.after + j, 'expression'], report, ManagedPhase);
  });
  const itemOf = (i: number): number => i + exceptions.filter((e) => e.after <= i).length;
  (desired.managedRules ?? []).forEach((m, i) => {
    gatedFieldIssues(m.expression, m.fieldLocations?.expression ?? m.location, ['managed_rules', itemOf(i), 'expression'], report, ManagedPhase);
  });
  if (tier !== 'free') return;
  for (const [i, m] of (desired.managedRules ?? []).entries()) {
    if (m.rulesetId === FreeRulesetId) continue;
    add(m.fieldLocations?.ruleset ?? m.location, ['managed_rules', itemOf(i), 'ruleset'], `this managed ruleset needs a Pro plan or higher ${on}; `
      + 'a free zone can deploy only the free ruleset');
  }
}
