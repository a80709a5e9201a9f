/**
 * `POST /zones/{zone_id}/trace` (a zonewall engine operation; the real service's trace differs): the
 * request description in, what the zone would do out. This file reads the body and the zone's
 * stored state; `zone.ts`'s `traceZone` evaluates (firewall rules, custom rules, then the new WAF,
 * then the previous WAF) and gives the answer `{ waf_state, action, decided_by, firewall_rules,
 * custom_rules?, managed_rules?, previous_waf? }`, the same function `zonewall test` runs offline.
 */
import { ExpressionError, RequestFieldError } from '../../expr/index.js';
import { ApiError } from '../api-errors.js';
import type { ZoneRequestContext, ZoneRoute } from '../context.js';
import { ok } from '../envelope.js';
import { RatelimitPhase, RequestTracerBatchRoute, RequestTracerRoute } from '../../api/index.js';
import { loadRuleset } from '../rulesets/store.js';
import { loadTraceZone } from './load.js';
import type { ApiResponse } from '../types.js';
import { traceBurst } from './burst.js';
import { readBurstBody } from './burst-request.js';
import { readTraceRequest } from './request.js';
import { requestTrace, tracerZoneHost } from './tracer.js';
import { requestTraceBatch, tracerBatchZoneHost } from './tracer-batch.js';
import { traceZone } from './zone.js';
import { catalogLists } from '../lists/catalog.js';

/** The trace routes. */
export const traceRoutes: ZoneRoute[] = [
  { method: 'POST', pattern: '/zones/:zone_id/trace', handler: trace, listItems: true, readOnly: true },
  { method: 'POST', pattern: '/zones/:zone_id/trace/burst', handler: burst, listItems: true },
  { method: 'POST', pattern: RequestTracerRoute, handler: (ctx) => requestTrace(ctx), zoneHost: (body) => tracerZoneHost(body), listItems: true, readOnly: true },
  { method: 'POST', pattern: RequestTracerBatchRoute, handler: (ctx) => requestTraceBatch(ctx), zoneHost: (body) => tracerBatchZoneHost(body), listItems: true, readOnly: true },
];

/** `POST /zones/{zone_id}/trace/burst` (zonewall extension): a burst through the custom and rate limiting rules (`burst.ts`). */
function burst(ctx: ZoneRequestContext): ApiResponse {
  const { request, burst: spec } = readBurstBody(ctx.body);
  // `$name` resolves to the items of the zone's account's lists, as in the single-request trace.
  return ok(traceBurst(loadTraceZone(ctx), loadRuleset(ctx.sql, RatelimitPhase), request, spec, ctx.lists === undefined ? {} : { lists: catalogLists(ctx.lists) }));
}

function trace(ctx: ZoneRequestContext): ApiResponse {
  const { request } = readTraceRequest(ctx.body);
  // `$name` resolves to the items of the zone's account's lists.
  if (ctx.lists !== undefined) request.lists = catalogLists(ctx.lists);
  try {
    return ok(traceZone(loadTraceZone(ctx), request));
  } catch (err) {
    if (err instanceof RequestFieldError) throw ApiError.of('invalidField', err.message, { pointer: `/fields/${err.field}` });
    if (err instanceof ExpressionError) throw ApiError.of('internal', `a stored expression no longer parses: ${err.message}`);
    throw err;
  }
}
