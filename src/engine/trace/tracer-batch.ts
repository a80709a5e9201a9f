/**
 * `POST /accounts/{account_id}/request-tracer/trace/batch` (zonewall extension; the service's tracer
 * takes one request per call): `{requests: [tracer body, ...], matched_only?}` in, `{results: [...]}`
 * out, in order, each result exactly what `POST .../request-tracer/trace` answers for that body
 * (`tracer.ts`). The zone is loaded, and its rules compiled and indexed (`indexed.ts`), once for the whole batch, which is what makes
 * `zonewall test --against-zone` of thousands of cases fast. Every request of a batch is traced on
 * one zone, the one the first request's URL names (the dispatcher finds it as for the tracer); a
 * request whose host is not that zone's name or a subdomain of it is refused (400, 10014 at
 * `/requests/{i}/url`), as is a batch of no requests or more than `TracerBatchLimit` (at
 * `/requests`); a first host no zone of the account serves is refused as by the tracer (at `/url`). With
 * `matched_only: true` each result leaves out the rule steps that did not match (the phase,
 * product and ruleset steps stay): the verdict reads the same, in far fewer bytes.
 */
import { TracerBatchLimit, type TraceStep, type TracerBatchResult } from '../../api/index.js';
import { ExpressionError, RequestFieldError } from '../../expr/index.js';
import { ApiError } from '../api-errors.js';
import { BodyReader, Problems, jsonType, requireObject } from '../body-reader.js';
import type { ZoneRequestContext } from '../context.js';
import { ok } from '../envelope.js';
import { catalogLists } from '../lists/catalog.js';
import type { ApiResponse } from '../types.js';
import { indexedTrace } from './indexed.js';
import { loadTraceZone } from './load.js';
import { tracerResultOf, tracerZoneHost } from './tracer.js';
import { readTracerRequest } from './tracer-request.js';

/**
 * The host the dispatcher finds the batch's zone by: the first request's URL's. A body with no
 * request, or whose first request has no URL, is refused here, pointing into the batch.
 */
export function tracerBatchZoneHost(body: unknown): string | undefined {
  const requests = (body as { requests?: unknown } | null)?.requests;
  if (!Array.isArray(requests) || requests.length === 0 || requests.length > TracerBatchLimit) {
    const got = Array.isArray(requests) ? `${requests.length}` : jsonType(requests);
    throw ApiError.of('invalidField', `requests must be an array of 1 to ${TracerBatchLimit} request tracer bodies, got ${got} (split a longer batch)`, { pointer: '/requests' });
  }
  const host = tracerZoneHost(requests[0]);
  if (host === undefined) throw ApiError.of('invalidField', 'requests[0].url is required: an absolute http(s) URL whose host is one of the account\'s zones (the batch\'s zone)', { pointer: '/requests/0/url' });
  return host;
}

/** The batch handler (in the zone's object). */
export function requestTraceBatch(ctx: ZoneRequestContext): ApiResponse {
  const problems = new Problems();
  const r = new BodyReader(requireObject(ctx.body, 'a request tracer batch body'), '', problems);
  r.allowOnly(['requests', 'matched_only']);
  const matchedOnly = r.boolean('matched_only') === true;
  // The dispatcher checked `requests` (`tracerBatchZoneHost`) before it found the zone.
  const requests = r.raw('requests');
  problems.throwIfAny();
  const lists = ctx.lists !== undefined ? catalogLists(ctx.lists) : undefined;
  const zone = loadTraceZone(ctx);
  // Compiled and indexed once for the batch: each request meets the rules that match it only.
  const trace = indexedTrace(zone, lists);
  const name = ctx.zone.name.toLowerCase();
  const results = (requests as unknown[]).map((body, i) => {
    const at = `/requests/${i}`;
    const { request, host } = within(at, () => readTracerRequest(body));
    const h = host.toLowerCase();
    if (h !== name && !h.endsWith(`.${name}`)) {
      throw ApiError.of('invalidField', `requests[${i}] names host ${host}, which zone ${ctx.zone.name} (the first request's) does not serve: a batch traces one zone`, { pointer: `${at}/url` });
    }
    if (lists !== undefined) request.lists = lists;
    try {
      const result = tracerResultOf(zone, trace(request));
      if (matchedOnly && result.trace !== undefined) result.trace = result.trace.map(matchedSteps);
      return result;
    } catch (err) {
      if (err instanceof RequestFieldError) throw ApiError.of('invalidField', err.message, { pointer: `${at}/zonewall/fields/${err.field}` });
      if (err instanceof ExpressionError) throw ApiError.of('internal', `a stored expression no longer parses: ${err.message}`);
      throw err;
    }
  });
  const out: TracerBatchResult = { results };
  return ok(out);
}

/** Runs `read`; a refusal's pointers are put under `at` (the request's place in the batch). */
function within<T>(at: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    throw new ApiError(err.status, err.errors.map((e) => (e.source?.pointer !== undefined ? { ...e, source: { ...e.source, pointer: `${at}${e.source.pointer}` } } : e)), err.headers);
  }
}

/** A step without the rule steps under it that did not match. */
function matchedSteps(step: TraceStep): TraceStep {
  if (step.trace === undefined) return step;
  return { ...step, trace: step.trace.filter((s) => s.type !== 'rule' || s.matched === true).map(matchedSteps) };
}
