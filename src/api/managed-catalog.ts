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

/** The OWASP rule whose override carries the score threshold and the action (`949110: Inbound Anomaly Score Exceeded`). */
export const OwaspScoreRuleId = '6179ae15870a4bb7b2d480d4843b323c';

/** OWASP score thresholds by name (a higher level is a lower number: more sensitive): Low 60, Medium 40 (default), High 25. */
export const OwaspScoreThresholds = { low: 60, medium: 40, high: 25 } as const;

/** Ids of the previous WAF's packages, keyed by the manifest's aliases. */
export const PreviousWafPackageIds = {
  cloudflare: '1e334934fd7ae32ad705667f8c1057aa',
  owasp: 'c504870194831cd12c3fc0284f294abb',
} as const;

/** Anomaly thresholds of the previous OWASP package (2.x) by sensitivity (AJAX requests used 120/80/65). */
export const LegacyOwaspThresholds = { high: 25, medium: 40, low: 60 } as const;
