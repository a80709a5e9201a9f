/**
 * API views of the catalog's managed rulesets, in the real Rulesets API's shapes (`kind: managed`,
 * `source: firewall_managed`, rules with `categories` and, for the OWASP threshold rule,
 * `score_threshold`). zonewall's own fields (`alias`, `expression`, `legacy_id`, `paranoia_level`,
 * `score`) stay internal: the real service does not publish them.
 */
import { ManagedPhase } from '../../api/index.js';
import type { ManagedRule, ManagedRuleset } from './types.js';

/** One managed rule as `GET /zones/{zone_id}/rulesets/{ruleset_id}` shows it. */
export function managedRuleView(rule: ManagedRule): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: rule.id,
    version: rule.version,
    action: rule.action,
    categories: [...rule.categories],
    description: rule.description,
    last_updated: rule.last_updated,
    ref: rule.ref ?? rule.id,
    enabled: rule.enabled,
  };
  if (rule.score_threshold !== undefined) view.score_threshold = rule.score_threshold;
  return view;
}

/** A managed ruleset as the Rulesets API shows it; rules only for the single-ruleset GET. */
export function managedRulesetView(ruleset: ManagedRuleset, withRules: boolean): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: ruleset.id,
    name: ruleset.name,
    description: ruleset.description,
    source: 'firewall_managed',
    kind: 'managed',
    version: ruleset.version,
    last_updated: ruleset.last_updated,
    phase: ManagedPhase,
  };
  if (withRules) view.rules = ruleset.rules.map(managedRuleView);
  return view;
}
