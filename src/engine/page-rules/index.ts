/**
 * Page Rules as a zone resource module (the subset seed 002 names: URL targets, `disable_security`
 * and `waf`), and what the trace and the migration read of them: the evaluation order, each rule's
 * effect on the previous WAF and the expression of its URL pattern.
 */
import type { ResourceModule } from '../context.js';
import { pageRuleRoutes } from './handlers.js';
import { pageRulesSchema } from './store.js';

/** The Page Rules resource module. */
export const pageRulesResource: ResourceModule = { name: 'Page Rules', schema: pageRulesSchema, routes: pageRuleRoutes };

export { listPageRules } from './store.js';
export { pageRuleExpression } from './url.js';
export { actionsLabel, pageRulesInEvaluationOrder, patternOf, wafEffect, type PageRuleLike, type PageRuleWafEffect } from './model.js';
