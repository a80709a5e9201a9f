/**
 * What a zone's plan tier allows of filters and firewall rules (reference/api-facts.md §3):
 *
 * | feature                               | needs                                          |
 * |---------------------------------------|------------------------------------------------|
 * | firewall rule action `log`            | enterprise                                     |
 * | the `matches` operator in a filter    | business or enterprise                         |
 * | active (not paused) firewall rules    | free 5, pro 20, business 100, enterprise 1000  |
 * | a plan-gated field in a filter        | its tier (`PlanGatedFields`), as the filters API refuses it |
 */
import type { DesiredZone } from '../desired.js';
import type { DocPath } from '../errors.js';
import type { TierReport } from '../kind.js';
import { gatedFieldIssues, tierAtLeast, usesMatches } from '../plan-tier.js';
import type { DesiredFilter, DesiredFirewallRule } from './desired.js';

/** Active (not paused) firewall rules allowed per plan tier (reference/api-facts.md §3). */
export const ActiveRuleQuota = { free: 5, pro: 20, business: 100, enterprise: 1000 } as const;

function filterPath(filter: DesiredFilter): DocPath {
  return filter.inline ? ['firewall_rules', filter.ref, 'filter', 'expression'] : ['filters', filter.ref, 'expression'];
}

/** Reports the firewall rules and filters the tier does not allow. */
export function checkFirewallTier(desired: DesiredZone, report: TierReport): void {
  const { tier, on, add } = report;
  // Index loops, and the active rules counted rather than listed: a zone is checked at validation
  // and again at plan time, and its 1,000 rules are walked mostly before V8 optimises the loop.
  const rules = desired.firewallRules;
  const quota = ActiveRuleQuota[tier];
  let active = 0;
  let firstOver: DesiredFirewallRule | undefined;
  for (let i = 0; i < rules.length; i++) {
    const rule = rules[i];
    if (rule.action === 'log' && tier !== 'enterprise') {
      add(rule.fieldLocations?.action ?? rule.location, ['firewall_rules', rule.ref, 'action'], `log needs an Enterprise plan ${on}`);
    }
    if (!rule.paused && active++ === quota) firstOver = rule;
  }
  for (let i = 0; i < desired.filters.length; i++) {
    const filter = desired.filters[i];
    gatedFieldIssues(filter.expression, filter.fieldLocations?.expression ?? filter.location, filterPath(filter), report);
  }
  if (!tierAtLeast(tier, 'business')) {
    for (let i = 0; i < desired.filters.length; i++) {
      const filter = desired.filters[i];
      if (!usesMatches(filter.expression)) continue;
      add(filter.fieldLocations?.matches ?? filter.fieldLocations?.expression ?? filter.location, filterPath(filter),
        `the matches operator needs a Business or Enterprise plan ${on}`);
    }
  }
  if (firstOver !== undefined) {
    add(firstOver.location, ['firewall_rules', firstOver.ref], `the ${tier} plan allows ${quota} active firewall rules and this is `
      + `active rule ${quota + 1} of ${active}: pause or remove ${active - quota}, or use a higher plan`);
  }
}
