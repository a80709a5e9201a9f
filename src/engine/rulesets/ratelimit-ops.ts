/**
 * The `http_ratelimit` entry point's writes: the same operations as custom rules (`custom-ops.ts`:
 * PUT, single-rule POST with `position`, PATCH, DELETE, ids kept, versions), with rate limiting
 * rules' validation (`validate-ratelimit.ts`) and the per-plan table (`ratelimit-entitlements.ts`).
 */
import { RatelimitPhase } from '../../api/index.js';
import { ratelimitGateProblems, ratelimitQuotaProblem } from './ratelimit-entitlements.js';
import type { RulesPhaseSpec } from './rules-phase-spec.js';
import type { RateLimitRuleInput } from './types.js';
import { readRateLimitRule } from './validate-ratelimit.js';

/** Rate limiting rules as a rules phase. */
export const RatelimitRulesSpec: RulesPhaseSpec<RateLimitRuleInput> = {
  phase: RatelimitPhase,
  read: (item, pointer, problems, extra) => readRateLimitRule(item, pointer, problems, extra),
  gates: (rule, pointer, ctx) => ratelimitGateProblems(rule, pointer, ctx.zone.plan),
  quota: (count, ctx, pointer) => ratelimitQuotaProblem(count, ctx.zone.plan, pointer),
};
