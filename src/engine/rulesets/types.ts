/**
 * The engine's shapes of the zone's `http_request_firewall_managed` entry point ruleset (the wire
 * types live in `src/api/rulesets.ts`): `execute` rules that deploy a managed ruleset with overrides at ruleset,
 * category and rule level, and `skip` rules (exceptions) that skip the rest of the entry point,
 * whole managed rulesets or single managed rules for matching requests.
 */

import type {
  BlockParameters, CustomRuleAction, CustomSkipParameters, ExecuteParameters, ManagedRuleAction, ManagedSkipParameters,
} from '../../api/index.js';
import type { RateLimitAction, RateLimitBlockResponse, RateLimitParameters } from '../../api/index.js';

export { ManagedPhase } from '../../api/index.js';
export type { CategoryOverride, ExecuteParameters, Overrides, RuleOverride } from '../../api/index.js';
/** A rule as a PUT body carries it, after validation (server fields not yet assigned). */
export interface RuleInput {
  /** Only to match an existing rule; empty strings are treated as absent. */
  id?: string;
  ref?: string;
  action: ManagedRuleAction;
  expression: string;
  description: string;
  enabled: boolean;
  action_parameters: ExecuteParameters | ManagedSkipParameters;
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

/** A stored rule of either phase, as the store reads it (parameters and actions not narrowed). */
export interface StoredRule {
  id: string;
  ref: string;
  version: string;
  action: string;
  expression: string;
  description: string;
  enabled: boolean;
  action_parameters?: unknown;
  logging?: { enabled: boolean };
  last_updated: string;
  /** Rate limiting rules only (`http_ratelimit`). */
  ratelimit?: unknown;
}

/** A stored entry point ruleset of either phase. */
export interface StoredRuleset<R extends StoredRule = StoredRule> {
  id: string;
  name: string;
  description: string;
  version: string;
  last_updated: string;
  rules: R[];
}

/** `action_parameters` of a custom rule (block response or skip targets). */
export type CustomParameters = BlockParameters | CustomSkipParameters;

/** A custom rule as a body carries it, after validation. */
export interface CustomRuleInput {
  id?: string;
  ref?: string;
  action: CustomRuleAction;
  expression: string;
  description: string;
  enabled: boolean;
  action_parameters?: CustomParameters;
  logging?: { enabled: boolean };
}

/** A stored custom rule. */
export interface CustomStoredRule extends CustomRuleInput {
  id: string;
  ref: string;
  version: string;
  last_updated: string;
}

/** The stored `http_request_firewall_custom` entry point. */
export type StoredCustomEntrypoint = StoredRuleset<CustomStoredRule>;

/** A rate limiting rule as a body carries it, after validation (`ratelimit` defaults filled). */
export interface RateLimitRuleInput {
  id?: string;
  ref?: string;
  action: RateLimitAction;
  expression: string;
  description: string;
  enabled: boolean;
  action_parameters?: { response: RateLimitBlockResponse };
  ratelimit: RateLimitParameters;
}
