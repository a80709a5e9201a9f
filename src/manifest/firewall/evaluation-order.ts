/**
 * The order in which the service evaluates firewall rules: the one comparator of `src/api`
 * (`compareFirewallRules`: `priority` ascending, rules without one (`null`) after every prioritised
 * rule, equal priorities by action precedence, then by `ref`, then by id). A manifest rule's ref is
 * its key, so the manifest, the live zone's list and every evaluator agree by construction.
 * Shared by the offline zone model, the live zone model and the conversion to custom rules, whose
 * list order is this order.
 */
import { FirewallActions, firewallRulesInOrder, type FirewallOrderKey } from '../../api/index.js';
import type { DesiredFirewallAction } from './desired.js';

/** Firewall rule actions by precedence for equal priorities: earlier runs first. */
export const FirewallActionPrecedence: readonly DesiredFirewallAction[] = FirewallActions;

/** What the order reads of a rule. */
export type OrderedRule = FirewallOrderKey;

/**
 * The rules in evaluation order (the input is not changed).
 * @example firewallEvaluationOrder(desired.firewallRules)
 */
export function firewallEvaluationOrder<T>(rules: readonly T[], of: (rule: T) => OrderedRule = (rule) => rule as unknown as OrderedRule): T[] {
  return firewallRulesInOrder(rules, of);
}
