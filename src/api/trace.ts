/**
 * The trace operation's answer (`POST /zones/{zone_id}/trace`, a zonewall extension): what the zone
 * would do to one request, phase by phase. Written once here: the engine answers it, the providers
 * read it, policy tests judge it.
 */
import type { CustomSkipParameters, SkipPhase, SkipProduct } from './custom-rules.js';
import type { ManagedSkipParameters } from './managed-rules.js';
import type { WafState } from './migration.js';

/** A matched custom rule. */
export interface CustomMatch {
  /** The rule's `ref`: the manifest key that names it. */
  ref: string;
  id: string;
  action: string;
  description?: string;
  /** What a matching skip rule skipped. */
  skip?: CustomSkipParameters;
  /** Status of a block's custom response. */
  status_code?: number;
}

/** What the custom rules did to the request. */
export interface CustomTrace {
  /** Whether the zone has a custom rules entry point with at least one enabled rule. */
  enabled: boolean;
  matched: CustomMatch[];
  /** The terminating action, or null when the request goes on to the later phases. */
  action: string | null;
  /** The rule that decided (its `ref` names it), or null. */
  rule: CustomMatch | null;
  /** Later phases skipped by matched skip rules. */
  skipped_phases: SkipPhase[];
  /** Products skipped by matched skip rules. */
  skipped_products: SkipProduct[];
  /** The ref of a skip rule that ended the custom rules (`ruleset: "current"`). */
  ended_by?: string;
  /** Why the custom rules did not run for this request (a firewall rule ended it first). */
  skipped_by?: string;
}

/** A matched firewall rule as the trace reports it. */
export interface FirewallMatch {
  id: string;
  ref?: string;
  action: string;
  priority: number | null;
  description?: string;
  products?: string[];
}

/** What the firewall rules did to the request. */
export interface FirewallTrace {
  matched: FirewallMatch[];
  /** The terminating action, or null when no terminating rule matched (the request goes on). */
  action: string | null;
  /** The first terminating rule, or null. */
  rule: FirewallMatch | null;
  /** Products skipped by matched `bypass` rules (e.g. `waf`: the previous WAF is skipped). */
  bypassed: string[];
}

/** A matched managed rule. */
export interface ManagedMatch {
  /** The entry point rule that ran the ruleset. */
  entrypoint_rule: string;
  ruleset_id: string;
  ruleset: string;
  rule_id: string;
  description: string;
  action: string;
  categories: string[];
  score?: number;
}

/** OWASP anomaly scoring of one execution. */
export interface OwaspScore {
  score: number;
  threshold: number;
  action: string;
  exceeded: boolean;
  paranoia_levels: number[];
}

/** What the new WAF did. */
export interface ManagedTrace {
  enabled: boolean;
  matched: ManagedMatch[];
  action: string | null;
  rule: ManagedMatch | null;
  /**
   * Skip rules that matched (managed-rules exceptions): the entry point rule, what it skipped, and
   * the managed rules it skipped that match the request (`rules`: what the exception let through;
   * each with the execute rule that would have run it). Rules skipped after another rule ended the
   * request are not evaluated.
   */
  skipped: { entrypoint_rule: string; skip: ManagedSkipParameters; rules?: ManagedMatch[] }[];
  owasp?: OwaspScore;
  /** Why the new WAF did not run for this request (a firewall rule ended it first). */
  skipped_by?: string;
}

/** A matched previous WAF rule. */
export interface LegacyMatch {
  package_id: string;
  package: string;
  group_id: string | null;
  group: string | null;
  rule_id: string;
  description: string;
  mode: string;
  action: string;
  score?: number;
}

/** What the previous WAF did. */
export interface PreviousTrace {
  enabled: boolean;
  /** Why it did not run, when it did not. */
  skipped?: string;
  /** The URI-based override that applied. */
  override?: string;
  matched: LegacyMatch[];
  action: string | null;
  rule: LegacyMatch | null;
  owasp?: { score: number; threshold: number; sensitivity: string; action_mode: string; exceeded: boolean };
}

/** A rate limiting rule whose expression matches the request. */
export interface RateLimitMatch {
  id: string;
  ref?: string;
  action: string;
  description?: string;
}

/**
 * The rate limiting rules (`http_ratelimit`) as one request meets them: the enabled rules whose
 * expression matches it (each would count it). One request alone never exceeds a rate
 * (`requests_per_period` is at least 1), so no rule acts on it here; a burst
 * (`POST /zones/{id}/trace/burst`) says when one does. `skipped_by`: why the phase did not run (a
 * firewall or custom rule ended the request, or a custom skip rule skips the phase).
 */
export interface RateLimitTrace {
  matched: RateLimitMatch[];
  skipped_by?: string;
}

/** Which part of the zone gave the final verdict. */
export type ZoneTraceDecider = 'firewall_rules' | 'custom_rules' | 'managed_rules' | 'previous_waf';

/**
 * The trace operation's answer. `action` is the final verdict (null: the request reaches the
 * origin) and `decided_by` which part gave it; `managed_rules` appears unless the zone runs only
 * the previous WAF and has no entry point, `previous_waf` unless the zone has migrated or is Free.
 */
export interface ZoneTrace {
  waf_state: WafState;
  action: string | null;
  decided_by: ZoneTraceDecider | null;
  firewall_rules: Omit<FirewallTrace, 'bypassed'>;
  /** Present when the zone has a custom rules entry point; `rule.ref` names the deciding rule. */
  custom_rules?: CustomTrace;
  /** Present when the zone has a rate limiting entry point: the rules whose expressions match (none acts on one request). */
  rate_limiting_rules?: RateLimitTrace;
  managed_rules?: ManagedTrace;
  previous_waf?: PreviousTrace;
}
