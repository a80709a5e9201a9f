/**
 * WAF custom rules (the `http_request_firewall_custom` entry point) in a trace, as a pure
 * function. Rules run in list order; disabled ones do not. The first matching terminating action
 * (`block`, `challenge`, `js_challenge`, `managed_challenge`) ends the request, later phases
 * included; `log` records the match and goes on; `skip` records what it skips and goes on:
 * `ruleset: "current"` and `phase: "current"` end the custom rules (the request then meets the later
 * phases), `phases`
 * names later phases to skip (`http_request_firewall_managed` skips the new WAF), `products` names
 * products outside the phase chain (`waf` is the previous WAF). Matches are named by `ref`.
 */
import { CustomPhase, SkipPhases, SkipProducts, TerminatingCustomActions, type CustomSkipParameters } from '../../api/index.js';
import type { ExecutionContext } from '../../expr/index.js';
import type { StoredRule, StoredRuleset } from '../rulesets/types.js';
import { matches } from './matchers.js';
import type { CustomMatch, CustomTrace } from '../../api/index.js';
export type { CustomMatch, CustomTrace } from '../../api/index.js';



const Terminating: ReadonlySet<string> = new Set(TerminatingCustomActions);

/** Evaluates the custom rules entry point (rules in list order) against the request. */
export function traceCustomRules(entry: StoredRuleset | undefined, request: ExecutionContext): CustomTrace {
  const rules = entry?.rules ?? [];
  const out: CustomTrace = { enabled: rules.some((r) => r.enabled), matched: [], action: null, rule: null, skipped_phases: [], skipped_products: [] };
  for (const rule of rules) {
    if (!rule.enabled || !matches(rule.expression, CustomPhase, request)) continue;
    const m = matchOf(rule);
    out.matched.push(m);
    if (Terminating.has(rule.action)) {
      out.action = rule.action;
      out.rule = m;
      break;
    }
    if (rule.action !== 'skip') continue;
    const skip = rule.action_parameters as CustomSkipParameters;
    addAll(out.skipped_phases, skip.phases, SkipPhases);
    addAll(out.skipped_products, skip.products, SkipProducts);
    // phase "current" also skips zone custom rulesets run later in the phase; zonewall has none.
    if (skip.ruleset === 'current' || skip.phase === 'current') {
      out.ended_by = rule.ref;
      break;
    }
  }
  return out;
}

/** The trace of a request that never reached the custom rules. */
export function customRulesNotRun(entry: StoredRuleset | undefined, why: string): CustomTrace {
  return { enabled: entry?.rules.some((r) => r.enabled) ?? false, matched: [], action: null, rule: null, skipped_phases: [], skipped_products: [], skipped_by: why };
}

function matchOf(rule: StoredRule): CustomMatch {
  const m: CustomMatch = { ref: rule.ref, id: rule.id, action: rule.action };
  if (rule.description !== '') m.description = rule.description;
  if (rule.action === 'skip') m.skip = rule.action_parameters as CustomSkipParameters;
  const response = (rule.action_parameters as { response?: { status_code: number } } | undefined)?.response;
  if (rule.action === 'block' && response !== undefined) m.status_code = response.status_code;
  return m;
}

function addAll<T extends string>(into: T[], items: readonly T[] | undefined, order: readonly T[]): void {
  for (const item of items ?? []) if (!into.includes(item)) into.push(item);
  into.sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
