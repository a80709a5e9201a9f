/**
 * Apply's public surface: execute a Plan through a Provider in dependency order (phases, batches,
 * progress events), report what was applied, lock zones, record and restore PITR bookmarks, and
 * read saved plans.
 */
export { planPhases, stepChanges, writePhases, type Phase, type Step } from './phases.js';
export { batchesOf, executeBatch, sendWrites, type Batch, type ApplyIds } from './batch.js';
export { runPlan, type ApplyResult, type ApplyFailure, type ChangeOutcome, type ChangeStatus, type RunOptions } from './run.js';
export type { ApplyEvent, ApplyListener } from './events.js';
export { acquireZoneLock, zoneLocksDir, lockKey, LockedError, type LockOptions, type ZoneLock } from './lock.js';
export { readApplyRecord, writeApplyRecord, removeApplyRecord, applyRecordsDir, type ApplyRecord } from './apply-record.js';
export { applyZone, ApplyError, type ApplyZoneOptions, type ApplyZoneResult } from './apply-zone.js';
export { rollbackZone } from './rollback.js';
export { writeFileAtomic } from './write-file.js';
export { readSavedPlan, writeSavedPlan, assertFresh, assertPlannedHere, assertListsFresh, isPlanDocument, savedPlanZone, StalePlanError } from './saved-plan.js';
export { preflightFindings, type Locate, type PreflightPrepare } from './preflight.js';
export { applyListWrites, ListsApplyError, type ListsApi, type ListProgress, type ListsApplyOptions, type ListsApplyResult } from './lists.js';
