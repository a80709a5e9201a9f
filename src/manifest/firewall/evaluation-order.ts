/**
 * The order in which the service evaluates firewall rules (reference/api-facts.md): `priority`
 * ascending, rules without one (`null`) after every prioritised rule, equal priorities by action
 * precedence, then in the order given (creation order on a live zone, key order in a manifest).
 * Shared by the offline zone model, the live zone model and the conversion to custom rules, whose
 * list order is this order.
 */
import type { DesiredFirewallAction } from './desired.js';

/** Firewall rule actions by precedence for equal priorities: earlier runs first. */
export const FirewallActionPrecedence: readonly DesiredFirewallAction[] = [
  'log', 'bypass', 'allow', 'challenge', 'managed_challenge', 'js_challenge', 'block',
];

/** What the order reads of a rule. */
export interface OrderedRule {
  priority: number | null;
  action: string;
}

/**
 * The rules in evaluation order (a stable sort; the input is not changed).
 * @example firewallEvaluationOrder(desired.firewallRules)
 */
export function firewallEvaluationOrder<T>(rules: readonly T[], of: (rule: T) => OrderedRule = (rule) => rule as unknown as OrderedRule): T[] {
  const rank = (action: string) => (FirewallActionPrecedence as readonly string[]).indexOf(action);
  return rules.map((rule, i) => ({ rule, i, o: of(rule) })).sort((a, b) => {
    const pa = a.o.priority;
    const pb = b.o.priority;
    if (pa !== pb) return pa === null ? 1 : pb === null ? -1 : pa - pb;
    return rank(a.o.action) - rank(b.o.action) || a.i - b.i;
  }).map(({ rule }) => rule);
}
