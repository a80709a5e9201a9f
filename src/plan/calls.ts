/**
 * How many API requests applying a plan makes, and how long the service's rate budget makes it
 * take. Batched writes cost ceil(objects / batch size) requests per phase; phases of APIs without
 * a batch form cost one request per object; a phase write costs one PUT, or one request per
 * single-rule call. Reads cost a page per 100 objects of each list. The budget is the service's 1,200 requests per 5 minutes, kept as a sliding window
 * (`providers/http/rate-limiter.ts`): requests within it go out at once, the next ones wait for the
 * window to pass (1,450 requests ≈ one 300 s wait). A run's estimate adds every zone's reads and
 * writes, since all zones share the account's budget.
 */
import type { Change } from './change.js';
import { PhaseNames, PlanKinds, batchGroup, perObject, phaseOf } from './kinds.js';
import type { LiveSection, LiveZone } from './live.js';
import type { PhaseName } from './phase.js';
import type { CallEstimate, PhaseCalls, Plan } from './plan.js';
import type { PhaseWrite } from './write.js';

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

/** The call estimate of a plan's changes and phase writes. */
export function estimateCalls(changes: readonly Change[], phaseWrites: readonly PhaseWrite[], options: CallOptions = {}): CallEstimate {
  const batchSize = options.batchSize ?? CallLimits.batchSize;
  const budget = { requests: options.budgetRequests ?? CallLimits.budgetRequests, windowSeconds: options.budgetWindowSeconds ?? CallLimits.budgetWindowSeconds };
  // Objects per phase and batch group: writes of different groups never share a request.
  const objects = new Map<PhaseName, Map<number, number>>();
  const add = (phase: PhaseName, group: number, n: number) => {
    let groups = objects.get(phase);
    if (groups === undefined) objects.set(phase, (groups = new Map()));
    groups.set(group, (groups.get(group) ?? 0) + n);
  };
  // forEach: a plan is diffed once, and a for...of over its thousands of changes allocates an
  // iterator result per change until the loop is optimised. No-op changes (most) write nothing.
  changes.forEach((c) => {
    if (c.writes.length === 0) return;
    for (const w of c.writes) add(phaseOf(w), batchGroup(w), 1);
  });
  for (const w of phaseWrites) add(w.phase, 0, w.strategy === 'put' ? 1 : w.ops.length);
  const phases: PhaseCalls[] = [];
  for (const phase of PhaseNames) {
    const groups = objects.get(phase);
    if (groups === undefined) continue;
    let n = 0;
    let requests = 0;
    for (const count of groups.values()) {
      n += count;
      requests += perObject(phase) ? count : Math.ceil(count / batchSize);
    }
    if (n > 0) phases.push({ phase, objects: n, requests });
  }
  const requests = phases.reduce((s, p) => s + p.requests, 0);
  return { requests, phases, batchSize, budget, waitSeconds: budgetWaitSeconds(requests, budget) };
}

/** Wait of `requests` sent as fast as a sliding-window budget allows: each full window past the first. */
export function budgetWaitSeconds(requests: number, budget: { requests: number; windowSeconds: number }): number {
  return requests <= budget.requests ? 0 : Math.floor((requests - 1) / budget.requests) * budget.windowSeconds;
}

/**
 * Requests of reading one zone as the providers do (`providers/v4/read-zone.ts`): a page per
 * `perPage` objects of each list, one call per single-object section read (`PlanKind.readRequests`).
 */
export function estimateReads(live: LiveZone, perPage: number = CallLimits.batchSize): number {
  const read = (s: LiveSection) => live.sections === undefined || live.sections.includes(s);
  let n = 0;
  for (const kind of PlanKinds) n += kind.readRequests?.(live, perPage, read) ?? 0;
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
