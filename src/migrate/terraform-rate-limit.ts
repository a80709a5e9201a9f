/**
 * `cloudflare_rate_limit` (the previous rate limiting API, ended 2025-06-15) converted the way the
 * service upgraded such rules into `http_ratelimit` rules (reference security-phases.md §1): the
 * URL pattern, methods and schemes become the expression, `ban` becomes `block` and `simulate`
 * `log`, the threshold `requests_per_period`, the period and timeout are rounded to the nearest
 * supported value (a tie goes to the longer one), matched response statuses become the counting
 * expression, `correlate { by = "nat" }` counts by `cf.unique_visitor_id` instead of `ip.src`, and the
 * plan's quota (free 1, pro 2, business 5, enterprise 100) caps how many are converted. Provider v4
 * (one-element lists, `0`/`""` unset) and v5 (objects, `null`) alike. `convertPreviousRateLimits`
 * puts them into the converted manifest's `rate_limiting_rules`.
 */
import type { RateLimitingRule } from '../manifest/index.js';
import { putInOrder } from '../plan/index.js';
import { bool, instanceKeys, list, num, obj, slug, str, uniqueKey } from './terraform-attributes.js';
import type { ConvertedManifest } from './terraform-converted.js';
import type { TfResource } from './terraform-state.js';

/** The periods an `http_ratelimit` rule takes, in seconds (docs/manifest.md "Rate limiting rules"). */
export const UpgradePeriods = [10, 15, 20, 30, 40, 45, 60, 90, 120, 180, 240, 300, 480, 600, 900, 1200, 1800, 2400, 3600, 65535, 86400] as const;
/** The mitigation timeouts an `http_ratelimit` rule takes, in seconds (0: throttle). */
export const UpgradeTimeouts = [10, 60, 120, 300, 600, 3600, 86400] as const;
/** How many rate limiting rules each plan keeps (the upgrade's quotas). */
export const UpgradeQuotas: Readonly<Record<string, number>> = { free: 1, pro: 2, business: 5, enterprise: 100 };

/** The supported value nearest to `value`; a tie goes to the larger. */
export function nearest(value: number, supported: readonly number[]): number {
  let best = supported[0]!;
  for (const s of supported) if (Math.abs(s - value) <= Math.abs(best - value)) best = s;
  return best;
}

/** One converted rule: the manifest rule, and what the upgrade changed (for the report). */
export interface ConvertedRateLimit { rule: RateLimitingRule; changes: string[] }

/** A JSON string literal of the rules language. */
const quoted = (s: string) => JSON.stringify(s);

/** Converts one `cloudflare_rate_limit` resource, or says why it cannot be converted. */
export function convertPreviousRateLimit(r: TfResource): ConvertedRateLimit | string {
  const a = r.attributes;
  const threshold = num(a, 'threshold');
  const period = num(a, 'period');
  const action = obj(a.action);
  const mode = str(action, 'mode');
  if (threshold === undefined || period === undefined || mode === undefined) return 'rate limit without a threshold, period or action mode: not converted';
  const changes: string[] = [];
  const match = obj(a.match);
  const request = obj(match?.request);
  const response = obj(match?.response);
  const parts: string[] = [];
  const url = str(request, 'url_pattern') ?? str(request, 'url');
  if (url !== undefined && url !== '*') parts.push(`http.request.full_uri wildcard ${quoted(`*://${url.replace(/^[a-z]+:\/\//i, '')}`)}`);
  const methods = list(request?.methods).filter((m): m is string => typeof m === 'string');
  if (methods.length > 0 && !methods.includes('_ALL_')) parts.push(`http.request.method in {${methods.map(quoted).join(' ')}}`);
  const schemes = list(request?.schemes).filter((s): s is string => typeof s === 'string');
  if (schemes.length === 1 && schemes[0] === 'HTTPS') parts.push('ssl');
  if (schemes.length === 1 && schemes[0] === 'HTTP') parts.push('not ssl');
  const bypass = [...list(a.bypass_url_patterns).filter((u): u is string => typeof u === 'string'), ...list(a.bypass).map(obj).map((b) => str(b, 'value')).filter((v): v is string => v !== undefined)];
  for (const b of bypass) parts.push(`not http.request.full_uri wildcard ${quoted(`*://${b.replace(/^[a-z]+:\/\//i, '')}`)}`);
  const expression = parts.length === 0 ? 'true' : parts.join(' and ');
  const newAction = mode === 'ban' ? 'block' : mode === 'simulate' ? 'log' : mode;
  if (newAction !== mode) changes.push(`action ${mode} -> ${newAction}`);
  const roundedPeriod = nearest(period, UpgradePeriods);
  if (roundedPeriod !== period) changes.push(`period ${period} s -> ${roundedPeriod} s`);
  const timeout = num(action, 'timeout');
  const ratelimit: Record<string, unknown> = {
    characteristics: [obj(a.correlate) !== undefined && str(obj(a.correlate), 'by') === 'nat' ? 'cf.unique_visitor_id' : 'ip.src'],
    period: roundedPeriod,
    requests_per_period: threshold,
  };
  if (timeout !== undefined && newAction !== 'log') {
    const rounded = nearest(timeout, UpgradeTimeouts);
    if (rounded !== timeout) changes.push(`timeout ${timeout} s -> ${rounded} s`);
    ratelimit.mitigation_timeout = rounded;
  }
  const statuses = list(response?.statuses).filter((s): s is number => typeof s === 'number');
  if (statuses.length > 0) ratelimit.counting_expression = `http.response.code in {${statuses.join(' ')}}`;
  if (bool(response, 'origin_traffic') === true) ratelimit.requests_to_origin = true;
  if (list(response?.headers).length > 0 || obj(response?.headers) !== undefined) changes.push('response header matches dropped (recreate them in counting_expression by hand)');
  const rule = { action: newAction, expression } as unknown as RateLimitingRule;
  const description = str(a, 'description');
  if (description !== undefined) rule.description = description;
  if (bool(a, 'disabled') === true) rule.enabled = false;
  const body = obj(action?.response);
  if (newAction === 'block' && str(body, 'body') !== undefined) {
    rule.action_parameters = { response: { content_type: str(body, 'content_type') ?? 'text/plain', content: str(body, 'body')! } } as RateLimitingRule['action_parameters'];
  }
  rule.ratelimit = ratelimit as unknown as RateLimitingRule['ratelimit'];
  return { rule, changes };
}

/**
 * Converts `cloudflare_rate_limit` resources (the previous rate limiting API) into
 * `rate_limiting_rules` after the phase's converted rules, as the service upgraded them, within the
 * plan's quota (the zone resource's `plan`, when the state has it). Each rule gets a report row
 * saying what the upgrade changed.
 */
export function convertPreviousRateLimits(rs: TfResource[], plan: string | undefined, out: ConvertedManifest): void {
  if (rs.length === 0) return;
  const section = out.rateLimitRules ?? { address: rs[0]!.address, rules: {}, sources: [] };
  const taken = new Set(Object.keys(section.rules));
  const quota = plan === undefined ? undefined : UpgradeQuotas[plan];
  for (const r of [...rs].sort((x, y) => x.address.localeCompare(y.address))) {
    const converted = convertPreviousRateLimit(r);
    if (typeof converted === 'string') { out.notes.push({ address: r.address, severity: 'skipped', message: converted }); continue; }
    if (quota !== undefined && taken.size >= quota) {
      out.notes.push({ address: r.address, severity: 'skipped', message: `previous rate limit beyond the ${plan} plan's quota of ${quota} rate limiting rule(s): the upgrade did not carry it; not converted` });
      continue;
    }
    const description = str(r.attributes, 'description');
    const id = str(r.attributes, 'id');
    const key = uniqueKey([...instanceKeys(r.name, r.indexKey), description && slug(description), slug(r.name)], taken, id !== undefined ? `rate-limit-${id.slice(0, 8)}` : 'rate-limit');
    putInOrder(section.rules, key, converted.rule);
    out.notes.push({ address: r.address, severity: 'warning', message: `previous rate limit converted to rate_limiting_rules.${key} as the service upgraded it${converted.changes.length > 0 ? `: ${converted.changes.join(', ')}` : ''}; the zone may hold the service's own upgraded copy: delete it (or plan with --prune) so the rule is not doubled` });
    out.converted.push(r.address);
  }
  out.rateLimitRules = section;
}
