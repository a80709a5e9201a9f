/**
 * Rate limiting rules (`http_ratelimit`) in a trace: a rule's compiled expressions and counter, the
 * key of a request from the rule's characteristics, and one step of the phase for one request.
 * Rules run in list order; disabled ones do not; the first rule whose action stops the request
 * (block or a challenge) ends the phase, a `log` records and goes on.
 *
 * Characteristic values: `cf.colo.id` is one data center; `ip.src` and `cf.unique_visitor_id` are
 * the client IP (IPv6 counted per /64; zonewall sees no NAT, so both are the IP); a header, cookie,
 * query argument or form field is its first value, and a missing one is a key of its own, distinct
 * from an empty value; `lookup_json_*` read the body as JSON.
 */
import { ColoCharacteristic, RateLimitFieldLimits, RatelimitPhase, type RateLimitMatch, type RateLimitParameters, type RateLimitTrace, CountingPhase } from '../../api/index.js';
import { formatIp, parseIp, parseIpv4, type ExecutionContext, type Phase, type RequestFields } from '../../expr/index.js';
import type { StoredRule } from '../rulesets/types.js';
import { matcher, matches } from './matchers.js';
import { RateLimitCounter } from './ratelimit-counter.js';

const Stopping: ReadonlySet<string> = new Set(['block', 'challenge', 'js_challenge', 'managed_challenge']);
const Missing = '\u0000missing';

/** A rule ready to count. */
export interface CountingRule {
  ref: string;
  id: string;
  action: string;
  expression: string;
  ratelimit: RateLimitParameters;
  status_code?: number;
  counter: RateLimitCounter;
  stops: boolean;
  /** The expression and the counting expression, compiled on first use. */
  test?: (context: ExecutionContext) => boolean;
  countTest?: (context: ExecutionContext) => boolean;
}

/** `source` compiled once (one that names a list is matched with the request's lists, `matches`). */
function tester(source: string, phase: Phase): (context: ExecutionContext) => boolean {
  return source.includes('$') ? (context) => matches(source, phase, context) : matcher(source, phase);
}

/** The enabled rules of an entry point with fresh counters. */
export function countingRules(rules: readonly StoredRule[]): CountingRule[] {
  return rules.filter((r) => r.enabled && r.ratelimit !== undefined).map((r) => {
    const rl = r.ratelimit as RateLimitParameters;
    const threshold = rl.requests_per_period ?? rl.score_per_period ?? Number.MAX_SAFE_INTEGER;
    const out: CountingRule = { ref: r.ref, id: r.id, action: r.action, expression: r.expression, ratelimit: rl, counter: new RateLimitCounter(rl.period, threshold, rl.mitigation_timeout ?? 0), stops: Stopping.has(r.action) };
    if (r.action === 'block') out.status_code = (r.action_parameters as { response?: { status_code?: number } } | undefined)?.response?.status_code ?? RateLimitFieldLimits.defaultStatus;
    return out;
  });
}

function first(map: FieldValueMap | undefined, name: string): string {
  const v = map?.[name];
  if (v === undefined) return Missing;
  return Array.isArray(v) ? (v.length === 0 ? Missing : String(v[0])) : String(v);
}

type FieldValueMap = Record<string, unknown>;

function ipKey(value: unknown): string {
  // A dotted quad `parseIpv4` takes is already canonical (it refuses leading zeros): its own key.
  if (typeof value === 'string' && parseIpv4(value) !== undefined) return value;
  const ip = typeof value === 'string' ? parseIp(value) : undefined;
  if (ip === undefined) return String(value ?? Missing);
  // IPv6 is counted per /64.
  return typeof ip === 'bigint' ? `${formatIp((ip >> 64n) << 64n)}/64` : formatIp(ip);
}

/** A characteristic read from a map field (`field["key"]`, a header's name lower-cased), else null; each read once. */
function keyedOf(c: string): { field: string; key: string } | null {
  let k = keyedCache.get(c);
  if (k === undefined) {
    const m = /^([a-z_.]+)\["(.*)"\]$/.exec(c);
    k = m === null ? null : { field: m[1]!, key: m[1] === 'http.request.headers' ? m[2]!.toLowerCase() : m[2]! };
    if (keyedCache.size >= 1000) keyedCache.clear();
    keyedCache.set(c, k);
  }
  return k;
}

const keyedCache = new Map<string, { field: string; key: string } | null>();

/** The value of one characteristic for a request (its plain fields). */
export function characteristicValue(c: string, fields: RequestFields): string {
  if (c === ColoCharacteristic) return '';
  if (c === 'ip.src' || c === 'cf.unique_visitor_id') return ipKey(fields['ip.src']);
  const keyed = keyedOf(c);
  if (keyed !== null) return first(fields[keyed.field] as FieldValueMap | undefined, keyed.key);
  const json = /^lookup_json_(string|integer)\(http\.request\.body\.raw, "(.*)"\)$/.exec(c);
  if (json !== null) {
    try {
      const v = (JSON.parse(String(fields['http.request.body.raw'] ?? '')) as FieldValueMap)[json[2]!];
      return v === undefined ? Missing : JSON.stringify(v);
    } catch {
      return Missing;
    }
  }
  const v = fields[c];
  return v === undefined ? Missing : String(v);
}

/** The counter key of a request for a rule: its characteristics' values. */
export function counterKey(rule: CountingRule, fields: RequestFields): string {
  const cs = rule.ratelimit.characteristics;
  if (cs.length === 2 && cs[0] === ColoCharacteristic) return characteristicValue(cs[1]!, fields);
  return cs.map((c) => characteristicValue(c, fields)).join('\u0001');
}

/** What one rule makes of one request, computed once per distinct request of a burst. */
export interface RulePrepared {
  rule: number;
  key: string;
  applies: boolean;
  counted: boolean;
  weight: number;
}

/** Whether a rule counts by its own counting expression (else by its expression). */
export function hasCounting(rl: RateLimitParameters): boolean {
  return rl.counting_expression !== undefined && rl.counting_expression !== '';
}

/** Whether `rule` applies to a request (its expression) and counts it (its counting expression; `cached`: served from cache). */
export function ruleAnswer(rule: CountingRule, context: ExecutionContext, cached: boolean): { applies: boolean; counted: boolean } {
  const rl = rule.ratelimit;
  const applies = (rule.test ??= tester(rule.expression, RatelimitPhase))(context);
  const counting = hasCounting(rl) ? (rule.countTest ??= tester(rl.counting_expression!, CountingPhase))(context) : applies;
  return { applies, counted: counting && !(cached && rl.requests_to_origin) };
}

/** What one request counts for `rule`: 1, or for a complexity-based rule the score its response header gives (0 without one). */
export function requestWeight(rule: CountingRule, fields: RequestFields): number {
  const name = rule.ratelimit.score_response_header_name;
  if (name === undefined) return 1;
  const header = first(fields['http.response.headers'] as FieldValueMap | undefined, name.toLowerCase());
  return header === Missing ? 0 : Math.max(0, Number(header) || 0);
}

/** The rules that match or count `request` (`cached`: served from cache), with their keys. */
export function prepareRequest(rules: readonly CountingRule[], context: ExecutionContext, fields: RequestFields, cached: boolean): RulePrepared[] {
  const out: RulePrepared[] = [];
  rules.forEach((rule, i) => {
    const { applies, counted } = ruleAnswer(rule, context, cached);
    if (!applies && !counted) return;
    out.push({ rule: i, key: counterKey(rule, fields), applies, counted, weight: requestWeight(rule, fields) });
  });
  return out;
}

/** The enabled rate limiting rules whose expression matches one request (each would count it; one request alone exceeds no rate). */
export function traceRateLimitRules(rules: readonly StoredRule[], request: ExecutionContext): RateLimitTrace {
  const matched: RateLimitMatch[] = [];
  for (const rule of rules) {
    if (!rule.enabled || !matches(rule.expression, RatelimitPhase, request)) continue;
    const m: RateLimitMatch = { id: rule.id, action: rule.action };
    if (rule.ref !== '') m.ref = rule.ref;
    if (rule.description !== '') m.description = rule.description;
    matched.push(m);
  }
  return { matched };
}

/** What the phase did to one request: the rules that acted (the last one stopped it, if any stopped it). */
export interface RateLimitStep {
  rule: number;
  /** End of the action (ms), -1 for a throttle. */
  until: number;
}

/** Runs one request (prepared) through the phase at `atMs`; returns the rules that acted. */
export function rateLimitStep(rules: readonly CountingRule[], prepared: readonly RulePrepared[], atMs: number): RateLimitStep[] {
  let out: RateLimitStep[] | undefined;
  for (let i = 0; i < prepared.length; i++) {
    const p = prepared[i]!;
    const rule = rules[p.rule]!;
    const until = rule.counter.hit(p.key, atMs, p.counted, p.applies, p.weight);
    if (until === undefined) continue;
    (out ??= []).push({ rule: p.rule, until });
    if (rule.stops) break;
  }
  return out ?? NoSteps;
}

const NoSteps: RateLimitStep[] = [];
