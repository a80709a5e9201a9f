/**
 * Filters and firewall rules as the filters and firewall rules APIs return them, and the bodies
 * the planner asks providers to send: the firewall kind's part of `LiveZone`.
 */

import type { BypassProduct, FirewallAction } from '../../api/index.js';

/** Firewall rule actions, in the service's precedence order; products a `bypass` rule can skip (`src/api`). */
export { BypassProducts, FirewallActions, type BypassProduct, type FirewallAction } from '../../api/index.js';

/** A filter as the filters API returns it. */
export interface LiveFilter {
  id: string;
  expression: string;
  paused: boolean;
  description?: string;
  ref?: string;
  /**
   * zonewall engine extension: true for a filter created inline by the simplified flow, which
   * refuses PUT and DELETE. The real service does not expose this: absent means false when the
   * zone's `filterLocks` is `reported`, and "not known" when it is `unknown`.
   */
  locked?: boolean;
}

/** A firewall rule as the firewall rules API returns it. */
export interface LiveFirewallRule {
  id: string;
  action: FirewallAction;
  priority: number | null;
  paused: boolean;
  description?: string;
  ref?: string;
  products?: BypassProduct[];
  /** The referenced filter, or `{ id, deleted: true }` when it is gone. */
  filter: LiveFilter | { id: string; deleted: true };
  created_on?: string;
  modified_on?: string;
}

/** Bodies the planner asks providers to send. */
export interface FilterBody {
  expression: string;
  paused: boolean;
  description?: string;
  ref?: string;
}

/** A firewall rule body for the recommended flow: the filter by id. */
export interface FirewallRuleBody {
  action: FirewallAction;
  priority: number | null;
  paused: boolean;
  description?: string;
  ref?: string;
  products?: BypassProduct[];
  filter: { id: string };
}

declare module '../live.js' {
  interface LiveZone {
    filters: LiveFilter[];
    firewallRules: LiveFirewallRule[];
    /**
     * Whether the service marks simplified-flow filters (`locked`, a zonewall extension): `unknown`
     * for a service with the real API's shapes only; absent means `reported`.
     */
    filterLocks?: 'reported' | 'unknown';
  }
}
