/**
 * API views of the zone's entry point rulesets, in the Rulesets API's shape (`kind: zone`, the
 * phase, `version` as a string, rules with their server fields). The managed entry point carries
 * `source: "firewall_managed"` and always shows `description`; custom rules leave out an empty
 * `description` and absent `action_parameters`, as the real API's examples do.
 */
import { CustomPhase, ManagedPhase, type ServedPhase } from '../../api/index.js';
import type { StoredRule, StoredRuleset } from './types.js';

/** One rule as the Rulesets API returns it. */
export function ruleView(rule: StoredRule, phase: ServedPhase = ManagedPhase): Record<string, unknown> {
  const view: Record<string, unknown> = { id: rule.id, version: rule.version, action: rule.action };
  if (rule.action_parameters !== undefined) view.action_parameters = rule.action_parameters;
  view.expression = rule.expression;
  if (phase === ManagedPhase || rule.description !== '') view.description = rule.description;
  view.last_updated = rule.last_updated;
  view.ref = rule.ref;
  view.enabled = rule.enabled;
  if (rule.logging !== undefined) view.logging = rule.logging;
  if (rule.ratelimit !== undefined) view.ratelimit = rule.ratelimit;
  return view;
}

/** An entry point ruleset of `phase` (rules left out for lists and version lists). */
export function rulesetView(entry: StoredRuleset, phase: ServedPhase, withRules = true): Record<string, unknown> {
  const view: Record<string, unknown> = { id: entry.id, name: entry.name, description: entry.description };
  if (phase === ManagedPhase) view.source = 'firewall_managed';
  Object.assign(view, { kind: 'zone', version: entry.version, last_updated: entry.last_updated, phase });
  if (withRules) view.rules = entry.rules.map((r) => ruleView(r, phase));
  return view;
}

/** The managed entry point (rules left out for version lists). */
export function entrypointView(entry: StoredRuleset, withRules = true): Record<string, unknown> {
  return rulesetView(entry, ManagedPhase, withRules);
}

/** The custom rules entry point. */
export function customEntrypointView(entry: StoredRuleset, withRules = true): Record<string, unknown> {
  return rulesetView(entry, CustomPhase, withRules);
}
