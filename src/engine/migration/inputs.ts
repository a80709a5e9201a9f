/**
 * What the migration reads from the rest of the zone: the firewall rules (through the firewall rules
 * module's store, in evaluation order) in the shape the pure migration functions take, and the
 * configuration blockers computed from them and the URI-based overrides.
 */
import { rulesInEvaluationOrder } from '../firewall-rules/store.js';
import { countOverrides } from '../previous-waf/store.js';
import type { Sql } from '../sql.js';
import { configurationBlockers, type FirewallRuleLike } from './check.js';
import type { Refusal } from './state-machine.js';

/** The zone's firewall rules, in evaluation order, as the migration sees them. */
export function firewallRulesOf(sql: Sql): FirewallRuleLike[] {
  return rulesInEvaluationOrder(sql).map(({ rule, filter }) => {
    const out: FirewallRuleLike = {
      id: rule.id,
      action: rule.action,
      priority: rule.priority,
      // A paused filter stops its rules from matching as surely as pausing the rule does.
      paused: rule.paused || filter?.paused === true,
      products: rule.products,
      expression: filter?.expression,
    };
    if (rule.description !== '') out.description = rule.description;
    return out;
  });
}

/** Why the zone's configuration cannot migrate now (empty when it can). */
export function zoneBlockers(sql: Sql): Refusal[] {
  return configurationBlockers(countOverrides(sql), firewallRulesOf(sql));
}
