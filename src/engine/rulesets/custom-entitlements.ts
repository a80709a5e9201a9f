/**
 * Plan gates of WAF custom rules (custom-rules.md §2.6), from the zone's tier limits so
 * `--limits FILE` can change them: the `log` action (Enterprise), the `matches` operator (Business
 * and higher), a custom block `response` (Pro and higher), and the number of rules in the entry
 * point (free 5, pro 20, business 100, enterprise 1000; disabled rules count too).
 *
 * Fields some plans lack (rules-language.md §2.1, custom-rules.md §2.6) are gated by tier, not by
 * `--limits`: the attack score fields `cf.waf.score[.sqli|.xss|.rce]` need Enterprise, and
 * `cf.waf.score.class` ("one field only" on Business) Business; the geo subdivisions and
 * `is_in_european_union` (`ip.src.*` and their `ip.geoip.*` aliases) Business; Bot Management
 * (`cf.bot_management.*`, an Enterprise add-on: zonewall has no add-on, so Enterprise) and the
 * request body fields (`http.request.body.*`) Enterprise. One refusal per field (20204,
 * `field-entitlements.ts`, as every rules phase). The table is the wire contract's
 * (`PlanGatedFields`), which `validate --plan` and `plan` check too.
 */
import { CustomPhase } from '../../api/index.js';
import { inspect, parse } from '../../expr/index.js';
import { cheapestTierWith, type Feature, type PlanLimitsConfig, type TierLimits } from '../limits.js';
import type { ApiMessage, PlanTier } from '../types.js';
import { rulesetMessage } from './errors.js';
import { gatedFieldProblems } from './field-entitlements.js';
import type { CustomRuleInput } from './types.js';

/** What a custom rule check needs to know about the zone. */
export interface CustomGate {
  plan: PlanTier;
  limits: TierLimits;
  planLimits: PlanLimitsConfig;
}

/** One refusal per plan-gated feature a rule uses; `pointer` is the rule's (`/rules/3`, or `` for one rule). */
export function customRuleGateProblems(rule: CustomRuleInput, pointer: string, gate: CustomGate): ApiMessage[] {
  const out: ApiMessage[] = [];
  const refuse = (feature: Feature, what: string, at: string): void => {
    if (gate.limits[feature]) return;
    const tier = cheapestTierWith(feature, gate.planLimits);
    const needs = tier === undefined ? 'is not available on any plan of this engine' : `needs the ${tier} plan or higher`;
    out.push(rulesetMessage('notEntitled', `${what} ${needs}; this zone's plan is ${gate.plan}`, at));
  };
  if (rule.action === 'log') refuse('log', 'the log action', `${pointer}/action`);
  const used = inspect(parse(rule.expression, { phase: CustomPhase }));
  if (used.operators.has('matches')) refuse('matches', 'the matches (regex) operator', `${pointer}/expression`);
  out.push(...gatedFieldProblems(used.fields, gate.plan, `${pointer}/expression`));
  if (rule.action === 'block' && rule.action_parameters !== undefined && 'response' in rule.action_parameters) {
    refuse('custom_response', 'a custom block response', `${pointer}/action_parameters/response`);
  }
  return out;
}

/** The refusal of a rule count above the plan's quota, or undefined. */
export function customQuotaProblem(count: number, gate: CustomGate, pointer?: string): ApiMessage | undefined {
  const quota = gate.limits.custom_rules;
  if (count <= quota) return undefined;
  return rulesetMessage('ruleQuota',
    `the ${CustomPhase} entry point would hold ${count} rules; a ${gate.plan} zone may have ${quota} custom rules (disabled rules count too)`, pointer);
}
