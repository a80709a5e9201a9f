/**
 * A burst through a zone, as a pure function of its loaded state: one request template sent many
 * times on a simulated clock (`BurstSpec`: evenly spaced over a time, or at given times; per-request
 * values of IP, path, host or headers; cached or not). Each distinct request (variant) goes once
 * through the firewall and custom rules (the phases before rate limiting; the managed phase and the
 * previous WAF run after it and are not evaluated): one they end never reaches rate limiting (a
 * firewall `allow` ends only the firewall and custom rules), and one a custom skip rule sends past
 * `http_ratelimit` is not counted (`burst-prepare.ts`, which evaluates each expression once per
 * distinct value of what it reads). The others run, in time order, through the rate limiting rules'
 * counters (`ratelimit.ts`), on counter states resolved before the loop. The answer says, per rule, which
 * request first got which action and until when. The engine's `POST /zones/{id}/trace/burst` and
 * `zonewall test` offline run this same code.
 */
import type { BurstRuleOutcome, BurstSpec, BurstTrace } from '../../api/index.js';
import type { Lists, RequestDescription } from '../../expr/index.js';
import type { StoredRuleset } from '../rulesets/types.js';
import { Ended, Runs } from './burst-fate.js';
import { prepareMemo, preparePlain } from './burst-prepare.js';
import type { Prepared } from './burst-prepared.js';
import { countingRules, type CountingRule } from './ratelimit.js';
import { Passes } from './ratelimit-counter.js';
import type { ZoneTraceInput } from './zone.js';

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

export { variantRequest } from './burst-prepare.js';

/** How `traceBurst` reads the burst's variants. */
export interface BurstTraceOptions {
  /**
   * false: every variant's fields built and run through every expression (the plain path, which
   * the tests hold the default to); by default each expression runs once per distinct value of
   * what it reads (`burst-memo.ts`).
   */
  memo?: boolean;
  /** What `$name` resolves to in the rules' expressions (the account's lists); undefined: lists match nothing. */
  lists?: Lists;
}

/**
 * Runs a burst through the zone; `rateLimit` is its `http_ratelimit` entry point.
 * @example traceBurst(zone, entry, { path: '/login' }, { count: 6, over: 60 })
 */
export function traceBurst(zone: ZoneTraceInput, rateLimit: StoredRuleset | undefined, template: RequestDescription, spec: BurstSpec, options: BurstTraceOptions = {}): BurstTrace {
  const rules = countingRules(rateLimit?.rules ?? []);
  const n = variantCount(spec);
  const fates = new Uint8Array(n);
  const prepared = (options.memo === false ? preparePlain : prepareMemo)(zone, rules, template, spec, fates, options.lists);
  const total = requestCount(spec);
  const times = spec.at;
  const overMs = (spec.over ?? 0) * 1000;
  const count = spec.count ?? 1;
  const outcomes: (BurstRuleOutcome | undefined)[] = new Array(rules.length).fill(undefined);
  const out: BurstTrace = { requests: total, acted: 0, ended_by_custom_rules: 0, skipped: 0, first: null, rules: [] };
  // The requests of the variants that never reach rate limiting, counted by variant (request `i` is variant `i mod n`).
  for (let j = 0; j < n && j < total; j++) {
    const fate = fates[j]!;
    if (fate === Runs) continue;
    const requests = Math.floor((total - 1 - j) / n) + 1;
    if (fate === Ended) out.ended_by_custom_rules += requests;
    else out.skipped += requests;
  }
  countRequests(prepared, total, n, rules, times, overMs, count, outcomes, out);
  out.rules = outcomes.filter((o): o is BurstRuleOutcome => o !== undefined);
  return out;
}

/**
 * The loop over the requests, in time order, through the counters of the rules each one's variant
 * meets (`prepared`): its own function, so the engine optimises it as a whole (code before and
 * after it in `traceBurst` runs once). Fills `outcomes` (per rule, its first action) and `out`.
 */
function countRequests(prepared: Prepared, total: number, n: number, rules: readonly CountingRule[], times: readonly number[] | undefined, overMs: number, count: number, outcomes: (BurstRuleOutcome | undefined)[], out: BurstTrace): void {
  const { starts, ends, rule: entryRule, slot: entrySlot, flags: entryFlags, weight: entryWeight } = prepared;
  const counters = rules.map((r) => r.counter);
  const stops = rules.map((r) => r.stops);
  let acted = 0;
  for (let i = 0, j = 0; i < total; i++, j = j + 1 === n ? 0 : j + 1) {
    const from = starts[j]!;
    const to = ends[j]!;
    // A variant that does not run has no entries.
    if (from === to) continue;
    // requestTime, inlined.
    const at = times !== undefined ? Math.round(times[i]! * 1000) : Math.round((overMs * i) / count);
    let hit = false;
    for (let k = from; k < to; k++) {
      const r = entryRule[k]!;
      const flags = entryFlags[k]!;
      const until = counters[r]!.hitSlot(entrySlot[k]!, at, (flags & 2) !== 0, (flags & 1) !== 0, entryWeight[k]!);
      if (until === Passes) continue;
      hit = true;
      const known = outcomes[r];
      if (known !== undefined) known.requests++;
      else {
        const o = firstOutcome(rules[r]!, i, at, until);
        outcomes[r] = o;
        out.first ??= o;
      }
      if (stops[r]) break;
    }
    if (hit) acted++;
  }
  out.acted += acted;
}

/** A rule's outcome at its first action: request `i` (0-based) at `at` ms, until `until` ms (-1: a throttle). */
function firstOutcome(rule: CountingRule, i: number, at: number, until: number): BurstRuleOutcome {
  const o: BurstRuleOutcome = { ref: rule.ref, action: rule.action, first_request: i + 1, at: at / 1000, until: until < 0 ? null : until / 1000, requests: 1 };
  if (rule.status_code !== undefined) o.status_code = rule.status_code;
  return o;
}
