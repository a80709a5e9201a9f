/**
 * The desired state of the managed rules kind: the managed rulesets the
 * `http_request_firewall_managed` entry point deploys, overrides in the service's shape.
 */
import type { SourceLocation } from '../source-location.js';

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

/**
 * What a managed-rules exception skips, in the service's shape (`action_parameters` of a `skip`
 * rule) with catalog aliases resolved to ruleset ids: the rest of the entry point, some managed
 * rulesets, or some rules of some managed rulesets.
 */
export type DesiredManagedSkip =
  | { ruleset: 'current' }
  | { rulesets: string[] }
  | { rules: Record<string, string[]> };

/**
 * A managed-rules exception: a `skip` rule of the `http_request_firewall_managed` entry point, which
 * skips managed rules of the execute rules after it for the requests its expression matches.
 */
export interface DesiredManagedException {
  /** The entry point rule's ref (required in the manifest: exceptions have no default). */
  ref: string;
  skip: DesiredManagedSkip;
  /** Canonical expression. */
  expression: string;
  description: string;
  enabled: boolean;
  /** Left out when the manifest does not say (the service's default: logged). */
  logging?: { enabled: boolean };
  /**
   * Its place among the entry point's rules: the number of `managedRules` (execute entries) that
   * come before it in the manifest. Exceptions with the same `after` keep their manifest order.
   */
  after: number;
  location: SourceLocation;
  fieldLocations?: Partial<Record<string, SourceLocation>>;
}

declare module '../desired.js' {
  interface DesiredZone {
    /** undefined when the manifest has no `managed_rules` section: the entry point is left alone. */
    managedRules?: DesiredManagedRuleset[];
    /**
     * The exceptions (`skip` items) of `managed_rules`; set (maybe empty) exactly when
     * `managedRules` is. `managedEntrypointRules` interleaves the two in the manifest's order.
     */
    managedExceptions?: DesiredManagedException[];
  }
}
