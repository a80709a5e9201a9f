/**
 * What a zone's plan tier allows of rate limiting rules: the per-plan table of `src/api`
 * (`RateLimitTiers`, security-phases.md §1), each limit an issue at the field that goes past it; and
 * the plan-gated fields (`PlanGatedFields`) in the expression and the counting expression.
 */
import { ColoCharacteristic, PlanTiers, RateLimitChallengeActions, RateLimitTiers, type RateLimitTier, CountingPhase } from '../../api/index.js';
import { inspect, parse } from '../../expr/index.js';
import type { DesiredPlanTier, DesiredZone } from '../desired.js';
import type { TierReport } from '../kind.js';
import { gatedFieldIssues } from '../plan-tier.js';

function cheapest(test: (t: RateLimitTier) => boolean): string {
  return PlanTiers.find((t) => test(RateLimitTiers[t])) ?? 'enterprise';
}

function fieldsOf(expression: string): string[] {
  try {
    return [...inspect(parse(expression)).fields].sort();
  } catch {
    return [];
  }
}

/** Reports the rate limiting rules the tier does not allow. */
export function checkRateLimitTier(desired: DesiredZone, report: TierReport): void {
  const { tier, on, add } = report;
  const rules = desired.rateLimitingRules ?? [];
  const t: RateLimitTier = RateLimitTiers[tier as DesiredPlanTier];
  for (const r of rules) {
    const at = (field: string) => r.fieldLocations?.[field] ?? r.location;
    const path = (...p: string[]) => ['rate_limiting_rules', r.ref, ...p];
    const needs = (what: string, plan: string, field: string, p: string[]) => add(at(field), path(...p), `${what} needs the ${plan} plan or higher ${on}`);
    const rl = r.ratelimit;
    if (r.action === 'log' && tier !== 'enterprise') needs('the log action', 'enterprise', 'action', ['action']);
    const refused = new Set<string>();
    if (t.fields !== null) {
      const allowed = t.fields;
      for (const f of fieldsOf(r.expression)) if (!allowed.includes(f)) {
        refused.add(f);
        needs(`the field ${f} in a rate limiting expression`, cheapest((x) => x.fields === null || x.fields.includes(f)), 'expression', ['expression']);
      }
    }
    // The plan-gated fields of every kind's expressions, where the per-plan list has not refused them.
    gatedFieldIssues(r.expression, at('expression'), path('expression'), report, undefined, refused);
    if (rl.counting_expression !== undefined && rl.counting_expression !== '' && t.countingExpression) {
      gatedFieldIssues(rl.counting_expression, at('counting_expression'), path('ratelimit', 'counting_expression'), report, CountingPhase);
    }
    // The manifest's characteristics are the desired ones after cf.colo.id (zonewall's, first): item i is written at i - 1.
    const written = rl.characteristics[0] === ColoCharacteristic ? 1 : 0;
    rl.characteristics.forEach((c, i) => {
      if (c === ColoCharacteristic || t.characteristics === null || t.characteristics.includes(c)) return;
      const j = i - written;
      const where = r.fieldLocations?.[`characteristics[${j}]`];
      add(where ?? at('characteristics'), where === undefined ? path('ratelimit', 'characteristics') : [...path('ratelimit', 'characteristics'), j],
        `the characteristic ${c} needs the ${cheapest((x) => x.characteristics === null || x.characteristics.includes(c))} plan or higher ${on}`);
    });
    if (rl.counting_expression !== undefined && !t.countingExpression) needs('a counting expression', 'business', 'counting_expression', ['ratelimit', 'counting_expression']);
    if (rl.period > t.longestPeriod) needs(`a period of ${rl.period} s (this plan's longest is ${t.longestPeriod} s)`, cheapest((x) => x.longestPeriod >= rl.period), 'period', ['ratelimit', 'period']);
    if (rl.mitigation_timeout > t.longestTimeout) needs(`a mitigation_timeout of ${rl.mitigation_timeout} s (this plan's longest is ${t.longestTimeout} s)`, cheapest((x) => x.longestTimeout >= rl.mitigation_timeout), 'mitigation_timeout', ['ratelimit', 'mitigation_timeout']);
    if (!t.anyTimeout) {
      const where = r.fieldLocations?.mitigation_timeout ?? at('ratelimit');
      if ((RateLimitChallengeActions as readonly string[]).includes(r.action) && rl.mitigation_timeout !== 0) add(where, path('ratelimit', 'mitigation_timeout'), `below Enterprise a ${r.action} rule needs mitigation_timeout: 0 ${on}`);
      if (r.action === 'block' && rl.mitigation_timeout === 0) add(where, path('ratelimit', 'mitigation_timeout'), `below Enterprise a block needs a mitigation_timeout above 0 (0 throttles, an Enterprise feature; the default is 0) ${on}`);
    }
    if (rl.score_per_period !== undefined && !t.complexity) needs('complexity-based rate limiting (score_per_period)', 'enterprise', 'score_per_period', ['ratelimit', 'score_per_period']);
  }
  if (rules.length > t.rules) {
    const first = rules[t.rules]!;
    add(first.location, ['rate_limiting_rules', first.ref], `the ${tier} plan allows ${t.rules} rate limiting rules and this is rule ${t.rules + 1} of ${rules.length} (disabled rules count too): remove ${rules.length - t.rules}, or use a higher plan`);
  }
}
