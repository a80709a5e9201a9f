/**
 * Fields of the Rules language that some plans lack in WAF custom rules (rules-language.md §2.1,
 * custom-rules.md §2.6): the cheapest tier whose zones may use each, written once for the engine
 * (which refuses a rule using one with 20204) and `validate --plan` / `plan` (a positioned error).
 * Bot Management is an Enterprise add-on: zonewall has no add-ons, so it needs Enterprise. The
 * first entry whose pattern matches the field decides.
 */
import type { PlanTier } from './zones.js';

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
