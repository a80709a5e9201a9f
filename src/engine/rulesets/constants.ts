/**
 * Words and limits of the Rulesets API entry points as the engine uses them. Error codes, route
 * patterns and the wire limits are the contract in `src/api/rulesets.ts` (its table lists every
 * code); this file adds the engine's own lists (actions refused with a hint, accepted fields).
 */
import { ManagedRuleActions, RulesetErrorCodes, RulesetFieldLimits } from '../../api/index.js';

/** Rule actions of the `http_request_firewall_managed` phase. */
export const EntrypointActions = ManagedRuleActions;

/** Actions of the Rulesets API that exist but not in this phase (refused with a pointer to the right ones). */
export const OtherRuleActions = [
  'block', 'challenge', 'js_challenge', 'managed_challenge', 'log', 'rewrite', 'redirect', 'route', 'score',
  'serve_error', 'set_config', 'set_cache_settings', 'compress_response', 'log_custom_field', 'force_connection_close',
  'ddos_dynamic', 'ddos_mitigation',
] as const;

/** Actions an override may set (ruleset, category or rule level). */
export const RulesetOverrideActions = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log'] as const;

/** Field limits of the entry points. */
export const EntrypointLimits = {
  rules: RulesetFieldLimits.managedRules,
  name: RulesetFieldLimits.name,
  description: RulesetFieldLimits.description,
  ruleDescription: RulesetFieldLimits.ruleDescription,
  expression: RulesetFieldLimits.expression,
  ref: RulesetFieldLimits.ref,
  scoreThresholdMax: 10000,
} as const;

/** Top-level fields of a PUT body; the read-only ones are accepted (a GET body can be sent back) and ignored. */
export const EntrypointFields = ['name', 'description', 'rules', 'kind', 'phase', 'id', 'version', 'last_updated', 'source'] as const;
/** Fields of a rule; `version`, `last_updated` and `categories` are read-only and ignored. */
export const RulesetRuleFields = ['id', 'ref', 'version', 'action', 'expression', 'description', 'enabled', 'action_parameters', 'logging', 'last_updated'] as const;

/** Error codes of the Rulesets API (`src/api/rulesets.ts`). */
export const RulesetErrors = RulesetErrorCodes;

/** The name of one Rulesets API error (`src/api`'s). */
export type { RulesetErrorKind } from '../../api/index.js';
