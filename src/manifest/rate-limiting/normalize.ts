/**
 * Normalises `rate_limiting_rules` into `DesiredRateLimitRule`s, in key order (the evaluation
 * order): canonical expressions, the service's defaults filled (`enabled: true`, description `''`,
 * `mitigation_timeout: 0`, `requests_to_origin: false`, a block response's `status_code: 429`), and
 * `cf.colo.id` put first in `characteristics`, as the API requires it.
 */
import { ColoCharacteristic, RateLimitFieldLimits } from '../../api/index.js';
import type { DesiredZone, SourceLocation } from '../desired.js';
import { fieldLocations, locationOf } from '../field-locations.js';
import type { RateLimitingRule } from '../generated/manifest-types.js';
import { entriesOf, isRecord, type Checks } from '../view.js';
import type { CheckedRateLimit } from './check.js';
import type { DesiredRateLimit, DesiredRateLimitRule } from './desired.js';

/** Writes the zone's `rateLimitingRules` when the manifest has the section. */
export function normalizeRateLimitRules(zone: DesiredZone, checks: Checks, data: Record<string, unknown>, checked: readonly (CheckedRateLimit | undefined)[]): void {
  if (!isRecord(data.rate_limiting_rules)) return;
  const out: DesiredRateLimitRule[] = [];
  const { keys, values } = entriesOf(data.rate_limiting_rules, checks);
  for (let i = 0; i < keys.length; i++) {
    const base = ['rate_limiting_rules', keys[i]!];
    const c = checked[i];
    if (!checks.isClean(base) || c === undefined) continue;
    const raw = values[i]!;
    const fields: Partial<Record<string, SourceLocation>> = {
      ...fieldLocations(checks.locator, raw, ['action', 'expression', 'enabled', 'action_parameters', 'description', 'ratelimit']),
      ...fieldLocations(checks.locator, raw.ratelimit, ['characteristics', 'period', 'requests_per_period', 'score_per_period', 'mitigation_timeout', 'counting_expression', 'requests_to_origin']),
    };
    // Each characteristic a plan may lack (every one but ip.src), for the tier check's caret at the item.
    const chars = isRecord(raw.ratelimit) && Array.isArray(raw.ratelimit.characteristics) ? raw.ratelimit.characteristics as unknown[] : [];
    chars.forEach((c, j) => {
      if (c !== 'ip.src') fields[`characteristics[${j}]`] = locationOf(checks.locator, [...base, 'ratelimit', 'characteristics', j]);
    });
    out.push(normalizeRateLimitRule(keys[i]!, raw as unknown as RateLimitingRule, c, locationOf(checks.locator, base), fields));
  }
  zone.rateLimitingRules = out;
}

/** One rule, from checked data. */
export function normalizeRateLimitRule(key: string, rule: RateLimitingRule, checked: CheckedRateLimit, location: DesiredRateLimitRule['location'], fields: DesiredRateLimitRule['fieldLocations']): DesiredRateLimitRule {
  const rl = rule.ratelimit;
  const ratelimit: DesiredRateLimit = {
    characteristics: [ColoCharacteristic, ...rl.characteristics.filter((c) => c !== ColoCharacteristic)],
    period: rl.period,
    mitigation_timeout: rl.mitigation_timeout ?? 0,
    requests_to_origin: rl.requests_to_origin ?? false,
  };
  if (rl.requests_per_period !== undefined) ratelimit.requests_per_period = rl.requests_per_period;
  if (rl.score_per_period !== undefined) ratelimit.score_per_period = rl.score_per_period;
  if (rl.score_response_header_name !== undefined) ratelimit.score_response_header_name = rl.score_response_header_name;
  if (checked.counting !== undefined) ratelimit.counting_expression = checked.counting;
  const out: DesiredRateLimitRule = {
    ref: key, action: rule.action, expression: checked.expression.canonical, description: rule.description ?? '', enabled: rule.enabled ?? true, ratelimit, location,
  };
  if (fields !== undefined) out.fieldLocations = fields;
  const response = rule.action === 'block' ? rule.action_parameters?.response : undefined;
  if (response !== undefined) out.actionParameters = { response: { status_code: response.status_code ?? RateLimitFieldLimits.defaultStatus, content_type: response.content_type, content: response.content } };
  return out;
}
