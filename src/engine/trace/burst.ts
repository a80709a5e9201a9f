/**
 * A burst through a zone, as a pure function of its loaded state: one request template sent many
 * times on a simulated clock (`BurstSpec`: evenly spaced over a time, or at given times; per-request
 * values of IP, path, host or headers; cached or not). Each distinct request (variant) goes once
 * through the firewall and custom rules (the phases before rate limiting; the managed phase and the
 * previous WAF run after it and are not evaluated): one they end never reaches rate limiting, and
 * one a custom skip rule sends past `http_ratelimit` is not counted. The others run, in time order,
 * through the rate limiting rules' counters (`ratelimit.ts`). The answer says, per rule, which
 * request first got which action and until when. The engine's `POST /zones/{id}/trace/burst` and
 * `zonewall test` offline run this same code.
 */
import { RatelimitPhase, type BurstRuleOutcome, type BurstSpec, type BurstTrace } from '../../api/index.js';
import { ExecutionContext, requestFields, type RequestDescription, type RequestFields } from '../../expr/index.js';
import type { StoredRuleset } from '../rulesets/types.js';
import { countingRules, prepareRequest, rateLimitStep, type RulePrepared } from './ratelimit.js';
import { traceCustomRules } from './custom.js';
import { traceFirewallRules } from './firewall.js';
import type { ZoneTraceInput } from './zone.js';

const NoRules: RulePrepared[] = [];

/** The most requests one burst may hold. */
export const BurstLimits = { requests: 10_000_000 } as const;

/** The number of distinct requests of a burst (the length of its `vary` lists, else 1). */
export function variantCount(spec: BurstSpec): number {
  const v = spec.vary;
  if (v === undefined) return 1;
  const lists = [v.ip, v.path, v.host, ...Object.values(v.headers ?? {})].filter((l): l is string[] => l !== undefined);
  return lists.length === 0 ? 1 : lists[0]!.length;
}

/** The number of requests of a burst. */
export function requestCount(spec: BurstSpec): number {
  return spec.at !== undefined ? spec.at.length : spec.count ?? 1;
}

/** The time (ms) of request `i` (0-based). */
export function requestTime(spec: BurstSpec, i: number): number {
  if (spec.at !== undefined) return Math.round(spec.at[i]! * 1000);
  const n = spec.count ?? 1;
  return Math.round(((spec.over ?? 0) * 1000 * i) / n);
}

/** The request of variant `j`: the template with the `vary` values at index `j`. */
export function variantRequest(template: RequestDescription, spec: BurstSpec, j: number): RequestDescription {
  const v = spec.vary;
  if (v === undefined) return template;
  const r: RequestDescription = { ...template };
  if (v.ip !== undefined) r.ip = v.ip[j]!;
  if (v.path !== undefined) r.path = v.path[j]!;
  if (v.host !== undefined) r.host = v.host[j]!;
  if (v.headers !== undefined) {
    const headers: Record<string, string | readonly string[]> = { ...(template.headers ?? {}) };
    for (const [name, values] of Object.entries(v.headers)) headers[name] = values[j]!;
    r.headers = headers;
  }
  return r;
}

/**
 * `requestFields` of many requests that differ mostly by client IP: the fields of each request
 * without its IP are built once (they depend on nothing else of it), then the IP is set.
 */
function fieldsMemo(): (r: RequestDescription) => RequestFields {
  const bases = new Map<string, RequestFields>();
  return (r) => {
    const { ip, ...rest } = r;
    const key = JSON.stringify(rest);
    let base = bases.get(key);
    if (base === undefined) bases.set(key, (base = requestFields(rest)));
    return ip === undefined ? base : { ...base, 'ip.src': ip };
  };
}

/** What a variant does before rate limiting: `Ended` by the firewall or custom rules, `Skipped` past it, or it runs (`Runs`). */
const Ended = 0;
const Skipped = 1;
const Runs = 2;

/**
 * Runs a burst through the zone; `rateLimit` is its `http_ratelimit` entry point.
 * @example traceBurst(zone, entry, { path: '/login' }, { count: 6, over: 60 })
 */
export function traceBurst(zone: ZoneTraceInput, rateLimit: StoredRuleset | undefined, template: RequestDescription, spec: BurstSpec): BurstTrace {
  const rules = countingRules(rateLimit?.rules ?? []);
  const fates = new Uint8Array(variantCount(spec));
  const prepared: RulePrepared[][] = [];
  const n = variantCount(spec);
  const fieldsOf = fieldsMemo();
  for (let j = 0; j < n; j++) {
    const fields = fieldsOf(variantRequest(template, spec, j));
    const context = new ExecutionContext(fields);
    // Only what runs before rate limiting: the firewall rules, then the custom rules.
    const custom = traceFirewallRules(zone.firewallRules, context).rule !== null ? null
      : zone.customRules === undefined ? undefined : traceCustomRules(zone.customRules, context);
    fates[j] = custom === null || custom?.rule != null ? Ended : custom?.skipped_phases.includes(RatelimitPhase) === true ? Skipped : Runs;
    prepared.push(fates[j] === Runs ? prepareRequest(rules, context, fields, spec.cached === true) : NoRules);
  }
  const total = requestCount(spec);
  const outcomes = new Map<number, BurstRuleOutcome>();
  const out: BurstTrace = { requests: total, acted: 0, ended_by_custom_rules: 0, skipped: 0, first: null, rules: [] };
  for (let i = 0; i < total; i++) {
    const j = i % n;
    const fate = fates[j]!;
    if (fate !== Runs) {
      if (fate === Ended) out.ended_by_custom_rules++;
      else out.skipped++;
      continue;
    }
    const p = prepared[j]!;
    if (p.length === 0) continue;
    const at = requestTime(spec, i);
    const steps = rateLimitStep(rules, p, at);
    if (steps.length === 0) continue;
    out.acted++;
    for (const s of steps) {
      const known = outcomes.get(s.rule);
      if (known !== undefined) { known.requests++; continue; }
      const rule = rules[s.rule]!;
      const o: BurstRuleOutcome = { ref: rule.ref, action: rule.action, first_request: i + 1, at: at / 1000, until: s.until < 0 ? null : s.until / 1000, requests: 1 };
      if (rule.status_code !== undefined) o.status_code = rule.status_code;
      outcomes.set(s.rule, o);
      out.first ??= o;
    }
  }
  out.rules = [...outcomes.entries()].sort((a, b) => a[0] - b[0]).map(([, o]) => o);
  return out;
}
