/**
 * Page Rules in a trace: the first active Page Rule (in evaluation order) whose URL pattern matches
 * the request, evaluated through the same `http.request.full_uri wildcard` expression the migration
 * writes into its skip rule, so the previous WAF's verdict before a migration and the new WAF's after
 * it read a Page Rule identically.
 */
import type { ExecutionContext } from '../../expr/index.js';
import { pageRuleExpression, pageRulesInEvaluationOrder, patternOf, type PageRuleLike } from '../page-rules/index.js';
import { TracePhases, matches } from './matchers.js';

/** The Page Rule that applies to the request, or undefined (only the first matching one applies). */
export function firstPageRule(rules: readonly PageRuleLike[], request: ExecutionContext): PageRuleLike | undefined {
  for (const rule of pageRulesInEvaluationOrder(rules)) {
    if (rule.status === 'active' && matches(pageRuleExpression(patternOf(rule)), TracePhases.managed, request)) return rule;
  }
  return undefined;
}
