/**
 * Plan tiers' quotas and entitlements. The defaults are the real service's figures (api-facts.md
 * §3): firewall rule quota free 5, pro 20, business 100, enterprise 1000; the `log` action on
 * Enterprise only; the `matches` operator on Business and Enterprise; WAF custom rules free 5, pro 20,
 * business 100, enterprise 1000, with a custom block response from Pro (custom-rules.md §2.6). Everything is configurable
 * (`EngineOptions.limits`, `zonewall serve --limits FILE`: `limits-file.ts`), tier by tier and field by field.
 *
 * Decision: the quota counts *active* rules, i.e. rules that are not paused (the reference says
 * "counting active rules"). Paused rules never count, so a zone may hold more rules than its quota
 * as long as no more than the quota are active; creating, unpausing or bulk-writing rules that
 * would make the active count exceed the quota is refused.
 */
import { CustomRuleQuota } from '../api/index.js';
import { ZonewallError } from '../errors.js';
import { duplicateKeyMessage, firstDuplicateKey, jsonErrorPlace } from '../json-text.js';
import { PlanTiers, type PlanTier } from './types.js';

/** One tier's quotas and entitlements. */
export interface TierLimits {
  /** Most active (non-paused) firewall rules a zone may have. */
  firewall_rules: number;
  /** Whether the `log` firewall rule action is available. */
  log: boolean;
  /** Whether rules may use filters with the `matches` (regex) operator. */
  matches: boolean;
  /** Most WAF custom rules (enabled or not) the `http_request_firewall_custom` entry point may hold. */
  custom_rules: number;
  /** Whether a custom rule's `block` may carry a custom `response`. */
  custom_response: boolean;
}

/** Limits of every tier. */
export type PlanLimitsConfig = Record<PlanTier, TierLimits>;

/** An override: any tier, any field (what `EngineOptions.limits` and `--limits FILE` take). */
export type PlanLimitsOverride = Partial<Record<PlanTier, Partial<TierLimits>>>;

/** The real service's figures. */
export const DefaultPlanLimits: PlanLimitsConfig = {
  free: { firewall_rules: 5, log: false, matches: false, custom_rules: CustomRuleQuota.free, custom_response: false },
  pro: { firewall_rules: 20, log: false, matches: false, custom_rules: CustomRuleQuota.pro, custom_response: true },
  business: { firewall_rules: 100, log: false, matches: true, custom_rules: CustomRuleQuota.business, custom_response: true },
  enterprise: { firewall_rules: 1000, log: true, matches: true, custom_rules: CustomRuleQuota.enterprise, custom_response: true },
};

/** The gated features, as named in `TierLimits` and in error messages. */
export type Feature = 'log' | 'matches' | 'custom_response';

/** Defaults with an override applied (validated: see `validatePlanLimits`). */
export function resolvePlanLimits(override: PlanLimitsOverride = {}): PlanLimitsConfig {
  validatePlanLimits(override, 'limits');
  const out = {} as PlanLimitsConfig;
  for (const tier of PlanTiers) out[tier] = { ...DefaultPlanLimits[tier], ...override[tier] };
  return out;
}

/**
 * The plan limit overrides of the JSON text `text` (`serve --limits FILE`, named `file`; the Worker's
 * `ZONEWALL_LIMITS`), `what` naming it in a syntax error: valid JSON (a syntax error at its line and
 * column, the text not quoted), no key written twice in one object (JSON keeps the last, silently:
 * a `"free"` written twice loses the first; refused at `FILE:LINE:COLUMN`), and well-formed.
 */
export function readPlanLimitsText(text: string, file: string, what = `the limits file ${file}`): PlanLimitsOverride {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    // The parser's message quotes the text, newlines included: say where in one line.
    throw new ZonewallError('ERR_USAGE', `${what} is not valid JSON${jsonErrorPlace(text, err)}`, { cause: err });
  }
  const duplicate = firstDuplicateKey(text);
  if (duplicate !== undefined) throw new ZonewallError('ERR_USAGE', duplicateKeyMessage(file, text, duplicate));
  validatePlanLimits(parsed, file);
  return parsed as PlanLimitsOverride;
}

/** Throws naming the bad entry unless `value` is a well-formed `PlanLimitsOverride`. */
export function validatePlanLimits(value: unknown, where: string): void {
  const fail = (msg: string): never => {
    throw new ZonewallError('ERR_USAGE', `${where}: ${msg}`);
  };
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail('must be an object keyed by plan tier');
  for (const [tier, limits] of Object.entries(value as object)) {
    if (!(PlanTiers as readonly string[]).includes(tier)) fail(`unknown plan tier ${JSON.stringify(tier)} (expected ${PlanTiers.join(', ')})`);
    if (typeof limits !== 'object' || limits === null || Array.isArray(limits)) fail(`${tier} must be an object`);
    for (const [field, v] of Object.entries(limits as object)) {
      if (field === 'firewall_rules' || field === 'custom_rules') {
        if (!Number.isSafeInteger(v) || (v as number) < 0) fail(`${tier}.${field} must be a non-negative integer`);
      } else if (field === 'log' || field === 'matches' || field === 'custom_response') {
        if (typeof v !== 'boolean') fail(`${tier}.${field} must be true or false`);
      } else {
        fail(`${tier}: unknown field ${JSON.stringify(field)} (expected firewall_rules, log, matches, custom_rules, custom_response)`);
      }
    }
  }
}

/** The cheapest tier that has `feature`, for "needs <tier> or higher" messages; undefined if none. */
export function cheapestTierWith(feature: Feature, limits: PlanLimitsConfig): PlanTier | undefined {
  return PlanTiers.find((tier) => limits[tier][feature]);
}
