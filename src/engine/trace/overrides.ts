/**
 * How overrides decide a managed rule's behaviour: rule override > category override > ruleset
 * override > the rule's default, field by field (`enabled` and `action` separately). When several
 * category overrides apply to a rule (it has several tags), the last one in the list wins.
 *
 * zonewall's reading for the OWASP Core Ruleset: its scoring rules (`score`) change action only
 * through a rule-level override; ruleset- and category-level actions apply to the anomaly threshold
 * rule 949110, whose action is the ruleset's action (as the real dashboard presents it).
 */
import type { ManagedRule, ManagedRuleset } from '../catalog/index.js';
import type { Overrides } from '../rulesets/types.js';

/** A managed rule's effective settings under overrides. */
export interface EffectiveRule {
  enabled: boolean;
  action: string;
  /** The threshold rule only. */
  score_threshold?: number;
}

/**
 * The effective settings of `rule` under `overrides`. It runs for every catalog rule of every
 * traced request, so it allocates nothing but its answer (no filtered lists, no closures).
 */
export function effectiveRule(ruleset: ManagedRuleset, rule: ManagedRule, overrides: Overrides | undefined): EffectiveRule {
  const ruleOverride = overrides?.rules?.find((o) => o.id === rule.id);
  // The last category override (in list order) that applies to the rule and sets the field wins.
  let categoryEnabled: boolean | undefined;
  let categoryAction: string | undefined;
  const categories = overrides?.categories ?? [];
  for (let i = categories.length - 1; i >= 0 && (categoryEnabled === undefined || categoryAction === undefined); i--) {
    const c = categories[i]!;
    if (!rule.categories.includes(c.category)) continue;
    if (categoryEnabled === undefined) categoryEnabled = c.enabled;
    if (categoryAction === undefined) categoryAction = c.action;
  }
  const enabled = ruleOverride?.enabled ?? categoryEnabled ?? overrides?.enabled ?? rule.enabled;
  const scoring = ruleset.anomaly && rule.action === 'score';
  const action = scoring
    ? ruleOverride?.action ?? rule.action
    : ruleOverride?.action ?? categoryAction ?? overrides?.action ?? rule.action;
  const out: EffectiveRule = { enabled, action };
  const threshold = ruleOverride?.score_threshold ?? rule.score_threshold;
  if (threshold !== undefined) out.score_threshold = threshold;
  return out;
}
