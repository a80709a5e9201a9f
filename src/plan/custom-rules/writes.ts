/**
 * The writes of the custom phase (`phase-writes.ts` chooses between single-rule calls and one PUT
 * of the entry point): where they run and how a rule is sent.
 */
import type { Change } from '../change.js';
import { desiredCustomBody, keptCustomBody } from './attributes.js';
import type { DesiredCustomRule } from '../../manifest/index.js';
import type { TargetItem } from '../phase-target.js';
import { CustomPhase } from '../../api/index.js';
import { choosePhaseWrites, type PhaseWriter } from '../phase-writes.js';
import type { CustomRuleBody, LiveCustomEntrypoint, LiveCustomRule } from './live.js';
import type { PhaseRuleOp, PhaseWrite } from '../write.js';

/** One single-rule call of the custom phase. */
export type CustomRuleOp = PhaseRuleOp<CustomRuleBody>;
/** The writes of the custom phase: single-rule calls, or one PUT of the entry point. */
export type CustomRulesWrite = PhaseWrite<CustomRuleBody>;
/** One rule of the custom phase's target list. */
export type CustomTarget = TargetItem<DesiredCustomRule>;

/** When the plan writes the custom phase rule by rule. */
export const CustomWriteLimits = {
  /** Up to this many single-rule calls are made instead of one PUT of the whole list. */
  singleRuleCalls: 3,
} as const;

const CustomWriter: PhaseWriter<DesiredCustomRule, LiveCustomRule, CustomRuleBody> = {
  phase: 'custom_rules',
  ruleset: CustomPhase,
  singleRuleCalls: CustomWriteLimits.singleRuleCalls,
  desiredBody: desiredCustomBody,
  keptBody: keptCustomBody,
};

/** The writes of a custom phase that differs from its target. */
export function chooseCustomWrites(entry: LiveCustomEntrypoint | null, target: readonly CustomTarget[], changes: readonly Change[], live: readonly LiveCustomRule[]): CustomRulesWrite {
  return choosePhaseWrites(CustomWriter, entry, target, changes, live);
}
