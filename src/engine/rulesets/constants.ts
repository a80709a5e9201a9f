/**
 * Words, limits and error codes of the Rulesets API entry point. `10003` (entry point not found) is
 * the real code and message (reference §4); the 202xx codes are zonewall's (the reference has no
 * codes for these refusals), listed here once:
 *
 * | code  | HTTP | condition |
 * |-------|------|-----------|
 * | 10003 | 404  | no entry point for the phase yet (real) |
 * | 20201 | 400  | unknown managed ruleset id (`action_parameters.id`, skip `rulesets` / `rules` keys) |
 * | 20202 | 400  | unknown rule id or category of a managed ruleset (overrides, skip `rules`) |
 * | 20203 | 400  | an action that is not valid where it is used |
 * | 20204 | 400  | a ruleset the zone's plan cannot deploy |
 * | 20205 | 400  | an entry point rule `id` that is not one of this entry point's rules, or listed twice |
 * | 20206 | 404  | `GET /rulesets/{id}`: no such ruleset |
 * | 20207 | 404  | `GET .../entrypoint/versions/{v}`: no such version |
 *
 * Field type errors use the engine's 10014 and bad expressions its 10015 (`Filter parsing error`).
 */

/** Rule actions of the `http_request_firewall_managed` phase. */
export const EntrypointActions = ['execute', 'skip'] as const;

/** Actions of the Rulesets API that exist but not in this phase (refused with a pointer to the right ones). */
export const OtherRuleActions = [
  'block', 'challenge', 'js_challenge', 'managed_challenge', 'log', 'rewrite', 'redirect', 'route', 'score',
  'serve_error', 'set_config', 'set_cache_settings', 'compress_response', 'log_custom_field', 'force_connection_close',
  'ddos_dynamic', 'ddos_mitigation',
] as const;

/** Actions an override may set (ruleset, category or rule level). */
export const OverrideActions = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log'] as const;

/** Field limits of the entry point (zonewall's where the real ones are unpublished). */
export const EntrypointLimits = {
  rules: 1000,
  name: 255,
  description: 500,
  ruleDescription: 500,
  /** The Rules language's API limit. */
  expression: 4096,
  /** Unpublished for rulesets; long enough for manifest keys. */
  ref: 100,
  scoreThresholdMax: 10000,
} as const;

/** Top-level fields of a PUT body; the read-only ones are accepted (a GET body can be sent back) and ignored. */
export const EntrypointFields = ['name', 'description', 'rules', 'kind', 'phase', 'id', 'version', 'last_updated', 'source'] as const;
/** Fields of a rule; `version`, `last_updated` and `categories` are read-only and ignored. */
export const RuleFields = ['id', 'ref', 'version', 'action', 'expression', 'description', 'enabled', 'action_parameters', 'logging', 'last_updated'] as const;

/** Error codes of the Rulesets API (see the table above). */
export const RulesetErrors = {
  entrypointNotFound: { code: 10003, status: 404 },
  unknownRuleset: { code: 20201, status: 400 },
  unknownRule: { code: 20202, status: 400 },
  badAction: { code: 20203, status: 400 },
  notEntitled: { code: 20204, status: 400 },
  unknownEntrypointRule: { code: 20205, status: 400 },
  rulesetNotFound: { code: 20206, status: 404 },
  versionNotFound: { code: 20207, status: 404 },
} as const;

/** The name of one Rulesets API error. */
export type RulesetErrorKind = keyof typeof RulesetErrors;
