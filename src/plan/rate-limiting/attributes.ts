/**
 * The compared attributes of a rate limiting rule, desired or live, in one form so that notation
 * and the service's defaults never show as a change: canonical expressions, `enabled: true`,
 * description `''`, `mitigation_timeout: 0`, `requests_to_origin: false`, an empty counting
 * expression as none, a block response's status 429 when left out, and `characteristics` as a set
 * (`cf.colo.id` first, the others sorted). The `ratelimit` fields are attributes of their own, so a
 * plan shows `requests_per_period: 5 -> 10` and the guard reads them one by one.
 */
import { ColoCharacteristic, RateLimitFieldLimits } from '../../api/index.js';
import type { DesiredRateLimitRule } from '../../manifest/index.js';
import { canonicalize } from '../../expr/index.js';
import { liveExpressionText, type Canonicalizer } from '../canonical.js';
import type { AttributeValue, Attributes } from '../change.js';
import { isUnmanagedPhaseRule, phaseRuleBodyHead } from '../phase-rules.js';
import type { LiveRateLimitRule, RateLimitRuleBody } from './live.js';

/** True for a live rule zonewall did not write (`isUnmanagedPhaseRule`). */
export const isUnmanagedRateLimitRule: (r: LiveRateLimitRule) => boolean = isUnmanagedPhaseRule;

function characteristicSet(list: readonly string[] | undefined): AttributeValue {
  const rest = (list ?? []).filter((c) => c !== ColoCharacteristic).sort();
  return (list ?? []).includes(ColoCharacteristic) ? [ColoCharacteristic, ...rest] : rest;
}

function response(action: string, p: LiveRateLimitRule['action_parameters']): AttributeValue {
  const r = action === 'block' ? p?.response : undefined;
  return r === undefined ? null : { status_code: r.status_code ?? RateLimitFieldLimits.defaultStatus, content_type: r.content_type, content: r.content };
}

/** A live counting expression in canonical form (response fields allowed); raw when it does not parse. */
function countingText(source: string): string {
  if (source.trim() === '') return '';
  try {
    return canonicalize(source, { phase: 'http_response_firewall_managed' });
  } catch {
    return source;
  }
}

/** A live rule's attributes; its expressions are the desired texts when they mean the same. */
export function liveRateLimitAttributes(r: LiveRateLimitRule, canon: Canonicalizer, desired?: DesiredRateLimitRule): Attributes {
  const rl = r.ratelimit ?? {};
  const counting = rl.counting_expression ?? '';
  return {
    action: r.action,
    expression: liveExpressionText(canon, r.expression, desired?.expression),
    description: r.description ?? '',
    enabled: r.enabled !== false,
    response: response(r.action, r.action_parameters),
    characteristics: characteristicSet(rl.characteristics),
    period: rl.period ?? null,
    requests_per_period: rl.requests_per_period ?? null,
    score_per_period: rl.score_per_period ?? null,
    score_response_header_name: rl.score_response_header_name ?? null,
    mitigation_timeout: rl.mitigation_timeout ?? 0,
    counting_expression: countingText(counting),
    requests_to_origin: rl.requests_to_origin ?? false,
    ref: r.ref ?? '',
  };
}

/** A desired rule's attributes. */
export function desiredRateLimitAttributes(d: DesiredRateLimitRule): Attributes {
  const rl = d.ratelimit;
  return {
    action: d.action,
    expression: d.expression,
    description: d.description,
    enabled: d.enabled,
    response: d.actionParameters?.response !== undefined ? { ...d.actionParameters.response } : null,
    characteristics: characteristicSet(rl.characteristics),
    period: rl.period,
    requests_per_period: rl.requests_per_period ?? null,
    score_per_period: rl.score_per_period ?? null,
    score_response_header_name: rl.score_response_header_name ?? null,
    mitigation_timeout: rl.mitigation_timeout,
    counting_expression: rl.counting_expression ?? '',
    requests_to_origin: rl.requests_to_origin,
    ref: d.ref,
  };
}

/** The body that writes a desired rule (with `id` to keep a live rule in a PUT). */
export function desiredRateLimitBody(d: DesiredRateLimitRule, id?: string): RateLimitRuleBody {
  return {
    ...phaseRuleBodyHead(d, id),
    ...(d.actionParameters !== undefined ? { action_parameters: d.actionParameters } : {}),
    ratelimit: { ...d.ratelimit, characteristics: [...d.ratelimit.characteristics] },
  };
}

/** A live rule sent back as it is (a PUT keeps it): server-filled fields left out. */
export function keptRateLimitBody(r: LiveRateLimitRule): RateLimitRuleBody {
  const { version: _v, last_updated: _l, ratelimit, ...rest } = r;
  return { ...rest, ratelimit: ratelimit ?? {} } as RateLimitRuleBody;
}

/** A live rule in one line, as the unmanaged list shows it. */
export function describeRateLimitRule(r: LiveRateLimitRule): string {
  const rl = r.ratelimit ?? {};
  const rate = rl.requests_per_period !== undefined ? `${rl.requests_per_period} requests` : `score ${rl.score_per_period ?? '?'}`;
  return `${r.action} over ${rate} per ${rl.period ?? '?'} s when ${r.expression}${r.enabled === false ? ' (disabled)' : ''}`;
}
