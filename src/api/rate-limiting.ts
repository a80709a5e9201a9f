/**
 * Wire contract of rate limiting rules: the `http_ratelimit` phase's zone entry point (the same
 * Rulesets API as custom rules, `rulesets.ts`), a rule's `ratelimit` object, its actions, the
 * characteristics, periods and mitigation timeouts the service knows, and the per-plan table
 * (security-phases.md §1, from the public docs' "availability by plan" partial). Types, `as const`
 * constants and the characteristic check, shared by the engine (server), the manifest (tier checks)
 * and `providers/v4` (client).
 */
import type { BlockContentType } from './custom-rules.js';
import type { RuleCommonFields } from './rule-fields.js';

/** The rate limiting rules phase. */
export const RatelimitPhase = 'http_ratelimit';
/** The phase whose fields a rate limiting rule's `counting_expression` may use: request and response fields (the counting then happens on the response). */
export const CountingPhase = 'http_response_firewall_managed';

/** Actions of a rate limiting rule; `log` needs Enterprise, as in custom rules. */
export const RateLimitActions = ['block', 'challenge', 'js_challenge', 'managed_challenge', 'log'] as const;
export type RateLimitAction = (typeof RateLimitActions)[number];
/** The challenge actions, which below Enterprise must send `mitigation_timeout: 0`. */
export const RateLimitChallengeActions = ['challenge', 'js_challenge', 'managed_challenge'] as const;

/** The characteristic every rule carries through the API (the dashboard adds it implicitly). */
export const ColoCharacteristic = 'cf.colo.id';
/** Characteristics without a key; `ip.src` and `cf.unique_visitor_id` exclude each other. */
export const PlainCharacteristics = [
  'cf.colo.id', 'ip.src', 'cf.unique_visitor_id', 'http.host', 'http.request.uri.path', 'ip.src.asnum', 'ip.src.country',
  'cf.bot_management.ja3_hash', 'cf.bot_management.ja4',
] as const;
/** Characteristics with a key, written `field["key"]` (header names lower case). */
export const KeyedCharacteristics = ['http.request.headers', 'http.request.cookies', 'http.request.uri.args', 'http.request.body.form'] as const;
/** Characteristics that read a JSON body's key: `fn(http.request.body.raw, "key")`. */
export const JsonCharacteristics = ['lookup_json_string', 'lookup_json_integer'] as const;

const Keyed = new RegExp(`^(${KeyedCharacteristics.map((k) => k.replace(/\./g, '\\.')).join('|')})\\["(.+)"\\]$`);
const Json = new RegExp(`^(${JsonCharacteristics.join('|')})\\(http\\.request\\.body\\.raw, "(.+)"\\)$`);

/**
 * Why `value` is not a characteristic, in the API's spelling, with `plain` the keyless ones that
 * may be written (default every one; a manifest leaves out `cf.colo.id`, which zonewall adds);
 * undefined when it is one. The engine (a rule's body) and the manifest ask it alike.
 */
export function characteristicProblem(value: string, plain: readonly string[] = PlainCharacteristics): string | undefined {
  if (plain.includes(value) || Json.test(value)) return undefined;
  const keyed = Keyed.exec(value);
  if (keyed === null) return `${JSON.stringify(value)} is not a characteristic: use ${plain.join(', ')}, ${KeyedCharacteristics.map((k) => `${k}["name"]`).join(', ')} or lookup_json_string(http.request.body.raw, "key")`;
  if (keyed[1] === 'http.request.headers' && keyed[2] !== keyed[2]!.toLowerCase()) return `header names in characteristics are lower case: http.request.headers["${keyed[2]!.toLowerCase()}"]`;
  return undefined;
}

/** Every period (seconds) of the per-plan table; a tier may use those up to its longest. */
export const RateLimitPeriods = [10, 15, 20, 30, 40, 45, 60, 90, 120, 180, 240, 300, 480, 600, 900, 1200, 1800, 2400, 3600, 65535, 86400] as const;
/** Every mitigation timeout (seconds); 0 = throttle (only the requests over the rate get the action). */
export const MitigationTimeouts = [0, 10, 60, 120, 300, 600, 3600, 86400] as const;

/** What one plan tier allows (security-phases.md §1 "Per plan"). */
export interface RateLimitTier {
  /** Rules the entry point may hold (disabled ones count). */
  rules: number;
  /** Fields a rule expression may use; `null` = every field of the phase. */
  fields: readonly string[] | null;
  /** Characteristics besides `cf.colo.id`; `null` = every one. */
  characteristics: readonly string[] | null;
  /** Whether `counting_expression` may be set. */
  countingExpression: boolean;
  /** Longest `period`, seconds. */
  longestPeriod: number;
  /** Longest `mitigation_timeout`, seconds. */
  longestTimeout: number;
  /** Whether block and log may throttle (timeout 0) and challenges may have a timeout: Enterprise only. */
  anyTimeout: boolean;
  /** Whether the complexity-based variant (`score_per_period`) may be used. */
  complexity: boolean;
}

const FreeFields = ['http.request.uri.path', 'cf.bot_management.verified_bot', 'cf.client.bot'] as const;
const ProFields = [...FreeFields, 'http.host', 'http.request.uri', 'http.request.full_uri', 'http.request.uri.query'] as const;
const BusinessFields = [...ProFields, 'http.request.method', 'ip.src', 'http.user_agent'] as const;

/**
 * The per-plan table. zonewall's Enterprise includes Advanced Rate Limiting (zonewall has no
 * add-ons, as Bot Management in custom rules): every field, characteristic, the complexity-based
 * variant, and the periods up to 86,400 s the table lists (65,535 s is plain Enterprise's longest).
 */
export const RateLimitTiers = {
  free: { rules: 1, fields: FreeFields, characteristics: ['ip.src'], countingExpression: false, longestPeriod: 10, longestTimeout: 10, anyTimeout: false, complexity: false },
  pro: { rules: 2, fields: ProFields, characteristics: ['ip.src'], countingExpression: false, longestPeriod: 60, longestTimeout: 3600, anyTimeout: false, complexity: false },
  business: { rules: 5, fields: BusinessFields, characteristics: ['ip.src', 'cf.unique_visitor_id'], countingExpression: true, longestPeriod: 600, longestTimeout: 86400, anyTimeout: false, complexity: false },
  enterprise: { rules: 100, fields: null, characteristics: null, countingExpression: true, longestPeriod: 86400, longestTimeout: 86400, anyTimeout: true, complexity: true },
} as const satisfies Record<string, RateLimitTier>;

/** Field limits of a rate limiting rule. */
export const RateLimitFieldLimits = {
  /** A block `response` body, bytes (30 KB; custom rules have 2 KB). */
  responseContent: 30720,
  /** Default status of a block without a custom response. */
  defaultStatus: 429,
  /** `requests_per_period` and `score_per_period` at least 1. */
  minCount: 1,
  /** The score the origin may send per request (complexity-based). */
  maxScore: 1_000_000,
} as const;

/** A rule's `ratelimit` object as returned (the API's names). */
export interface RateLimitParameters {
  /** Always includes `cf.colo.id`. */
  characteristics: string[];
  period: number;
  requests_per_period?: number;
  score_per_period?: number;
  score_response_header_name?: string;
  mitigation_timeout: number;
  /** Absent or `""` = the rule's expression. */
  counting_expression?: string;
  /** true = count only requests that reach the origin (not cached ones). */
  requests_to_origin: boolean;
}

/** A rate limiting block's custom response (status 400..499, body ≤ 30 KB). */
export interface RateLimitBlockResponse {
  status_code: number;
  content_type: BlockContentType;
  content: string;
}

/** One rate limiting rule as returned. */
export interface RateLimitRule extends RuleCommonFields {
  action: RateLimitAction;
  /** Only `block` may carry `{response}`. */
  action_parameters?: { response: RateLimitBlockResponse };
  ratelimit: RateLimitParameters;
}
