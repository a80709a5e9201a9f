/**
 * The desired state of the custom rules kind: WAF custom rules of the `http_request_firewall_custom`
 * phase entry point, as the planner compares them with the live zone.
 */
import type { SourceLocation } from '../source-location.js';

/** Actions of a WAF custom rule (the service's words, phase `http_request_firewall_custom`). */
export type DesiredCustomAction = 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'log' | 'skip';

/**
 * `action_parameters` of a custom rule, in the service's shape with sets sorted: `response` only for
 * block, the skip fields only for skip; undefined parts are left out.
 */
export interface DesiredCustomParameters {
  response?: { status_code: number; content_type: string; content: string };
  ruleset?: 'current';
  /** `current`: skip the rest of the whole phase. */
  phase?: 'current';
  phases?: string[];
  products?: string[];
}

/** A WAF custom rule of the `http_request_firewall_custom` phase entry point. */
export interface DesiredCustomRule {
  /** The manifest key; stored on the live rule as `ref`. */
  ref: string;
  action: DesiredCustomAction;
  /** Canonical form of the expression. */
  expression: string;
  description: string;
  enabled: boolean;
  /** Skip rules only: whether matches are logged (the service's default is true). */
  logging?: { enabled: boolean };
  /** Undefined when the action takes none. */
  actionParameters?: DesiredCustomParameters;
  location: SourceLocation;
  /** Where individual fields were written, for errors found after loading (plan tier checks); `matches`: the expression's first `matches` operator. */
  fieldLocations?: Partial<Record<string, SourceLocation>>;
}

declare module '../desired.js' {
  interface DesiredZone {
    /**
     * WAF custom rules in evaluation order; undefined when the manifest has no `custom_rules`
     * section: the custom phase is left alone.
     */
    customRules?: DesiredCustomRule[];
  }
}
