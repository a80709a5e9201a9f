/**
 * What a Page Rule does to the previous WAF, and the order Page Rules are evaluated in: shared by
 * the trace (before a migration) and the migration's config (the skip rules after it), so both read
 * Page Rules the same way.
 *
 * - Order: `priority` descending (a higher number runs first, as in the real API); equal
 *   priorities by list order (the API's creation order; a manifest's order offline).
 * - Only the first matching *active* Page Rule applies to a request (real Page Rules semantics).
 * - Its WAF effect: `off` when it has `disable_security` or `waf: off` (disable_security wins over
 *   a `waf: on` in the same rule, as it turns the previous WAF off), `on` for `waf: on`.
 *   Neither Page Rule action affects the new WAF (seed 002).
 */
import type { PageRuleAction, PageRuleStatus, PageRuleTarget } from './constants.js';

/** The part of a Page Rule the trace and the migration read (the wire shape fits). */
export interface PageRuleLike {
  id: string;
  targets: readonly PageRuleTarget[];
  actions: readonly PageRuleAction[];
  priority: number;
  status: PageRuleStatus;
}

/** A Page Rule's effect on the previous WAF for the requests it matches. */
export type PageRuleWafEffect = 'on' | 'off';

/** The rule's effect on the previous WAF. */
export function wafEffect(rule: PageRuleLike): PageRuleWafEffect {
  const off = rule.actions.some((a) => a.id === 'disable_security' || (a.id === 'waf' && a.value === 'off'));
  return off ? 'off' : 'on';
}

/** The rule's URL pattern (exactly one target). */
export function patternOf(rule: PageRuleLike): string {
  return rule.targets[0]!.constraint.value;
}

/** The rules in evaluation order: priority descending, then list order. */
export function pageRulesInEvaluationOrder<T extends PageRuleLike>(rules: readonly T[]): T[] {
  return rules.map((rule, index) => ({ rule, index }))
    .sort((a, b) => b.rule.priority - a.rule.priority || a.index - b.index)
    .map((x) => x.rule);
}

/** A short label of the rule's actions, for descriptions and trace reasons (`disable_security`, `waf: off`). */
export function actionsLabel(rule: PageRuleLike): string {
  return rule.actions.map((a) => (a.id === 'waf' ? `waf: ${a.value}` : a.id)).join(', ');
}
