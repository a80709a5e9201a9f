/**
 * Policy tests: cases files (`schemas/policy-tests.schema.json`) of requests and what a zone must do
 * to them, evaluated offline against a manifest (the engine's own trace evaluators over the
 * manifest's zone model, rules indexed so a large manifest stays fast) or against the live zone
 * through the trace operation, with results as data and text/JSON views.
 *
 * @example
 * ```ts
 * const run = await runPolicyTests(['zones/example.com.yaml']);
 * process.stdout.write(renderRunText(run));
 * ```
 */
export * from './types.js';
export { PolicyTestsError } from './errors.js';
export { parseCasesText, loadCasesFile, mergeRequest, type CasesResult } from './load.js';
export { policyTestsSchema } from './schema.js';
export { checkCasesAgainstZone } from './check-refs.js';
export { defaultCasesFiles, findCasesFile, isCasesFile } from './find-cases.js';
export { buildZoneModel, type ZoneModel, type RuleCandidates } from './zone-model.js';
export { evaluateOffline, runOffline, traceOffline, traceRequestOf, withZoneHost, modelNames, requestContext } from './offline.js';
export { runAgainstZone, liveNames, TraceConcurrency, type AgainstZoneOptions } from './live.js';
export { tracerBodyOf, zoneTraceOfTracer } from './tracer.js';
export { verdictOf, type ZoneNames } from './verdict.js';
export { judgeCase, failuresOf, whyOf, outcomeText } from './judge.js';
export { runPolicyTests, runPassed, reportOf, type PolicyRunOptions, type PolicyRunResult } from './run.js';
export { renderReportText, renderRunText, runJson, expectationText, plainTextStyle, PolicyJsonVersion, type TextStyle } from './render.js';
// The rule index and its guards live beside the trace evaluators (the engine's batch trace uses them too).
export { RuleIndex, guardOf, indexedTrace, type Guard, type GuardAlternative } from '../engine/index.js';
export { proveEquivalence, generateCorpus, probesOf } from './equivalence/index.js';
export type { CorpusRequest, EquivalenceInput, EquivalenceProof, Probe, ProbeTarget, ProbeValue, ProofDifference, ProofVerdict } from './equivalence/index.js';
export { liveTraceInput, traceLocally } from './live-model.js';
export { readLiveLists, readZoneLists } from './live-lists.js';
export { listsOf } from './lists.js';
