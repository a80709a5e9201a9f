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

declare module '../desired.js' {
  interface DesiredZone {
    /** undefined when the manifest has no `managed_rules` section: the entry point is left alone. */
    managedRules?: DesiredManagedRuleset[];
  }
}
