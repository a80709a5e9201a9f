/**
 * The shapes of the zone's `http_request_firewall_managed` entry point ruleset, as the Rulesets API
 * stores and returns them: `execute` rules that deploy a managed ruleset with overrides at ruleset,
 * category and rule level, and `skip` rules (exceptions) that skip the rest of the entry point,
 * whole managed rulesets or single managed rules for matching requests.
 */

/** The one phase this engine serves through the Rulesets API. */
export const ManagedPhase = 'http_request_firewall_managed';

/** Overrides of one category (tag) of the executed ruleset: middle precedence. */
export interface CategoryOverride {
  category: string;
  action?: string;
  enabled?: boolean;
}

/** Overrides of one rule of the executed ruleset: highest precedence. */
export interface RuleOverride {
  id: string;
  action?: string;
  enabled?: boolean;
  score_threshold?: number;
}

/** `action_parameters.overrides` of an `execute` rule. */
export interface Overrides {
  action?: string;
  enabled?: boolean;
  categories?: CategoryOverride[];
  rules?: RuleOverride[];
}

/** `action_parameters` of an `execute` rule. */
export interface ExecuteParameters {
  id: string;
  version?: string;
  overrides?: Overrides;
  matched_data?: { public_key: string };
}

/** `action_parameters` of a `skip` rule: exactly one of the three. */
export interface SkipParameters {
  /** `current`: skip the remaining rules of the entry point. */
  ruleset?: 'current';
  /** Skip executing these managed rulesets. */
  rulesets?: string[];
  /** Skip these rules, by managed ruleset id. */
  rules?: Record<string, string[]>;
}

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
