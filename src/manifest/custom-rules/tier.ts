/**
 * What a zone's plan tier allows of WAF custom rules (reference/custom-rules.md §2):
 *
 * | feature                               | needs                                          |
 * |---------------------------------------|------------------------------------------------|
 * | custom rules (enabled or not)         | free 5, pro 20, business 100, enterprise 1000  |
 * | custom rule action `log`              | enterprise                                     |
 * | `matches` in a custom rule            | business or enterprise                         |
 * | a custom block `response`             | pro or higher                                  |
 * | a plan-gated field (`PlanGatedFields`) | its tier: attack scores Enterprise, subdivisions Business, ... |
 *
 * The plan-gated fields are the engine's table (`src/api`), so `validate --plan` and `plan` refuse
 * what the service refuses (20204), at the rule's expression.
 */
import { CustomRuleQuota } from '../../api/index.js';
import type { DesiredZone } from '../desired.js';
import type { TierReport } from '../kind.js';
import { gatedFieldIssues, tierAtLeast, usesMatches } from '../plan-tier.js';

/**
 * WAF custom rules allowed per plan tier: every rule of the `http_request_firewall_custom` phase,
 * enabled or not (reference/custom-rules.md §2.6; Pro+ has 40, zonewall knows the four tiers only).
 */
export { CustomRuleQuota };

/** Reports the custom rules the tier does not allow. */
export function checkCustomTier(desired: DesiredZone, report: TierReport): void {
  const { tier, on, add } = report;
  const rules = desired.customRules ?? [];
  for (const r of rules) {
    const at = (field: string) => r.fieldLocations?.[field] ?? r.location;
    if (r.action === 'log' && tier !== 'enterprise') add(at('action'), ['custom_rules', r.ref, 'action'], `log needs an Enterprise plan ${on}`);
    if (!tierAtLeast(tier, 'business') && usesMatches(r.expression)) {
      add(r.fieldLocations?.matches ?? at('expression'), ['custom_rules', r.ref, 'expression'], `the matches operator needs a Business or Enterprise plan ${on}`);
    }
    gatedFieldIssues(r.expression, at('expression'), ['custom_rules', r.ref, 'expression'], report);
    if (tier === 'free' && r.actionParameters?.response !== undefined) {
      add(at('response'), ['custom_rules', r.ref, 'action_parameters', 'response'], `a custom block response needs a Pro plan or higher ${on}`);
    }
  }
  const quota = CustomRuleQuota[tier];
  if (rules.length > quota) {
    const first = rules[quota]!;
    add(first.location, ['custom_rules', first.ref], `the ${tier} plan allows ${quota} custom rules and this is rule ${quota + 1} of ${rules.length} `
      + `(disabled rules count too): remove ${rules.length - quota}, or use a higher plan`);
  }
}
