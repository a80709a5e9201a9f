/**
 * Fields of the Rules language that some plans lack (rules-language.md §2.1, custom-rules.md §2.6):
 * the cheapest tier whose zones may use each, written once for the engine and `validate --plan` /
 * `plan` (a positioned error), in every expression a zone keeps: filters (10201), WAF custom rules,
 * rate limiting rules (expression and counting expression) and the managed phase's rules, its
 * exceptions included (20204). The matcher is here too, so no layer has a copy of its own.
 * Bot Management is an Enterprise add-on: zonewall has no add-ons, so it needs Enterprise. The
 * first entry whose pattern matches the field decides.
 */
import { PlanTiers, type PlanTier } from './zones.js';

/** One plan-gated family of fields: a regular expression over the field name, and the tier it needs. */
export interface PlanGatedField {
  pattern: string;
  tier: PlanTier;
  /** What the fields are, for messages. */
  what: string;
}

/** The plan-gated fields, first match wins. */
export const PlanGatedFields: readonly PlanGatedField[] = [
  { pattern: '^cf\\.waf\\.score\\.class$', tier: 'business', what: 'the attack score class' },
  { pattern: '^cf\\.waf\\.score(\\.|$)', tier: 'enterprise', what: 'attack scores' },
  { pattern: '^ip\\.(src|geoip)\\.(subdivision_[12]_iso_code|is_in_european_union)$', tier: 'business', what: 'geo subdivisions and is_in_european_union' },
  { pattern: '^cf\\.bot_management\\.', tier: 'enterprise', what: 'Bot Management fields (an Enterprise add-on)' },
  { pattern: '^http\\.request\\.body\\.', tier: 'enterprise', what: 'request body fields' },
];

/** One plan-gated field an expression uses that a plan lacks. */
export interface PlanGatedUse {
  field: string;
  /** The cheapest tier that has it. */
  tier: PlanTier;
  what: string;
}

const gatedMatchers = PlanGatedFields.map((g) => ({ ...g, re: new RegExp(g.pattern) }));

/** The plan-gated family of `field`, or undefined when every plan may use it. */
export function planGatedField(field: string): PlanGatedField | undefined {
  return gatedMatchers.find((g) => g.re.test(field));
}

/**
 * The fields of `fields` (an expression's, as `inspect` lists them) that `plan` lacks, in name order.
 * @example planGatedUses(['cf.waf.score', 'http.host'], 'pro') // [{ field: 'cf.waf.score', tier: 'enterprise', what: 'attack scores' }]
 */
export function planGatedUses(fields: Iterable<string>, plan: PlanTier): PlanGatedUse[] {
  const out: PlanGatedUse[] = [];
  for (const field of [...fields].sort()) {
    const g = planGatedField(field);
    if (g !== undefined && PlanTiers.indexOf(plan) < PlanTiers.indexOf(g.tier)) out.push({ field, tier: g.tier, what: g.what });
  }
  return out;
}
