/**
 * Executes a plan through a provider, phase by phase and batch by batch, in the order of
 * `plan/order.ts` (after terraform's `dag/walk.go`, with one linear walk since every phase depends
 * on the ones before it). It never re-diffs. On the first failure it stops: nothing downstream
 * runs, and the result says exactly which changes were applied, which failed (or may have, when
 * the answer was lost), and which were not attempted, so the next plan shows only the remainder.
 */
import { ZonewallError } from '../errors.js';
import { CallLimits, phaseRank, resourceOf, type Action, type Change, type Plan, type PhaseName, type ResourceKind } from '../plan/index.js';
import { isUnknownOutcome, type Provider } from '../providers/index.js';
import { batchesOf, executeBatch, newApplyIds } from './batch.js';
import type { ApplyListener } from './events.js';
import { planPhases, stepChanges } from './phases.js';

/** What became of one change. */
export type ChangeStatus = 'applied' | 'partial' | 'failed' | 'unknown' | 'not-applied';

/** One change's outcome. */
export interface ChangeOutcome {
  kind: ResourceKind;
  ref: string;
  id?: string;
  action: Action;
  status: ChangeStatus;
}

/** The failure that stopped an apply. */
export interface ApplyFailure {
  phase: PhaseName;
  code: string;
  message: string;
  /** `unknown` when the failing request may have been processed (its answer was lost). */
  outcome: 'not-applied' | 'unknown';
}

/** The result of applying one zone's plan. */
export interface ApplyResult {
  zone: { id: string; name: string };
  ok: boolean;
  /** Every change that is not a no-op, in plan order. */
  outcomes: ChangeOutcome[];
  /** API requests the apply made. */
  requests: number;
  error?: ApplyFailure;
}

/** Options of `runPlan`. */
export interface RunOptions {
  batchSize?: number;
  onEvent?: ApplyListener;
  /** When aborted (Ctrl-C, SIGTERM), the run stops before its next request; what was sent is reported as usual. */
  signal?: AbortSignal;
}

function failureOf(err: unknown, phase: PhaseName): ApplyFailure {
  return {
    phase,
    code: err instanceof ZonewallError ? err.code : 'ERR_INTERNAL',
    message: err instanceof Error ? err.message : String(err),
    outcome: isUnknownOutcome(err) ? 'unknown' : 'not-applied',
  };
}

/** The phase a change without writes of its own takes effect in (its kind's placement). */
function placedIn(c: Change): number {
  const r = resourceOf(c.kind);
  return c.action === 'delete' ? r.deletedRank : r.keptRank;
}

function statusOf(total: number, done: number, inFailedBatch: boolean, failure: ApplyFailure | undefined, writeless: number | undefined): ChangeStatus {
  if (writeless !== undefined) {
    // A change without writes (a filter the service deletes with its rule) takes effect with the
    // writes before its phase: done once the apply got to that phase.
    return failure === undefined || phaseRank(failure.phase) >= writeless ? 'applied' : 'not-applied';
  }
  if (done === total) return 'applied';
  if (inFailedBatch) return done > 0 ? 'partial' : failure?.outcome === 'unknown' ? 'unknown' : 'failed';
  return done > 0 ? 'partial' : 'not-applied';
}

/** Every non-no-op change's outcome, from the writes done and the batch that failed. */
function outcomesOf(plan: Plan, done: readonly number[], failed: ReadonlySet<number>, failure: ApplyFailure | undefined): ChangeOutcome[] {
  const outcomes: ChangeOutcome[] = [];
  plan.changes.forEach((c, i) => {
    if (c.action === 'no-op') return;
    // Changes of kinds carried by a phase write are carried by its steps, not by writes of their own.
    const carried = resourceOf(c.kind).carried === true;
    const total = carried ? 1 : c.writes.length;
    const status = statusOf(total, done[i]!, failed.has(i), failure, !carried && total === 0 ? placedIn(c) : undefined);
    outcomes.push({ kind: c.kind, ref: c.ref, ...(c.id !== undefined ? { id: c.id } : {}), action: c.action, status });
  });
  return outcomes;
}

/**
 * Applies a plan. Resolves with the result whether or not every write succeeded.
 * @example const result = await runPlan(plan, provider, { onEvent: (e) => log(e) });
 */
export async function runPlan(plan: Plan, provider: Provider, options: RunOptions = {}): Promise<ApplyResult> {
  const batchSize = options.batchSize ?? CallLimits.batchSize;
  const emit = options.onEvent ?? (() => {});
  const zone = plan.zone.name;
  const startRequests = provider.stats.requests;
  const done = plan.changes.map(() => 0);
  const failed = new Set<number>();
  const ids = newApplyIds();
  let failure: ApplyFailure | undefined;
  walk: for (const phase of planPhases(plan)) {
    const batches = batchesOf(phase, batchSize);
    emit({ type: 'phase-start', zone, phase: phase.name, objects: phase.steps.length, requests: batches.length });
    let sent = 0;
    for (const batch of batches) {
      if (options.signal?.aborted === true) {
        failure = { phase: phase.name, code: 'ERR_INTERRUPTED', message: 'interrupted: stopped before this request; nothing after it was sent', outcome: 'not-applied' };
        emit({ type: 'failed', zone, phase: phase.name, message: failure.message });
        break walk;
      }
      try {
        await executeBatch(provider, plan.zone.id, batch, ids);
      } catch (err) {
        failure = failureOf(err, phase.name);
        for (const step of batch.steps) for (const c of stepChanges(step)) failed.add(c);
        emit({ type: 'failed', zone, phase: phase.name, message: failure.message });
        break walk;
      }
      for (const step of batch.steps) for (const c of stepChanges(step)) done[c]! += 1;
      sent += batch.steps.length;
      emit({ type: 'batch-done', zone, phase: phase.name, done: sent, objects: phase.steps.length });
    }
    emit({ type: 'phase-done', zone, phase: phase.name });
  }
  const outcomes = outcomesOf(plan, done, failed, failure);
  return {
    zone: { id: plan.zone.id, name: plan.zone.name },
    ok: failure === undefined,
    outcomes,
    requests: provider.stats.requests - startRequests,
    ...(failure !== undefined ? { error: failure } : {}),
  };
}
