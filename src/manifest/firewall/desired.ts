/**
 * The desired state of the firewall kind: filters (inline ones too) and firewall rules, as the
 * planner compares them with the live zone.
 */
import type { SourceLocation } from '../source-location.js';

/** Firewall rule actions (the same words as the service). */
export type DesiredFirewallAction =
  | 'log' | 'bypass' | 'allow' | 'challenge' | 'managed_challenge' | 'js_challenge' | 'block';

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

declare module '../desired.js' {
  interface DesiredZone {
    filters: DesiredFilter[];
    firewallRules: DesiredFirewallRule[];
  }
}
