/**
 * Validation of rate limiting rules (`http_ratelimit`), whatever the zone's plan: one rule's common
 * fields (as custom rules), its action (block, the challenges, log), a block's optional `response`
 * (status 400..499, default 429, a known content type, at most 30 KB), and the `ratelimit` object:
 * `characteristics` (known values, `cf.colo.id` required, `ip.src` and `cf.unique_visitor_id`
 * exclusive, no duplicates), `period` and `mitigation_timeout` from the service's lists,
 * `requests_per_period` or the complexity-based `score_per_period` with its header, the counting
 * expression (request and response fields), `requests_to_origin`, and the restriction that a rule
 * whose expression or counting expression uses a custom list (not a managed `$cf.*` one) counts
 * cached requests too. Plan limits are `ratelimit-entitlements.ts`.
 */
import {
  BlockContentTypes,
  characteristicProblem,
  ColoCharacteristic,
  MitigationTimeouts,
  PlainCharacteristics,
  RateLimitActions,
  RateLimitFieldLimits,
  RateLimitPeriods,
  RatelimitPhase,
  type RateLimitAction,
  type RateLimitBlockResponse,
  type RateLimitParameters,
  CountingPhase,
} from '../../api/index.js';
import { ExpressionError, customListUses, mixesListsAndFieldsOutside, parse, type Phase } from '../../expr/index.js';
import { apiMessage } from '../api-errors.js';
import { BodyReader, Problems, jsonType, quote } from '../body-reader.js';
import { RulesetRuleFields } from './constants.js';
import { addProblem } from './errors.js';
import type { RateLimitRuleInput } from './types.js';
import { expressionCheck, readCommonRuleFields, type ExpressionCheck } from './validate.js';

/**
 * The rate limiting phase's expression check, where the field `cf.colo.id` (a characteristic, which
 * the phase's fields leave out) is refused naming why; the text `cf.colo.id` inside a string literal
 * is no field and passes.
 */
const checkRuleExpression = withColoMessage(expressionCheck(RatelimitPhase));

/** Reads one rate limiting rule at `pointer`; `extra` are further allowed keys (`position`). */
export function readRateLimitRule(item: unknown, pointer: string, problems: Problems, extra: readonly string[] = []): RateLimitRuleInput | undefined {
  const r = new BodyReader(item, pointer, problems, 'a rule object');
  if (!r.valid) return undefined;
  r.allowOnly([...RulesetRuleFields.filter((f) => f !== 'logging'), 'ratelimit', ...extra]);
  const action = r.oneOf('action', RateLimitActions, { required: true });
  const common = readCommonRuleFields(r, problems, checkRuleExpression);
  const before = problems.list.length;
  const params = action === undefined ? undefined : readParameters(r, action, problems);
  const ratelimit = readRatelimit(r, problems);
  if (ratelimit !== undefined && common !== undefined && ratelimit.requests_to_origin
    && (usesCustomList(common.expression, RatelimitPhase) || usesCustomList(ratelimit.counting_expression, CountingPhase))) {
    problems.add(`${r.at('ratelimit')}/requests_to_origin`, 'a rule whose expression or counting expression uses a custom list must count cached requests too: requests_to_origin must be false');
  }
  if (action === undefined || common === undefined || ratelimit === undefined || problems.list.length > before) return undefined;
  const rule: RateLimitRuleInput = { action, ...common, ratelimit };
  if (params !== undefined) rule.action_parameters = params;
  return rule;
}

/** Whether a (valid) counting expression uses a custom list and a field of the response (security-phases.md §1, restrictions). */
function mixesResponseFieldsAndLists(source: string): boolean {
  return mixesListsAndFieldsOutside(parse(source, { phase: CountingPhase }), source, RatelimitPhase);
}

/**
 * Whether a (valid) expression uses a custom list: the service's restriction names custom lists,
 * so the managed `$cf.*` lists go with `requests_to_origin: true` (security-phases.md §1).
 */
function usesCustomList(expression: string | undefined, phase: Phase): boolean {
  if (expression === undefined) return false;
  try {
    return customListUses(parse(expression, { phase }), expression).length > 0;
  } catch {
    return false;
  }
}

function readParameters(r: BodyReader, action: RateLimitAction, problems: Problems): { response: RateLimitBlockResponse } | undefined {
  if (!r.has('action_parameters')) return undefined;
  const at = r.at('action_parameters');
  const p = new BodyReader(r.raw('action_parameters'), at, problems);
  if (!p.valid) return undefined;
  if (action !== 'block') {
    if (Object.keys(r.raw('action_parameters') as object).length > 0) addProblem(problems, 'badAction', `${action} takes no action_parameters (only block takes a response)`, at);
    return undefined;
  }
  p.allowOnly(['response']);
  if (!p.has('response')) return undefined;
  const s = new BodyReader(p.raw('response'), p.at('response'), problems, 'a response object');
  if (!s.valid) return undefined;
  s.allowOnly(['status_code', 'content_type', 'content']);
  const status = s.number('status_code', { min: 400, max: 499 }) ?? RateLimitFieldLimits.defaultStatus;
  if (!Number.isInteger(status)) problems.add(s.at('status_code'), `status_code must be an integer from 400 to 499; got ${status}`);
  const type = s.oneOf('content_type', BlockContentTypes, { required: true });
  const content = s.string('content', { required: true });
  const bytes = content === undefined ? 0 : Buffer.byteLength(content, 'utf8');
  if (bytes > RateLimitFieldLimits.responseContent) problems.add(s.at('content'), `content is ${bytes} bytes; the limit is ${RateLimitFieldLimits.responseContent} (30 KB)`);
  if (type === undefined || content === undefined) return undefined;
  return { response: { status_code: status as number, content_type: type, content } };
}

function readRatelimit(rule: BodyReader, problems: Problems): RateLimitParameters | undefined {
  if (!rule.has('ratelimit')) {
    problems.add(rule.at('ratelimit'), 'ratelimit is required: {characteristics, period, requests_per_period, mitigation_timeout}');
    return undefined;
  }
  const r = new BodyReader(rule.raw('ratelimit'), rule.at('ratelimit'), problems);
  if (!r.valid) return undefined;
  r.allowOnly(['characteristics', 'period', 'requests_per_period', 'score_per_period', 'score_response_header_name', 'mitigation_timeout', 'counting_expression', 'requests_to_origin']);
  const before = problems.list.length;
  const characteristics = readCharacteristics(r, problems);
  const period = readListed(r, 'period', RateLimitPeriods, problems, true);
  const timeout = readListed(r, 'mitigation_timeout', MitigationTimeouts, problems, false) ?? 0;
  const out: RateLimitParameters = { characteristics: characteristics ?? [], period: period ?? 0, mitigation_timeout: timeout, requests_to_origin: r.boolean('requests_to_origin') ?? false };
  readThreshold(r, out, problems);
  const counting = r.string('counting_expression', { maxLength: 4096 });
  if (counting !== undefined && counting.trim() !== '') {
    const refused = checkCounting(counting, r.at('counting_expression'));
    if (refused !== undefined) problems.list.push(refused);
    else if (mixesResponseFieldsAndLists(counting)) {
      problems.add(r.at('counting_expression'), 'a counting expression cannot use both response fields (http.response.*, counted on the response) and lists; count on one or the other');
    }
    out.counting_expression = counting;
  }
  return problems.list.length > before ? undefined : out;
}

const checkCounting = withColoMessage((source: string, pointer: string): ReturnType<typeof apiMessage> | undefined => {
  try {
    parse(source, { phase: CountingPhase });
    return undefined;
  } catch (err) {
    if (!(err instanceof ExpressionError)) throw err;
    return apiMessage('invalidExpression', err.message, { pointer, meta: { line: err.line, column: err.column, offset: err.offset, reason: err.reason } });
  }
});

/** `check`, whose refusal at the identifier `cf.colo.id` says that it is a characteristic, not a field. */
function withColoMessage(check: ExpressionCheck): ExpressionCheck {
  return (source, pointer) => {
    const refused = check(source, pointer);
    const offset = refused?.meta?.offset;
    if (refused === undefined || typeof offset !== 'number' || !source.startsWith(ColoCharacteristic, offset)) return refused;
    if (/[\w.]/.test(source.charAt(offset + ColoCharacteristic.length))) return refused;
    return apiMessage('invalidField', `${ColoCharacteristic} may not appear in a rate limiting expression; it is a characteristic (counters are per data center)`, { pointer });
  };
}

function readListed(r: BodyReader, key: string, allowed: readonly number[], problems: Problems, required: boolean): number | undefined {
  if (!r.has(key)) {
    if (required) problems.add(r.at(key), `${key} is required (seconds: ${allowed.join(', ')})`);
    return undefined;
  }
  const v = r.raw(key);
  if (typeof v !== 'number' || !allowed.includes(v)) {
    problems.add(r.at(key), `${key} must be one of ${allowed.join(', ')} (seconds); got ${typeof v === 'number' ? v : jsonType(v)}`);
    return undefined;
  }
  return v;
}

function readThreshold(r: BodyReader, out: RateLimitParameters, problems: Problems): void {
  const count = (key: string, max: number): number | undefined => {
    const v = r.number(key, { min: RateLimitFieldLimits.minCount, max }) ?? undefined;
    if (v !== undefined && !Number.isInteger(v)) problems.add(r.at(key), `${key} must be an integer; got ${v}`);
    return v;
  };
  const requests = count('requests_per_period', Number.MAX_SAFE_INTEGER);
  const score = count('score_per_period', Number.MAX_SAFE_INTEGER);
  const header = r.string('score_response_header_name', { nonEmpty: true });
  if (r.has('requests_per_period') === r.has('score_per_period')) {
    problems.add(r.at('requests_per_period'), 'give exactly one of requests_per_period (count requests) and score_per_period (complexity-based)');
  }
  if (r.has('score_per_period') && header === undefined && !r.has('score_response_header_name')) problems.add(r.at('score_response_header_name'), 'score_response_header_name is required with score_per_period (the origin sends each request\'s score in it)');
  if (!r.has('score_per_period') && r.has('score_response_header_name')) problems.add(r.at('score_response_header_name'), 'score_response_header_name goes with score_per_period only');
  if (requests !== undefined) out.requests_per_period = requests;
  if (score !== undefined) out.score_per_period = score;
  if (header !== undefined) out.score_response_header_name = header;
}

function readCharacteristics(r: BodyReader, problems: Problems): string[] | undefined {
  const at = r.at('characteristics');
  const raw = r.raw('characteristics');
  if (!Array.isArray(raw) || raw.length === 0) {
    problems.add(at, `characteristics is required: a non-empty array that includes ${quote(ColoCharacteristic)}; got ${Array.isArray(raw) ? 'an empty array' : r.has('characteristics') ? jsonType(raw) : 'nothing'}`);
    return undefined;
  }
  const out: string[] = [];
  raw.forEach((item, i) => {
    if (typeof item !== 'string') return problems.add(`${at}/${i}`, `a characteristic is a string; got ${jsonType(item)}`);
    const why = characteristicProblem(item);
    if (why !== undefined) return problems.add(`${at}/${i}`, why);
    if (out.includes(item)) return problems.add(`${at}/${i}`, `${item} is listed twice`);
    out.push(item);
  });
  if (!out.includes(ColoCharacteristic)) problems.add(at, `characteristics must include ${quote(ColoCharacteristic)} through the API (counters are per data center; the dashboard adds it for you)`);
  if (out.includes('ip.src') && out.includes('cf.unique_visitor_id')) problems.add(at, 'ip.src and cf.unique_visitor_id (IP with NAT support) cannot be used together; keep one');
  return out;
}
