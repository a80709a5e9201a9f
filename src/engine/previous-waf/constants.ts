/**
 * Words, limits and error codes of the previous WAF's APIs (reference §5). Codes 1002-1004 are the
 * not-found codes Terraform treats as "gone" (real codes, messages unconfirmed); 1027 and its message
 * are real; `wafuriconfig.api.not_found` is the real not-found message of URI-based overrides (its
 * code is zonewall's). Calls after the migration or on a Free zone use the migration's 11010/11011.
 *
 * | code | HTTP | condition |
 * |------|------|-----------|
 * | 1002 | 404  | no such package |
 * | 1003 | 404  | no such group in the package |
 * | 1004 | 404  | no such rule in the package |
 * | 1005 | 404  | no such URI-based override (`wafuriconfig.api.not_found`) |
 * | 1027 | 400  | PATCH of a traditional package (`Only anomaly WAF packages can have their package attributes updated`) |
 */

/** Error codes of the previous WAF's APIs (see the table above). */
export const PreviousWafErrors = {
  packageNotFound: { code: 1002, status: 404 },
  groupNotFound: { code: 1003, status: 404 },
  ruleNotFound: { code: 1004, status: 404 },
  overrideNotFound: { code: 1005, status: 404 },
  notAnomalyPackage: { code: 1027, status: 400 },
} as const;

/** Page sizes of the previous WAF's lists (real: default 50, 5..100). */
export const LegacyPageLimits = { defaultPerPage: 50, minPerPage: 5, maxPerPage: 100 } as const;

/** Modes a rule list can be filtered on: the real API's short codes and zonewall's full names. */
export const RuleModeCodes: Readonly<Record<string, string>> = { DIS: 'disable', CHL: 'challenge', BLK: 'block', SIM: 'simulate' };

/** Actions of a URI-based override's `rules`, `groups` and `rewrite_action` entries. */
export const WafOverrideActions = ['default', 'disable', 'simulate', 'block', 'challenge'] as const;

/** Field limits of a URI-based override (TF: priority -1e9..1e9). */
export const OverrideLimits = { priorityMin: -1_000_000_000, priorityMax: 1_000_000_000, description: 500, urls: 100, url: 2048 } as const;
