/**
 * Words and limits of the firewall rules API (api-facts.md §3): the actions in precedence order,
 * the products a `bypass` rule can skip, field limits and the priority range.
 */

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
