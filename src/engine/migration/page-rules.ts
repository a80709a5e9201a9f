/**
 * Page Rules in the migration's config (seed 002: "Page Rules with Disable Security; Page Rules
 * with Web Application Firewall set to Off or On" migrate to an equivalent configuration), as a pure
 * function. Only the first matching active Page Rule applies to a request (`page-rules/model.ts`),
 * so each rule's region is its URL pattern minus the patterns of the rules before it that decide
 * otherwise:
 *
 * - previous WAF on (zone setting `waf: on`): each active rule that turns it off (`disable_security`,
 *   `waf: off`) becomes a skip rule (`ruleset: "current"`) for its pattern, minus the patterns of
 *   higher-priority `waf: on` rules; a disabled one becomes a disabled skip rule for its pattern;
 * - previous WAF off: where active `waf: on` rules turn it on (minus higher-priority rules that turn
 *   it off) the new WAF must run, so the deployments are enabled and one skip rule skips them
 *   everywhere else (`not (...)`); without such rules the deployments stay disabled.
 *
 * The patterns become `http.request.full_uri wildcard` expressions (`page-rules/url.ts`), the same
 * the trace evaluates Page Rules with, so `zonewall test` cases agree before and after a migration.
 */
import {
  actionsLabel, pageRuleExpression, pageRulesInEvaluationOrder, patternOf, wafEffect, type PageRuleLike,
} from '../page-rules/index.js';
import type { ConfigRule } from './config-rule.js';

/** The Page Rules' part of the config. */
export interface PageRuleConfig {
  /** Skip rules, in evaluation order, to put before the deployments. */
  skips: ConfigRule[];
  /** Previous WAF off: whether `waf: on` rules need the deployments enabled. */
  enablesDeployments: boolean;
}

function any(terms: readonly string[]): string {
  return terms.length === 1 ? terms[0]! : `(${terms.join(' or ')})`;
}

/** `region` minus `excluded` (atomic terms in, one expression out). */
function minus(region: string, excluded: readonly string[]): string {
  return excluded.length === 0 ? region : `${region} and not ${any(excluded)}`;
}

function skip(expression: string, description: string, enabled: boolean): ConfigRule {
  return {
    id: '', version: '', action: 'skip', expression, description: description.slice(0, 500), ref: '', enabled,
    action_parameters: { ruleset: 'current' }, logging: { enabled: true },
  };
}

/** The skip rules (and deployment switch) equivalent to the zone's Page Rules. */
export function pageRuleConfig(pageRules: readonly PageRuleLike[], previousWafOn: boolean): PageRuleConfig {
  const ordered = pageRulesInEvaluationOrder(pageRules);
  const about = (r: PageRuleLike): string => `Migrated from Page Rule ${r.id}: ${patternOf(r)} (${actionsLabel(r)})`;
  const seen: { on: string[]; off: string[] } = { on: [], off: [] };
  const skips: ConfigRule[] = [];
  const onRegions: string[] = [];
  for (const rule of ordered) {
    const expression = pageRuleExpression(patternOf(rule));
    const effect = wafEffect(rule);
    if (rule.status !== 'active') {
      if (previousWafOn && effect === 'off') skips.push(skip(expression, about(rule), false));
      continue;
    }
    if (previousWafOn && effect === 'off') skips.push(skip(minus(expression, seen.on), about(rule), true));
    if (!previousWafOn && effect === 'on') onRegions.push(seen.off.length === 0 ? expression : `(${minus(expression, seen.off)})`);
    seen[effect].push(expression);
  }
  if (onRegions.length > 0) {
    const ids = ordered.filter((r) => r.status === 'active' && wafEffect(r) === 'on').map((r) => r.id).join(', ');
    skips.push(skip(`not ${any(onRegions)}`, `Migrated from Page Rules ${ids} (waf: on): the previous WAF was off except for their URLs`, true));
  }
  return { skips, enablesDeployments: onRegions.length > 0 };
}
