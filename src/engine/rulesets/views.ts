/**
 * API views of the zone's entry point ruleset, in the Rulesets API's shape (`kind: zone`, the
 * phase, `version` as a string, rules with their server fields).
 */
import type { Entrypoint, EntrypointRule } from './types.js';
import { ManagedPhase } from './types.js';

/** One rule as the Rulesets API returns it. */
export function ruleView(rule: EntrypointRule): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: rule.id,
    version: rule.version,
    action: rule.action,
    action_parameters: rule.action_parameters,
    expression: rule.expression,
    description: rule.description,
    last_updated: rule.last_updated,
    ref: rule.ref,
    enabled: rule.enabled,
  };
  if (rule.logging !== undefined) view.logging = rule.logging;
  return view;
}

/** The entry point ruleset (rules left out for version lists). */
export function entrypointView(entry: Entrypoint, withRules = true): Record<string, unknown> {
  const view: Record<string, unknown> = {
    id: entry.id,
    name: entry.name,
    description: entry.description,
    source: 'firewall_managed',
    kind: 'zone',
    version: entry.version,
    last_updated: entry.last_updated,
    phase: ManagedPhase,
  };
  if (withRules) view.rules = entry.rules.map(ruleView);
  return view;
}
