/**
 * The `http_request_firewall_managed` entry point as the Rulesets API returns it (execute and skip
 * rules), and the body of its PUT: the managed rules kind's part of `LiveZone`.
 */

/** Overrides of an `execute` rule: ruleset, category (tag) and rule level. */
export interface ManagedOverrides {
  action?: string;
  enabled?: boolean;
  categories?: { category: string; action?: string; enabled?: boolean }[];
  rules?: { id: string; action?: string; enabled?: boolean; score_threshold?: number }[];
}

/** Fields every rule of the `http_request_firewall_managed` entry point has, whatever its action. */
interface EntrypointRuleFields {
  id?: string;
  version?: string;
  expression: string;
  description?: string;
  ref?: string;
  enabled: boolean;
  last_updated?: string;
}

/** `action_parameters` of an `execute` rule: the managed ruleset it deploys, with overrides. */
export interface ExecuteParameters {
  id: string;
  version?: string;
  overrides?: ManagedOverrides;
}

/**
 * `action_parameters` of a `skip` rule (an exception), exactly one of: `ruleset: "current"` skips
 * the rules after it in the entry point; `rulesets` skips executing those managed rulesets; `rules`
 * skips single rules, by managed ruleset id.
 */
export type SkipParameters =
  | { ruleset: 'current'; rulesets?: never; rules?: never }
  | { rulesets: string[]; ruleset?: never; rules?: never }
  | { rules: Record<string, string[]>; ruleset?: never; rulesets?: never };

/** An entry point rule that deploys (executes) a managed ruleset. */
export interface ExecuteEntrypointRule extends EntrypointRuleFields {
  action: 'execute';
  action_parameters: ExecuteParameters;
}

/**
 * An entry point rule that skips managed rules for the requests it matches (a managed-rules
 * exception), e.g. one the migration made of a firewall rule that bypassed the previous WAF; the
 * manifest writes them as `managed_rules` items with `skip`.
 */
export interface SkipEntrypointRule extends EntrypointRuleFields {
  action: 'skip';
  action_parameters: SkipParameters;
  /** Whether requests that match are logged (skip rules only). */
  logging?: { enabled: boolean };
}

/** One rule of the `http_request_firewall_managed` entry point: an `execute` or a `skip`. */
export type EntrypointRule = ExecuteEntrypointRule | SkipEntrypointRule;

/** Whether an entry point rule executes a managed ruleset (narrows its parameters). */
export function isExecuteRule(r: EntrypointRule): r is ExecuteEntrypointRule {
  return r.action === 'execute';
}

/** The zone's `http_request_firewall_managed` entry point ruleset. */
export interface LiveEntrypoint {
  id: string;
  name: string;
  description?: string;
  kind: 'zone';
  phase: 'http_request_firewall_managed';
  version: string;
  last_updated?: string;
  rules: EntrypointRule[];
}

/** The body of a PUT of the entry point. */
export interface EntrypointBody {
  name?: string;
  description?: string;
  rules: EntrypointRule[];
}

declare module '../live.js' {
  interface LiveZone {
    /** null when the zone has no entry point for the phase yet. */
    entrypoint: LiveEntrypoint | null;
  }
  interface LiveSectionRegistry {
    entrypoint: true;
  }
}
