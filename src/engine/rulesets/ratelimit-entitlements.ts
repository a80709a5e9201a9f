/**
 * Plan limits of rate limiting rules (security-phases.md §1, the per-plan table in
 * `src/api/rate-limiting.ts`): the number of rules, the fields a rule expression may use, the
 * characteristics besides `cf.colo.id`, whether a counting expression may be set, the longest
 * period and mitigation timeout, challenge actions with timeout 0 and block without throttling
 * below Enterprise, the complexity-based variant and the `log` action on Enterprise only; and the
 * plan-gated fields (`field-entitlements.ts`) in the expression and the counting expression. One
 * refusal (20204, the rule quota 20210) per limit, pointing at the field.
 */
import { ColoCharacteristic, PlanTiers, RateLimitChallengeActions, RateLimitTiers, RatelimitPhase, type PlanTier, type RateLimitTier, CountingPhase } from '../../api/index.js';
import type { ApiMessage } from '../types.js';
import { rulesetMessage } from './errors.js';
import { fieldsOf, gatedFieldProblems } from './field-entitlements.js';
import type { RateLimitRuleInput } from './types.js';

function cheapest(test: (t: RateLimitTier) => boolean): PlanTier {
  return PlanTiers.find((t) => test(RateLimitTiers[t])) ?? 'enterprise';
}

/** One refusal per plan limit the rule goes beyond; `pointer` is the rule's. */
export function ratelimitGateProblems(rule: RateLimitRuleInput, pointer: string, plan: PlanTier): ApiMessage[] {
  const tier: RateLimitTier = RateLimitTiers[plan];
  const out: ApiMessage[] = [];
  const refuse = (what: string, needs: PlanTier, at: string): void => {
    out.push(rulesetMessage('notEntitled', `${what} needs the ${needs} plan or higher; this zone's plan is ${plan}`, `${pointer}${at}`));
  };
  const rl = rule.ratelimit;
  if (rule.action === 'log' && plan !== 'enterprise') refuse('the log action in a rate limiting rule', 'enterprise', '/action');
  const fields = fieldsOf(rule.expression, RatelimitPhase);
  const refused = new Set<string>();
  if (tier.fields !== null) {
    for (const field of [...fields].sort()) {
      if (tier.fields.includes(field)) continue;
      refused.add(field);
      refuse(`the field ${field} in a rate limiting expression`, cheapest((t) => t.fields === null || t.fields.includes(field)), '/expression');
    }
  }
  // The plan-gated fields of every expression (one table for every kind), where the per-plan list has not refused them.
  out.push(...gatedFieldProblems(fields, plan, `${pointer}/expression`, refused));
  if (rl.counting_expression !== undefined && rl.counting_expression !== '' && tier.countingExpression) {
    out.push(...gatedFieldProblems(fieldsOf(rl.counting_expression, CountingPhase), plan, `${pointer}/ratelimit/counting_expression`));
  }
  rl.characteristics.forEach((c, i) => {
    if (c === ColoCharacteristic || tier.characteristics === null || tier.characteristics.includes(c)) return;
    refuse(`the characteristic ${c}`, cheapest((t) => t.characteristics === null || t.characteristics.includes(c)), `/ratelimit/characteristics/${i}`);
  });
  if (rl.counting_expression !== undefined && !tier.countingExpression) refuse('a counting expression', 'business', '/ratelimit/counting_expression');
  if (rl.period > tier.longestPeriod) refuse(`a period of ${rl.period} s (this plan's longest is ${tier.longestPeriod} s)`, cheapest((t) => t.longestPeriod >= rl.period), '/ratelimit/period');
  if (rl.mitigation_timeout > tier.longestTimeout) refuse(`a mitigation timeout of ${rl.mitigation_timeout} s (this plan's longest is ${tier.longestTimeout} s)`, cheapest((t) => t.longestTimeout >= rl.mitigation_timeout), '/ratelimit/mitigation_timeout');
  if (!tier.anyTimeout) {
    const challenge = (RateLimitChallengeActions as readonly string[]).includes(rule.action);
    if (challenge && rl.mitigation_timeout !== 0) refuse(`a ${rule.action} with mitigation_timeout ${rl.mitigation_timeout} (below Enterprise challenge actions take 0)`, 'enterprise', '/ratelimit/mitigation_timeout');
    if (rule.action === 'block' && rl.mitigation_timeout === 0) refuse('throttling a block (mitigation_timeout 0; below Enterprise a block needs a timeout)', 'enterprise', '/ratelimit/mitigation_timeout');
  }
  if (rl.score_per_period !== undefined && !tier.complexity) refuse('complexity-based rate limiting (score_per_period)', 'enterprise', '/ratelimit/score_per_period');
  return out;
}

/** The refusal of a rule count above the plan's quota, or undefined. */
export function ratelimitQuotaProblem(count: number, plan: PlanTier, pointer?: string): ApiMessage | undefined {
  const quota = RateLimitTiers[plan].rules;
  if (count <= quota) return undefined;
  return rulesetMessage('ruleQuota', `the ${RatelimitPhase} entry point would hold ${count} rules; a ${plan} zone may have ${quota} rate limiting rules (disabled rules count too)`, pointer);
}
