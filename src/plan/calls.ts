/**
 * How many API requests applying a plan makes, and how long the service's rate budget makes it
 * take. Batched writes cost ceil(objects / batch size) requests per phase; the previous WAF's
 * PATCH-only APIs and Page Rules cost one request per object; the entry point costs one PUT; the
 * custom phase one request per single-rule call, or one PUT. Reads cost a page per 100 objects of
 * each list. The budget is the service's 1,200 requests per 5 minutes, kept as a sliding window
 * (`providers/http/rate-limiter.ts`): requests within it go out at once, the next ones wait for the
 * window to pass (1,450 requests ≈ one 300 s wait). A run's estimate adds every zone's reads and
 * writes, since all zones share the account's budget.
 */
import { PhaseNames, phaseOf, type PhaseName } from './order.js';
import type { Change } from './change.js';
import type { LiveSection, LiveZone } from './live.js';
import type { CallEstimate, PhaseCalls, Plan } from './plan.js';
import type { CustomRulesWrite, EntrypointWrite } from './write.js';

/** Batch size and rate budget defaults. */
export const CallLimits = {
  /** Objects per batched write (the API's page size maximum, api-facts §2–3). */
  batchSize: 100,
  /** The service's global rate limit: requests per window. */
  budgetRequests: 1200,
  budgetWindowSeconds: 300,
} as const;

/** Options of the estimate (defaults from `CallLimits`). */
export interface CallOptions {
  batchSize?: number;
  budgetRequests?: number;
  budgetWindowSeconds?: number;
}

const unbatched = new Set<PhaseName>(['page_rules', 'previous_waf', 'custom_rules', 'entrypoint']);

/** The call estimate of a plan's changes and entry point write. */
export function estimateCalls(changes: readonly Change[], entrypoint: EntrypointWrite | null, options: CallOptions = {}, customRules: CustomRulesWrite | null = null): CallEstimate {
  const batchSize = options.batchSize ?? CallLimits.batchSize;
  const budget = { requests: options.budgetRequests ?? CallLimits.budgetRequests, windowSeconds: options.budgetWindowSeconds ?? CallLimits.budgetWindowSeconds };
  const objects = new Map<PhaseName, number>();
  // Rule deletes that take their filter along go in batches of their own (one option per call).
  const takingFilter = new Map<PhaseName, number>();
  // forEach: a plan is diffed once, and a for...of over its thousands of changes allocates an
  // iterator result per change until the loop is optimised. No-op changes (most) write nothing.
  changes.forEach((c) => {
    if (c.writes.length === 0) return;
    for (const w of c.writes) {
      objects.set(phaseOf(w), (objects.get(phaseOf(w)) ?? 0) + 1);
      if (w.op === 'firewall_rule.delete' && w.deleteFilterIfUnused === true) takingFilter.set(phaseOf(w), (takingFilter.get(phaseOf(w)) ?? 0) + 1);
    }
  });
  if (entrypoint !== null) objects.set('entrypoint', 1);
  if (customRules !== null) objects.set('custom_rules', customRules.strategy === 'put' ? 1 : customRules.ops.length);
  const phases: PhaseCalls[] = [];
  for (const phase of PhaseNames) {
    const n = objects.get(phase) ?? 0;
    if (n === 0) continue;
    const apart = takingFilter.get(phase) ?? 0;
    phases.push({ phase, objects: n, requests: unbatched.has(phase) ? n : Math.ceil(apart / batchSize) + Math.ceil((n - apart) / batchSize) });
  }
  const requests = phases.reduce((s, p) => s + p.requests, 0);
  return { requests, phases, batchSize, budget, waitSeconds: budgetWaitSeconds(requests, budget) };
}

/** Wait of `requests` sent as fast as a sliding-window budget allows: each full window past the first. */
export function budgetWaitSeconds(requests: number, budget: { requests: number; windowSeconds: number }): number {
  return requests <= budget.requests ? 0 : Math.floor((requests - 1) / budget.requests) * budget.windowSeconds;
}

/** List pages of `n` objects: at least one request, even for an empty list. */
const pages = (n: number, perPage: number) => Math.max(1, Math.ceil(n / perPage));

/**
 * Requests of reading one zone as the providers do (`providers/v4/read-zone.ts`): a page per
 * `perPage` objects of each list, one call per single-object section read. A previous WAF read
 * that found none cost its refused package list, unless the status said the zone migrated.
 */
export function estimateReads(live: LiveZone, perPage: number = CallLimits.batchSize): number {
  const read = (s: LiveSection) => live.sections === undefined || live.sections.includes(s);
  let n = pages(live.filters.length, perPage) + pages(live.firewallRules.length, perPage);
  if (read('migration')) n += 1;
  if (read('entrypoint')) n += 1;
  if (read('custom_rules')) n += 1;
  if (read('page_rules')) n += 1;
  // The proposal is read only when named, and only while the zone has not finished migrating.
  if (live.sections?.includes('migration_config') === true && live.migration !== null && live.migration.waf_state !== 'new_only') n += 1;
  const w = live.previousWaf;
  if (w !== null) {
    n += pages(w.packages.length, perPage) + pages(w.overrides.length, perPage);
    for (const p of w.packages) {
      n += pages(w.groups.filter((g) => g.package_id === p.id).length, perPage);
      n += pages(w.rules.filter((r) => r.package_id === p.id).length, perPage);
    }
  } else if (read('previous_waf') && live.migration?.waf_state !== 'new_only') n += 1;
  return n;
}

/** The whole run's requests: reads of every zone, the zone lookups, and every plan's writes. */
export interface RunCalls {
  reads: number;
  writes: number;
  requests: number;
  budget: { requests: number; windowSeconds: number };
  /** Seconds the budget makes the run wait (0: no wait). */
  waitSeconds: number;
}

/**
 * The call estimate of a run of plans (`zonewall apply` of the same manifests: it reads what the
 * plan read, then writes): `lookups` are the requests that found the zones.
 */
export function estimateRun(plans: readonly Pick<Plan, 'calls'>[], lookups: number, options: CallOptions = {}): RunCalls {
  const budget = { requests: options.budgetRequests ?? CallLimits.budgetRequests, windowSeconds: options.budgetWindowSeconds ?? CallLimits.budgetWindowSeconds };
  const reads = lookups + plans.reduce((s, p) => s + (p.calls.reads ?? 0), 0);
  const writes = plans.reduce((s, p) => s + p.calls.requests, 0);
  return { reads, writes, requests: reads + writes, budget, waitSeconds: budgetWaitSeconds(reads + writes, budget) };
}

/** Requests that find `names` zones: one zones list of 50 a page for many, else one lookup each. */
export function zoneLookups(names: number, zonesPerPage = 50): number {
  return names < 2 ? names : Math.ceil(names / zonesPerPage);
}
