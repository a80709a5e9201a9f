/**
 * Firewall rules in a trace. Rules run in evaluation order (priority ascending, no priority last,
 * ties by action precedence `log`, `bypass`, `allow`, `challenge`, `managed_challenge`,
 * `js_challenge`, `block`, then ref, then id: the firewall rules store's order, `compareFirewallRules`). Paused rules,
 * rules whose filter is paused and rules whose filter was deleted do not run. `log` and `bypass` do
 * not end the evaluation (`bypass` records the products it skips); any other action ends it.
 * `allow` ends the firewall rules (and the custom rules, the same list on the service) only: the
 * WAFs still run (`zone.ts`).
 */
import type { ExecutionContext } from '../../expr/index.js';
import type { RuleWithFilter } from '../firewall-rules/store.js';
import { TracePhases, matches } from './matchers.js';
import type { FirewallMatch, FirewallTrace } from '../../api/index.js';
export type { FirewallMatch, FirewallTrace } from '../../api/index.js';



const NonTerminating = new Set(['log', 'bypass']);

/** Evaluates the zone's firewall rules (given in evaluation order) against the request. */
export function traceFirewallRules(rules: readonly RuleWithFilter[], request: ExecutionContext): FirewallTrace {
  const out: FirewallTrace = { matched: [], action: null, rule: null, bypassed: [] };
  for (const { rule, filter } of rules) {
    if (rule.paused || filter === undefined || filter.paused) continue;
    if (!matches(filter.expression, TracePhases.firewall, request)) continue;
    const m: FirewallMatch = { id: rule.id, action: rule.action, priority: rule.priority };
    if (rule.ref !== '') m.ref = rule.ref;
    if (rule.description !== '') m.description = rule.description;
    if (rule.products.length > 0) m.products = [...rule.products];
    out.matched.push(m);
    if (rule.action === 'bypass') for (const p of rule.products) if (!out.bypassed.includes(p)) out.bypassed.push(p);
    if (!NonTerminating.has(rule.action)) {
      out.action = rule.action;
      out.rule = m;
      break;
    }
  }
  return out;
}
