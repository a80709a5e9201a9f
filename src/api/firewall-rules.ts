/**
 * Firewall rules on the wire (api-facts.md §3): actions in precedence order, bypass products,
 * field limits, body fields, the rule object, the delete option and the route patterns.
 */
import type { FilterJson } from './filters.js';

/**
 * Firewall rule actions in the service's precedence order: the tie-break between rules of equal
 * priority (`log` first, `block` last). `log` and `bypass` do not terminate evaluation.
 */
export const FirewallActions = ['log', 'bypass', 'allow', 'challenge', 'managed_challenge', 'js_challenge', 'block'] as const;
/** One firewall rule action. */
export type FirewallAction = (typeof FirewallActions)[number];

/** Products a `bypass` rule skips. */
export const BypassProducts = ['zoneLockdown', 'uaBlock', 'bic', 'hot', 'securityLevel', 'rateLimit', 'waf'] as const;
/** One bypassable product. */
export type BypassProduct = (typeof BypassProducts)[number];

/** Field limits of a firewall rule. */
export const FirewallRuleLimits = {
  description: 500,
  ref: 50,
  /** OAS range; `null` means "no priority" (runs after every prioritised rule). */
  priorityMin: 0,
  priorityMax: 2147483647,
} as const;

/** Fields a rule body may carry on create. */
export const RuleCreateFields = ['action', 'filter', 'priority', 'paused', 'description', 'ref', 'products'] as const;
/** Fields a rule body may carry on update: the create fields plus read-only ones echoed from a GET. */
export const RuleUpdateFields = [...RuleCreateFields, 'id', 'created_on', 'modified_on'] as const;
/** Fields of a filter reference inside a rule update: `id`, plus the filter's own fields, ignored. */
export const FilterReferenceFields = ['id', 'expression', 'paused', 'description', 'ref', 'locked', 'deleted'] as const;

/** A firewall rule as the firewall rules API returns it. */
export interface FirewallRuleJson {
  id: string;
  paused: boolean;
  description?: string;
  ref?: string;
  action: FirewallAction;
  priority: number | null;
  products?: BypassProduct[];
  /** The referenced filter, or `{ id, deleted: true }` when it is gone (OAS "DeletedFilter"). */
  filter: FilterJson | { id: string; deleted: true };
  created_on: string;
  modified_on: string;
}

/**
 * The option of a rule delete (JSON body of `DELETE …/rules/{id}`; the engine also takes it in the
 * body or query of a bulk delete): also delete the rule's filter when no other rule uses it. The
 * only way a simplified-flow filter can be deleted.
 */
export const DeleteFilterIfUnused = 'delete_filter_if_unused';

/** The body of a rule delete. */
export interface RuleDeleteBody {
  delete_filter_if_unused?: boolean;
}

/** Query parameters of `GET /zones/{zone_id}/firewall/rules`. */
export const FirewallRuleListParams = { description: 'description', action: 'action', paused: 'paused', id: 'id' } as const;

/** Route patterns of firewall rules; `:name` segments are path parameters. Bulk deletes take `?id=A&id=B`. */
export const FirewallRulePaths = {
  collection: '/zones/:zone_id/firewall/rules',
  item: '/zones/:zone_id/firewall/rules/:rule_id',
} as const;
