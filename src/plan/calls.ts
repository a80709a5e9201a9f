/**
 * How many API requests applying a plan makes, and how long the service's rate budget makes it
 * take. Batched writes cost ceil(objects / batch size) requests per phase; the previous WAF's
 * PATCH-only APIs cost one request per object; the entry point costs one PUT; the custom phase one
 * request per single-rule call, or one PUT. The budget is the
 * service's 1,200 requests per 5 minutes: requests within it go out at once, the rest wait
 * (seconds ≈ (requests − budget) × window / budget).
 */
import { PhaseNames, phaseOf, type PhaseName } from './order.js';
import type { Change } from './change.js';
import type { CallEstimate, PhaseCalls } from './plan.js';
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

const unbatched = new Set<PhaseName>(['previous_waf', 'custom_rules', 'entrypoint']);

/** The call estimate of a plan's changes and entry point write. */
export function estimateCalls(changes: readonly Change[], entrypoint: EntrypointWrite | null, options: CallOptions = {}, customRules: CustomRulesWrite | null = null): CallEstimate {
  const batchSize = options.batchSize ?? CallLimits.batchSize;
  const budget = { requests: options.budgetRequests ?? CallLimits.budgetRequests, windowSeconds: options.budgetWindowSeconds ?? CallLimits.budgetWindowSeconds };
  const objects = new Map<PhaseName, number>();
  for (const c of changes) for (const w of c.writes) objects.set(phaseOf(w), (objects.get(phaseOf(w)) ?? 0) + 1);
  if (entrypoint !== null) objects.set('entrypoint', 1);
  if (customRules !== null) objects.set('custom_rules', customRules.strategy === 'put' ? 1 : customRules.ops.length);
  const phases: PhaseCalls[] = [];
  for (const phase of PhaseNames) {
    const n = objects.get(phase) ?? 0;
    if (n === 0) continue;
    phases.push({ phase, objects: n, requests: unbatched.has(phase) ? n : Math.ceil(n / batchSize) });
  }
  const requests = phases.reduce((s, p) => s + p.requests, 0);
  const waitSeconds = Math.max(0, requests - budget.requests) * (budget.windowSeconds / budget.requests);
  return { requests, phases, batchSize, budget, waitSeconds };
}
