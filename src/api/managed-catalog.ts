/**
 * The service's fixed identifiers and figures of the managed rulesets and of the previous WAF's
 * packages, the same in every account (`reference/api-facts.md` §4–§7): the rulesets' ids, the OWASP
 * anomaly-score rule (949110) and its score thresholds, the paranoia-level categories, the previous
 * WAF's package ids and its OWASP package's thresholds. The engine's catalog serves them; the
 * migration maps between them.
 */

/** Ids of the managed rulesets of the new WAF, keyed by the manifest's catalog aliases. */
export const ManagedRulesetIds = {
  managed: 'efb7b8c949ac4650a09736fc376e9aee',
  owasp: '4814384a9e5d4991b9815dcfc25d2f1f',
  exposed_credentials: 'c2e184081120413c86c3ab7e14069605',
  free: '77454fe2d30c4220b5701f6fdfb893ba',
} as const;

/** One catalog alias of a managed ruleset. */
export type ManagedRulesetAlias = keyof typeof ManagedRulesetIds;

/** The Cloudflare OWASP Core Ruleset's id. */
export const OwaspRulesetId = ManagedRulesetIds.owasp;

/** The Cloudflare Free Managed Ruleset's id: the only managed ruleset a free zone may deploy. */
export const FreeRulesetId = ManagedRulesetIds.free;

/** The OWASP rule whose override carries the score threshold and the action (`949110: Inbound Anomaly Score Exceeded`). */
export const OwaspScoreRuleId = '6179ae15870a4bb7b2d480d4843b323c';

/** OWASP score thresholds by name (a higher level is a lower number: more sensitive): Low 60, Medium 40 (default), High 25. */
export const OwaspScoreThresholds = { low: 60, medium: 40, high: 25 } as const;

/** Ids of the previous WAF's packages, keyed by the manifest's aliases. */
export const PreviousWafPackageIds = {
  cloudflare: '1e334934fd7ae32ad705667f8c1057aa',
  owasp: 'c504870194831cd12c3fc0284f294abb',
} as const;

/**
 * Defaults of the previous WAF, which a Terraform destroy resets to (api-facts §7): a package's
 * `sensitivity` and `action_mode`, a group's `mode`, a rule's `mode` (`default`, or `on` where
 * `default` is not among the rule's `allowed_modes`).
 */
export const PreviousWafDefaults = { sensitivity: 'high', action_mode: 'challenge', group_mode: 'on', rule_mode: 'default' } as const;

/** Sensitivities of a previous WAF anomaly package (its OWASP package). */
export const PreviousWafSensitivities = ['high', 'medium', 'low', 'off'] as const;
/** One sensitivity of an anomaly package. */
export type PreviousWafSensitivity = (typeof PreviousWafSensitivities)[number];
/** Action modes of a previous WAF anomaly package. */
export const PreviousWafActionModes = ['simulate', 'block', 'challenge'] as const;
/** One action mode of an anomaly package. */
export type PreviousWafActionMode = (typeof PreviousWafActionModes)[number];

/** Anomaly thresholds of the previous OWASP package (2.x) by sensitivity (AJAX requests used 120/80/65). */
export const LegacyOwaspThresholds = { high: 25, medium: 40, low: 60 } as const;
