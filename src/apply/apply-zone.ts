/**
 * Applying one zone's plan, with the zone's lock already held by the caller: refuse unsafe plans
 * (error findings always, danger findings without `force`), record a PITR bookmark first on the
 * embedded engine (so `zonewall rollback` can undo the apply), then run the plan. A plan without
 * changes makes no request and records nothing.
 */
import { ZonewallError } from '../errors.js';
import { assertApplicable, hasChanges, resourceOf, type Plan } from '../plan/index.js';
import type { Provider } from '../providers/index.js';
import { removeApplyRecord, writeApplyRecord, type ApplyRecord } from './apply-record.js';
import { runPlan, type ApplyResult, type RunOptions } from './run.js';

/** An apply stopped partway; `result` says what was applied. */
export class ApplyError extends ZonewallError {
  constructor(readonly result: ApplyResult) {
    const e = result.error;
    super('ERR_APPLY', `apply to ${result.zone.name} stopped in phase ${e?.phase ?? '?'}: ${e?.message ?? 'unknown error'}`);
  }
}

/** Options of `applyZone`. */
export interface ApplyZoneOptions extends RunOptions {
  /** Apply despite danger findings. */
  force?: boolean;
  /** The engine's state directory, where the rollback record goes (engine provider only). */
  stateDir?: string;
  /** Clock for the record's timestamp (tests). */
  now?: () => Date;
}

/** The result of `applyZone`: the run's result and the rollback record, when one was taken. */
export interface ApplyZoneResult extends ApplyResult {
  record?: ApplyRecord;
}

/**
 * Applies one zone's plan through the provider.
 * @example const result = await applyZone(plan, provider, { force: false, stateDir: '.zonewall' });
 */
export async function applyZone(plan: Plan, provider: Provider, options: ApplyZoneOptions = {}): Promise<ApplyZoneResult> {
  assertApplicable(plan, { force: options.force ?? false });
  if (!hasChanges(plan)) return { zone: { id: plan.zone.id, name: plan.zone.name }, ok: true, outcomes: [], requests: 0 };
  let record: ApplyRecord | undefined;
  if (provider.bookmark !== undefined && options.stateDir !== undefined) {
    const bookmark = await provider.bookmark(plan.zone.id);
    record = { zoneId: plan.zone.id, zone: plan.zone.name, bookmark, at: (options.now?.() ?? new Date()).toISOString() };
    writeApplyRecord(options.stateDir, record);
  }
  const result = await runPlan(plan, provider, options);
  // A change the service never undoes (`irreversible`): restoring the bookmark would take the
  // zone back past it, so one that may have been made leaves nothing to roll back.
  if (record !== undefined && result.outcomes.some((o) => resourceOf(o.kind).irreversible === true && o.status !== 'not-applied' && o.status !== 'failed')) {
    removeApplyRecord(options.stateDir!, plan.zone.id);
    return result;
  }
  return record !== undefined ? { ...result, record } : result;
}
