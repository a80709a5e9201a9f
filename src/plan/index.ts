/**
 * The planner's public surface: live-state types, the pure diff (desired × live → Plan), order,
 * safety, fingerprint, the versioned JSON form and the text and markdown renderers.
 */
export * from './live.js';
export * from './action.js';
export * from './change.js';
export * from './write.js';
export * from './finding.js';
export * from './plan.js';
export { orderChanges } from './order.js';
export type { PhaseName } from './phase.js';
export * from './kinds.js';
export type { PlanKind, KindDiff, DiffInput, ResourcePlacement, PhaseInfo } from './kind.js';
export { diffZone, type PlanOptions } from './diff.js';
export { SafetyDefaults, safetyFindings } from './safety.js';
export { CallLimits, budgetWaitSeconds, estimateCalls, estimateReads, estimateRun, zoneLookups, type CallOptions, type RunCalls } from './calls.js';
export { fingerprint, stableStringify } from './fingerprint.js';
export { readsFor } from './reads.js';
export * from './json.js';
export { UnsafePlanError, assertApplicable } from './errors.js';
export { createStyle, plainStyle, type Style } from './render/style.js';
export { thousands } from './render/numbers.js';
export { renderPlanText, renderChange, renderFindings, renderUnmanaged, renderCalls, renderRunCalls, renderSummaryLine, renderHeading } from './render/text.js';
export { renderPlanMarkdown } from './render/markdown.js';
export { exportManifest, renderManifestYaml, isValidKey, slugify, KeyRules, type ExportOptions, type ExportResult, type ExportedObject, type ExportedKind, type SkippedObject, type AdoptionWrites, type KeySource, type RenderManifestOptions } from './export.js';
export { exportCustomRules, type CustomExport } from './custom-rules/export.js';
export { exportRateLimitRules, type RateLimitExport } from './rate-limiting/export.js';
export { createCanonicalizer, type Canonicalizer } from './canonical.js';
export { locateObject } from './locate.js';
export * from './lists/index.js';
export { putInOrder, inWrittenOrder } from './export-order.js';
