/**
 * Limits the manifest enforces before anything reaches a zone. They are the service's own limits
 * (reference/api-facts.md §2, §3), checked offline so that a plan never fails on them at apply time.
 * The JSON Schema states the same numbers; these are the ones code compares against.
 */

/** The service's limits on what a manifest declares. */
export const ManifestLimits = {
  /** A key becomes the live object's `ref`, which holds at most 50 characters. */
  keyLength: 50,
  /** `description` of filters and firewall rules. */
  descriptionLength: 500,
  /** Maximum expression length accepted by the API (characters). */
  expressionLength: 4096,
  /** Firewall rule priorities are 1..2147483647. */
  minPriority: 1,
  maxPriority: 2_147_483_647,
  /** YAML nesting deeper than this is refused (no manifest needs more than ~8 levels). */
  maxDepth: 64,
  /** Nodes that aliases may expand to, in total: stops "billion laughs" documents. */
  maxAliasNodes: 10_000,
} as const;

/** Active (not paused) firewall rules allowed per plan tier (reference/api-facts.md §3). */
export const ActiveRuleQuota = { free: 5, pro: 20, business: 100, enterprise: 1000 } as const;

/**
 * WAF custom rules allowed per plan tier: every rule of the `http_request_firewall_custom` phase,
 * enabled or not (reference/custom-rules.md §2.6; Pro+ has 40, zonewall knows the four tiers only).
 */
export const CustomRuleQuota = { free: 5, pro: 20, business: 100, enterprise: 1000 } as const;

/** Page Rules allowed per plan tier, active or disabled (the service's figures, as `src/api`'s `PageRuleLimits.perPlan`). */
export const PageRuleQuota = { free: 3, pro: 20, business: 50, enterprise: 125 } as const;
