/**
 * The engine's shapes of the zone's `http_request_firewall_managed` entry point ruleset (the wire
 * types live in `src/api/rulesets.ts`): `execute` rules that deploy a managed ruleset with overrides at ruleset,
 * category and rule level, and `skip` rules (exceptions) that skip the rest of the entry point,
 * whole managed rulesets or single managed rules for matching requests.
 */

import type { ExecuteParameters, ManagedSkipParameters } from '../../api/index.js';

export { ManagedPhase } from '../../api/index.js';
export type { CategoryOverride, ExecuteParameters, Overrides, RuleOverride } from '../../api/index.js';
/** `action_parameters` of a managed-phase `skip` rule (the wire type). */
export type SkipParameters = ManagedSkipParameters;

/** A rule as a PUT body carries it, after validation (server fields not yet assigned). */
export interface RuleInput {
  /** Only to match an existing rule; empty strings are treated as absent. */
  id?: string;
  ref?: string;
  action: 'execute' | 'skip';
  expression: string;
  description: string;
  enabled: boolean;
  action_parameters: ExecuteParameters | SkipParameters;
  logging?: { enabled: boolean };
}

/** A stored rule: every field filled by the server. */
export interface EntrypointRule extends RuleInput {
  id: string;
  ref: string;
  version: string;
  last_updated: string;
}

/** The validated body of a PUT. */
export interface EntrypointInput {
  name?: string;
  description?: string;
  rules: RuleInput[];
}

/** The stored entry point ruleset. */
export interface Entrypoint {
  id: string;
  name: string;
  description: string;
  version: string;
  last_updated: string;
  rules: EntrypointRule[];
}

/** Whether a rule is an `execute` rule (narrows its parameters). */
export function isExecute(rule: RuleInput): rule is RuleInput & { action: 'execute'; action_parameters: ExecuteParameters } {
  return rule.action === 'execute';
}

/** Whether an entry point deploys at least one enabled managed ruleset (the new WAF is on). */
export function deploysEnabledRuleset(entry: Entrypoint | undefined): boolean {
  return entry?.rules.some((r) => isExecute(r) && r.enabled) ?? false;
}
