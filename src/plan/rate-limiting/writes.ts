/**
 * The writes of the `http_ratelimit` phase, chosen as the custom phase's are (`phase-writes.ts`:
 * single-rule calls for up to `RateLimitWriteLimits.singleRuleCalls` of them, else one PUT of the
 * entry point): where they run and how a rule is sent.
 */
import { RatelimitPhase } from '../../api/index.js';
import type { DesiredRateLimitRule } from '../../manifest/index.js';
import type { Change } from '../change.js';
import type { TargetItem } from '../phase-target.js';
import { choosePhaseWrites, type PhaseWriter } from '../phase-writes.js';
import type { PhaseWrite } from '../write.js';
import { desiredRateLimitBody, keptRateLimitBody } from './attributes.js';
import type { LiveRateLimitEntrypoint, LiveRateLimitRule, RateLimitRuleBody } from './live.js';

/** One rule of the target list. */
export type RateLimitTarget = TargetItem<DesiredRateLimitRule>;
/** The writes of the phase. */
export type RateLimitWrite = PhaseWrite<RateLimitRuleBody>;

/** When the plan writes the phase rule by rule. */
export const RateLimitWriteLimits = { singleRuleCalls: 3 } as const;

const RateLimitWriter: PhaseWriter<DesiredRateLimitRule, LiveRateLimitRule, RateLimitRuleBody> = {
  phase: 'rate_limiting_rules',
  ruleset: RatelimitPhase,
  singleRuleCalls: RateLimitWriteLimits.singleRuleCalls,
  desiredBody: desiredRateLimitBody,
  keptBody: keptRateLimitBody,
};

/** The writes of a phase that differs from its target. */
export function chooseRateLimitWrites(entry: LiveRateLimitEntrypoint | null, target: readonly RateLimitTarget[], changes: readonly Change[], live: readonly LiveRateLimitRule[]): RateLimitWrite {
  return choosePhaseWrites(RateLimitWriter, entry, target, changes, live);
}
