/**
 * `POST /accounts/{account_id}/request-tracer/trace`, the service's request tracer: the dispatcher
 * finds the zone from the body's URL (the account's zone whose name is the host or its nearest
 * parent, `tracerZoneHost`) and the zone object answers here. The same evaluation as the engine's
 * own trace (`traceZone`), answered in the service's shape: `{status_code, trace}` (`tracer-steps.ts`)
 * and zonewall's extension `zonewall: {waf_state, action, previous_waf?}` (dropped under strict).
 */
import { TerminatingCustomActions, type TracerResult, type ZoneTrace } from '../../api/index.js';
import { ExpressionError, RequestFieldError } from '../../expr/index.js';
import { ApiError } from '../api-errors.js';
import type { ZoneRequestContext } from '../context.js';
import { ok } from '../envelope.js';
import type { ApiResponse } from '../types.js';
import { catalogLists } from '../lists/catalog.js';
import { loadTraceZone } from './load.js';
import { readTracerRequest } from './tracer-request.js';
import { tracerSteps } from './tracer-steps.js';
import { traceZone, type ZoneTraceInput } from './zone.js';

/** The host of a tracer body's URL (the dispatcher resolves the zone from it), or undefined. */
export function tracerZoneHost(body: unknown): string | undefined {
  const url = (body as { url?: unknown } | null)?.url;
  if (typeof url !== 'string' || !URL.canParse(url)) return undefined;
  return new URL(url).hostname.toLowerCase();
}

/** The tracer's handler (in the zone's object). */
export function requestTrace(ctx: ZoneRequestContext): ApiResponse {
  const { request } = readTracerRequest(ctx.body);
  // `$name` resolves to the items of the zone's account's lists, as in the engine's own trace.
  if (ctx.lists !== undefined) request.lists = catalogLists(ctx.lists);
  try {
    const zone = loadTraceZone(ctx);
    const trace = traceZone(zone, request);
    const result: TracerResult = { status_code: statusOf(trace), trace: tracerSteps(zone, trace), zonewall: extensionOf(trace) };
    return ok(result);
  } catch (err) {
    if (err instanceof RequestFieldError) throw ApiError.of('invalidField', err.message, { pointer: `/zonewall/fields/${err.field}` });
    if (err instanceof ExpressionError) throw ApiError.of('internal', `a stored expression no longer parses: ${err.message}`);
    throw err;
  }
}

const Challenges: ReadonlySet<string> = new Set<string>(TerminatingCustomActions.filter((a) => a !== 'block'));

/** The zone's answer: a block's status (its custom response's, else 403), 403 for a challenge, else 200 (no origin). */
function statusOf(trace: ZoneTrace): number {
  if (trace.action === 'block') return trace.custom_rules?.rule?.status_code ?? 403;
  return trace.action !== null && Challenges.has(trace.action) ? 403 : 200;
}

function extensionOf(trace: ZoneTrace): NonNullable<TracerResult['zonewall']> {
  const out: NonNullable<TracerResult['zonewall']> = { waf_state: trace.waf_state, action: trace.action };
  if (trace.previous_waf !== undefined) out.previous_waf = trace.previous_waf;
  return out;
}

/** The tracer's result for a trace of `zone` (the batch route's, one per request; the same shape as `requestTrace`'s). */
export function tracerResultOf(zone: ZoneTraceInput, trace: ZoneTrace): TracerResult {
  return { status_code: statusOf(trace), trace: tracerSteps(zone, trace), zonewall: extensionOf(trace) };
}
