/**
 * Desired state: what a manifest asks for, normalised so the planner can compare it with the live
 * zone without knowing YAML. Keys of the manifest become `ref`s; expressions are in canonical form
 * (`format(parse(x))` of `src/expr`); defaults are filled in. Produced by `normalize.ts`.
 */

/** Plan tiers of a zone (the same words as the service). */
export type DesiredPlanTier = 'free' | 'pro' | 'business' | 'enterprise';

/** Firewall rule actions (the same words as the service). */
export type DesiredFirewallAction =
  | 'log' | 'bypass' | 'allow' | 'challenge' | 'managed_challenge' | 'js_challenge' | 'block';

/** Where something was written: for errors found after loading (e.g. by the planner). */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

/** A filter. Inline filters of rules are listed here too, with `inline: true`. */
export interface DesiredFilter {
  /** The manifest key (or, for an inline filter, its rule's key). Stored on the live filter as `ref`. */
  ref: string;
  /** A previous key: the live filter with this ref is kept and renamed. */
  renamedFrom?: string;
  /** Canonical form of the expression. */
  expression: string;
  description: string;
  paused: boolean;
  /** True when declared inline in a firewall rule. */
  inline: boolean;
  location: SourceLocation;
  /**
   * Where individual fields were written (`expression`, `action`, `priority`, ...), so errors found
   * after loading (plan tier checks) can point at the field rather than the key; `matches` is where
   * the expression's first `matches` operator is. Absent for objects not loaded from a file.
   */
  fieldLocations?: Partial<Record<string, SourceLocation>>;
}

/** A firewall rule; it names its filter by the filter's ref. */
export interface DesiredFirewallRule {
  ref: string;
  renamedFrom?: string;
  action: DesiredFirewallAction;
  filterRef: string;
  /**
   * Effective priority. Rules are evaluated in manifest key order unless `priority` is set: a rule
   * without one gets the previous rule's priority + 1 (the first gets 1). `null` only when the
   * manifest says `priority: null` (runs after every prioritised rule).
   */
  priority: number | null;
  description: string;
  paused: boolean;
  products: string[];
  location: SourceLocation;
  /**
   * Where individual fields were written (`expression`, `action`, `priority`, ...), so errors found
   * after loading (plan tier checks) can point at the field rather than the key. Absent for objects
   * not loaded from a file.
   */
  fieldLocations?: Partial<Record<string, SourceLocation>>;
}

/** Actions of a WAF custom rule (the service's words, phase `http_request_firewall_custom`). */
export type DesiredCustomAction = 'block' | 'challenge' | 'js_challenge' | 'managed_challenge' | 'log' | 'skip';

/**
 * `action_parameters` of a custom rule, in the service's shape with sets sorted: `response` only for
 * block, the skip fields only for skip; undefined parts are left out.
 */
export interface DesiredCustomParameters {
  response?: { status_code: number; content_type: string; content: string };
  ruleset?: 'current';
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

/** Overrides of a managed ruleset, in the service's shape. */
export interface DesiredManagedOverrides {
  action?: string;
  enabled?: boolean;
  categories: { category: string; action?: string; enabled?: boolean }[];
  rules: { id: string; action?: string; enabled?: boolean; score_threshold?: number }[];
}

/** One managed ruleset deployed by the `http_request_firewall_managed` entry point. */
export interface DesiredManagedRuleset {
  /** The entry point rule's ref: the manifest's `ref`, else the catalog alias, else the ruleset id. */
  ref: string;
  /** Resolved ruleset id (aliases such as `managed`, `owasp` resolved). */
  rulesetId: string;
  enabled: boolean;
  /** Canonical expression; `true` by default (all traffic). */
  expression: string;
  description: string;
  /** OWASP paranoia level, score threshold and action are already folded into these overrides. */
  overrides: DesiredManagedOverrides;
  location: SourceLocation;
  /**
   * Where individual fields were written (`expression`, `action`, `priority`, ...), so errors found
   * after loading (plan tier checks) can point at the field rather than the key. Absent for objects
   * not loaded from a file.
   */
  fieldLocations?: Partial<Record<string, SourceLocation>>;
}

/** Settings of the previous WAF while the zone has not migrated. */
export interface DesiredPreviousWaf {
  /** Keyed by package id (aliases `owasp` and `cloudflare` resolved). */
  packages: Record<string, { sensitivity?: 'high' | 'medium' | 'low' | 'off'; action_mode?: 'simulate' | 'block' | 'challenge' }>;
  /** Group id to mode. */
  groups: Record<string, 'on' | 'off'>;
  /** Rule id to mode. */
  rules: Record<string, string>;
  location: SourceLocation;
  /** Where each package (by resolved id), group and rule id was written, for findings about one of them. */
  keyLocations?: { packages: Record<string, SourceLocation>; groups: Record<string, SourceLocation>; rules: Record<string, SourceLocation> };
}

/** One Page Rule (`page_rules.<key>`): matched to a live Page Rule by its URL pattern. */
export interface DesiredPageRule {
  /** The manifest key (a label: Page Rules have no ref). */
  key: string;
  /** The URL pattern of the `url` target (operator `matches`). */
  url: string;
  /** The `disable_security` action. */
  disableSecurity: boolean;
  /** The `waf` action, when set. */
  waf?: 'on' | 'off';
  status: 'active' | 'disabled';
  priority: number;
  location: SourceLocation;
}

/** The WAF migration mode the manifest asks for. */
export type DesiredWafMigration = 'none' | 'validation' | 'pending';

/** One zone's desired state. */
export interface DesiredZone {
  /** The manifest file. */
  file: string;
  /** Zone name or id. */
  zone: string;
  /** Plan tier used when the embedded engine creates the zone (`plan:` in the manifest). */
  plan?: DesiredPlanTier;
  filters: DesiredFilter[];
  firewallRules: DesiredFirewallRule[];
  /**
   * WAF custom rules in evaluation order; undefined when the manifest has no `custom_rules`
   * section: the custom phase is left alone.
   */
  customRules?: DesiredCustomRule[];
  /** undefined when the manifest has no `managed_rules` section: the entry point is left alone. */
  managedRules?: DesiredManagedRuleset[];
  /** undefined when the manifest has no `previous_waf` section. */
  previousWaf?: DesiredPreviousWaf;
  /** undefined when the manifest has no `page_rules` section: the zone's Page Rules are left alone. */
  pageRules?: DesiredPageRule[];
  /** undefined when the manifest has no `waf_migration`. */
  wafMigration?: DesiredWafMigration;
  /** Location of top-level sections, for errors about a whole section (`waf_migration`, `previous_waf`). */
  locations: Record<string, SourceLocation>;
}
