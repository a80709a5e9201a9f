/**
 * Wire contract of the managed phase's rules (`http_request_firewall_managed` entry point): the
 * `execute` rules that deploy a managed ruleset, with their category and rule overrides, and the
 * `skip` rules, as the Rulesets API returns them. The entry point and its bodies are in `rulesets.ts`.
 */
import type { RuleCommonFields, RuleLogging } from './rule-fields.js';

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

/** `action_parameters` of a managed-phase `skip` rule: exactly one of the three. */
export interface ManagedSkipParameters {
  /** `current`: skip the remaining rules of the entry point. */
  ruleset?: 'current';
  /** Skip executing these managed rulesets. */
  rulesets?: string[];
  /** Skip these rules, by managed ruleset id. */
  rules?: Record<string, string[]>;
}

/** Rule actions of the managed phase. */
export const ManagedRuleActions = ['execute', 'skip'] as const;
export type ManagedRuleAction = (typeof ManagedRuleActions)[number];

/** A managed-phase rule as returned. */
export interface ManagedRule extends RuleCommonFields {
  action: ManagedRuleAction;
  action_parameters: ExecuteParameters | ManagedSkipParameters;
  logging?: RuleLogging;
}
