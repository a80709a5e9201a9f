/**
 * The `cloudflare_ruleset` resources of a Terraform state, one table row per phase: which manifest
 * section a zone's entry point of that phase becomes, and how. Provider v4 (SDKv2: nested blocks as
 * one-element lists, `""` and `0` for unset) and v5 (plugin framework: objects, `null`) are read
 * through the same attribute helpers, so both give the same manifest.
 *
 * A phase whose manifest section does not exist yet has a row without `convert`, with the reason
 * the report prints ("not converted yet"). Plugging a phase in: give its row a `convert` that turns
 * the resource's `rules` into the section's value (and the live ids it names, for adoption), and add
 * the section to `renderConvertedManifest` and the adoption (terraform-adopt.ts).
 */
import { CustomPhase, ManagedPhase, RatelimitPhase } from '../api/index.js';
import type { CustomRule, RateLimitingRule } from '../manifest/index.js';
import { createCanonicalizer, exportCustomRules, exportRateLimitRules, type LiveCustomRule, type LiveRateLimitRule } from '../plan/index.js';
import { bool, list, num, obj, str } from './terraform-attributes.js';
import type { TfResource } from './terraform-state.js';

/** A rule of a converted phase: its manifest key and the live rule id the state names. */
export interface PhaseRuleSource { key: string; id: string }

/** A rules phase as converted: its section's rules by key, and the rule ids each key adopts. */
export interface ConvertedPhaseRules<T> {
  address: string;
  rules: Record<string, T>;
  sources: PhaseRuleSource[];
}

/** The custom phase as converted: `custom_rules`, and the rule ids each key adopts. */
export type ConvertedCustomRules = ConvertedPhaseRules<CustomRule>;

/** The rate limiting phase as converted: `rate_limiting_rules`, and the rule ids each key adopts. */
export type ConvertedRateLimitRules = ConvertedPhaseRules<RateLimitingRule>;

/** What one row's conversion gives: the section's part, and why some rules were left out. */
export interface PhaseConversion {
  custom?: ConvertedCustomRules;
  rateLimit?: ConvertedRateLimitRules;
  problems: string[];
}

/** One phase of the table. */
export interface RulesetPhase {
  phase: string;
  /** The manifest section it becomes. */
  section: string;
  /** Converts a zone entry point resource of the phase; absent: the phase is not converted yet. */
  convert?: (r: TfResource) => PhaseConversion;
  /** Why a phase without `convert` is not converted: printed in the report. */
  notYet?: string;
}

/** `action_parameters` of a custom rule, from either provider version (only what custom rules take). */
function parametersOf(value: unknown): Record<string, unknown> | undefined {
  const p = obj(value);
  if (p === undefined) return undefined;
  const out: Record<string, unknown> = {};
  const response = obj(p.response);
  if (response !== undefined && num(response, 'status_code') !== undefined) {
    out.response = { status_code: num(response, 'status_code'), content_type: str(response, 'content_type') ?? 'text/html', content: typeof response.content === 'string' ? response.content : '' };
  }
  const ruleset = str(p, 'ruleset');
  if (ruleset !== undefined) out.ruleset = ruleset;
  for (const field of ['phases', 'products'] as const) {
    const values = list(p[field]).filter((v) => typeof v === 'string');
    if (values.length > 0) out[field] = values;
  }
  // Anything else set (v4 stores every unset attribute as "" / [] / 0 / false): a parameter custom rules do not take.
  for (const [k, v] of Object.entries(p)) {
    if (k in out || k === 'response' || k === 'ruleset' || k === 'phases' || k === 'products') continue;
    if (v === null || v === '' || v === 0 || v === false || (Array.isArray(v) && v.length === 0) || (typeof v === 'object' && !Array.isArray(v) && Object.keys(v).length === 0)) continue;
    out[k] = v;
  }
  return Object.keys(out).length > 0 ? out : undefined;
}

/** The fields every phase's state rule has, as the Rulesets API would return them. */
function ruleBaseOf(r: Record<string, unknown>, index: number, address: string) {
  return {
    // A rule without an id (a state written before apply) gets a stable stand-in: the resource's address and position.
    id: str(r, 'id') ?? `${address}#${index + 1}`,
    action: str(r, 'action') ?? '(none)',
    expression: str(r, 'expression') ?? 'true',
    ...(str(r, 'description') !== undefined ? { description: str(r, 'description') } : {}),
    enabled: bool(r, 'enabled') ?? true,
    ...(str(r, 'ref') !== undefined ? { ref: str(r, 'ref') } : {}),
  };
}

/** A state rule of the custom phase as the Rulesets API would return it. */
function liveRuleOf(value: unknown, index: number, address: string): LiveCustomRule {
  const r = obj(value) ?? {};
  const logging = obj(r.logging);
  const loggingEnabled = bool(logging, 'enabled');
  const params = parametersOf(r.action_parameters);
  return {
    ...ruleBaseOf(r, index, address),
    ...(loggingEnabled !== undefined ? { logging: { enabled: loggingEnabled } } : {}),
    ...(params !== undefined ? { action_parameters: params as LiveCustomRule['action_parameters'] } : {}),
  };
}

/**
 * The custom phase's rules, keyed as `zonewall export` keys a live zone: the rule's ref where it has
 * one of its own (not its id, the API's default), else a slug of its description, else `rule-` and
 * the first 8 characters of its id — the same keys whether the state or the zone is read.
 */
export function convertCustomRuleset(r: TfResource): PhaseConversion {
  const rules = list(r.attributes.rules).map((v, i) => liveRuleOf(v, i, r.address));
  const exported = exportCustomRules({ id: str(r.attributes, 'id') ?? r.address, name: 'default', kind: 'zone', phase: CustomPhase, version: '1', rules }, createCanonicalizer());
  const problems = (exported?.skipped ?? []).map((s) => `custom rule ${s.ref ?? s.id}: ${s.reason.replace(/; it stays in the zone.*$/, '')}: not converted, it stays in the zone unmanaged (recreate it by hand)`);
  const sources = (exported?.objects ?? []).map((o) => ({ key: o.key, id: o.id }));
  return { custom: { address: r.address, rules: exported?.rules ?? {}, sources }, problems };
}

/** A rule's `ratelimit` from either provider version (v4: a one-element list, `0`/`""` unset; v5: an object, `null`). */
function ratelimitOf(value: unknown): LiveRateLimitRule['ratelimit'] {
  const rl = obj(value);
  if (rl === undefined) return undefined;
  const out: NonNullable<LiveRateLimitRule['ratelimit']> = {};
  const characteristics = list(rl.characteristics).filter((c): c is string => typeof c === 'string');
  if (characteristics.length > 0) out.characteristics = characteristics;
  for (const field of ['period', 'requests_per_period', 'score_per_period', 'mitigation_timeout'] as const) {
    const v = num(rl, field);
    if (v !== undefined) out[field] = v;
  }
  const header = str(rl, 'score_response_header_name');
  if (header !== undefined) out.score_response_header_name = header;
  const counting = str(rl, 'counting_expression');
  if (counting !== undefined) out.counting_expression = counting;
  if (bool(rl, 'requests_to_origin') === true) out.requests_to_origin = true;
  return out;
}

/** A state rule of the rate limiting phase as the Rulesets API would return it. */
function liveRateLimitRuleOf(value: unknown, index: number, address: string): LiveRateLimitRule {
  const r = obj(value) ?? {};
  const response = obj(obj(r.action_parameters)?.response);
  const ratelimit = ratelimitOf(r.ratelimit);
  return {
    ...ruleBaseOf(r, index, address),
    ...(response !== undefined && str(response, 'content') !== undefined
      ? { action_parameters: { response: { ...(num(response, 'status_code') !== undefined ? { status_code: num(response, 'status_code') } : {}), content_type: str(response, 'content_type') ?? 'text/html', content: str(response, 'content')! } } }
      : {}),
    ...(ratelimit !== undefined ? { ratelimit } : {}),
  };
}

/**
 * The rate limiting phase's rules, keyed as `zonewall export` keys a live zone (the ref where the
 * rule has one of its own, else a slug of its description, else `rule-` + 8 characters of its id);
 * `cf.colo.id` is left out of the characteristics (zonewall adds it).
 */
export function convertRateLimitRuleset(r: TfResource): PhaseConversion {
  const rules = list(r.attributes.rules).map((v, i) => liveRateLimitRuleOf(v, i, r.address));
  const exported = exportRateLimitRules({ id: str(r.attributes, 'id') ?? r.address, name: 'default', kind: 'zone', phase: RatelimitPhase, version: '1', rules }, createCanonicalizer());
  const problems = (exported?.skipped ?? []).map((s) => `rate limiting rule ${s.ref ?? s.id}: ${s.reason.replace(/; it stays in the zone.*$/, '')}: not converted, it stays in the zone unmanaged (recreate it by hand)`);
  const sources = (exported?.objects ?? []).map((o) => ({ key: o.key, id: o.id }));
  return { rateLimit: { address: r.address, rules: exported?.rules ?? {}, sources }, problems };
}

/**
 * The phases zonewall knows, in manifest order. The managed phase is converted by
 * terraform-ruleset.ts (kept there: its entries are the migration's too).
 */
export const RulesetPhases: readonly RulesetPhase[] = [
  { phase: CustomPhase, section: 'custom_rules', convert: convertCustomRuleset },
  { phase: ManagedPhase, section: 'managed_rules' },
  { phase: RatelimitPhase, section: 'rate_limiting_rules', convert: convertRateLimitRuleset },
];

/** The table row of a phase, or undefined for a phase zonewall has no section for. */
export function rulesetPhase(phase: string | undefined): RulesetPhase | undefined {
  return RulesetPhases.find((p) => p.phase === phase);
}

/** Resource kinds of the state (after the provider prefix) that are known but not converted yet, with the reason. */
export const NotConvertedYet: Readonly<Record<string, string>> = {};
