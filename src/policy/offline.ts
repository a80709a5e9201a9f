/**
 * Offline evaluation: each case's request becomes the Rules language's request fields (the same
 * `requestFields` the trace operation uses, from the same request description) and goes through
 * the manifest's zone model; the answer is judged against the case. Nothing is read from a zone.
 */
import { traceZone } from '../engine/index.js';
import { ExecutionContext, requestFields, type Lists, type RequestDescription } from '../expr/index.js';
import type { TraceRequest, TraceResult } from '../providers/index.js';
import { judgeBurst, traceBurstOffline } from './burst.js';
import { judgeCase } from './judge.js';
import type { CaseResult, TestCase, Verdict } from './types.js';
import { verdictOf, type ZoneNames } from './verdict.js';
import type { ZoneModel } from './zone-model.js';

const ZoneId = /^[0-9a-f]{32}$/;

/**
 * The trace body of a case: its request, with the host defaulted to the manifest's zone name (a
 * zone given by id leaves it to the evaluator's default, `example.com`). Offline and live runs
 * send exactly this, so both see the same request.
 */
export function traceRequestOf(c: TestCase, zone: string): TraceRequest {
  return withZoneHost(c.request, zone);
}

/** A request with its host defaulted to the zone's name (a zone given by id leaves it alone). */
export function withZoneHost(request: TraceRequest, zone: string): TraceRequest {
  const r: TraceRequest = { ...request };
  if (r.url === undefined && r.host === undefined && !ZoneId.test(zone)) r.host = zone;
  return r;
}

/** The names of the model's rules (ids are refs offline). */
export function modelNames(model: ZoneModel): ZoneNames {
  const expressions = new Map(model.rules.map((r) => [r.rule.id, r.filter?.expression]));
  const custom = new Map((model.customRules?.rules ?? []).map((r) => [r.ref, r.expression]));
  return { expressionOf: (id) => expressions.get(id), entrypointRef: (id) => id, customExpressionOf: (ref) => custom.get(ref) };
}

/**
 * The trace of one request through the model: the engine's own `traceZone`, given as firewall rules
 * only the index's candidates for the request (the rules that do not match it are left out, which
 * changes nothing the evaluator reports).
 */
export function traceOffline(model: ZoneModel, request: TraceRequest): TraceResult {
  return traceOfflineIn(model, requestContext(request, model.lists));
}

/** The request's fields as the evaluators read them: made once, usable by several models (the proof's two). */
export function requestContext(request: TraceRequest, lists?: Lists): ExecutionContext {
  // `$name` resolves to the account manifest's lists (the evaluators' list hook).
  return new ExecutionContext(requestFields(request as RequestDescription), lists);
}

/** `traceOffline` of a request already made into its context (`requestContext`). */
export function traceOfflineIn(model: ZoneModel, context: ExecutionContext): TraceResult {
  const custom = model.customRules;
  const trace = traceZone({
    wafState: model.wafState,
    plan: model.plan,
    firewallRules: model.index.candidates(context),
    entrypoint: model.entrypoint,
    // The custom rules that match, likewise (none that does not match acts or is reported).
    customRules: custom === undefined || model.customIndex === undefined ? custom : { ...custom, rules: model.customIndex.candidates(context) },
    rateLimitRules: model.rateLimitRules,
    previousWaf: model.previousWaf,
  }, context);
  // Whether the phase has enabled rules is the whole entry point's, not the candidates'.
  if (trace.custom_rules !== undefined && custom !== undefined) trace.custom_rules.enabled = custom.rules.some((r) => r.enabled);
  return trace;
}

/** The verdict of the model on one request. */
export function evaluateOffline(model: ZoneModel, request: TraceRequest, names: ZoneNames = modelNames(model)): Verdict {
  return verdictOf(traceOffline(model, request), names);
}

/**
 * Runs every case against the model, in order.
 * @example const results = runOffline(buildZoneModel(desired), casesFile.cases);
 */
export function runOffline(model: ZoneModel, cases: readonly TestCase[]): CaseResult[] {
  const names = modelNames(model);
  return cases.map((c) => (c.burst !== undefined
    ? judgeBurst(c, traceBurstOffline(model, c, traceRequestOf(c, model.zone) as RequestDescription))
    : judgeCase(c, evaluateOffline(model, traceRequestOf(c, model.zone), names))));
}
