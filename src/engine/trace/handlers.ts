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
import { rulesInEvaluationOrder } from '../firewall-rules/store.js';
import { loadWafState } from '../migration/store.js';
import { listPageRules } from '../page-rules/index.js';
import { loadSettings } from '../previous-waf/store.js';
import { CustomPhase } from '../../api/index.js';
import { loadEntrypoint, loadRuleset } from '../rulesets/store.js';
import type { ApiResponse } from '../types.js';
import { readTraceRequest } from './request.js';
import { traceZone, type ZoneTraceInput } from './zone.js';
import { catalogLists } from '../lists/catalog.js';

/** The trace route. */
export const traceRoutes: ZoneRoute[] = [{ method: 'POST', pattern: '/zones/:zone_id/trace', handler: trace, listItems: true }];

function trace(ctx: ZoneRequestContext): ApiResponse {
  const { request } = readTraceRequest(ctx.body);
  // `$name` resolves to the items of the zone's account's lists.
  if (ctx.lists !== undefined) request.lists = catalogLists(ctx.lists);
  try {
    return ok(traceZone(loadZone(ctx), request));
  } catch (err) {
    if (err instanceof RequestFieldError) throw ApiError.of('invalidField', err.message, { pointer: `/fields/${err.field}` });
    if (err instanceof ExpressionError) throw ApiError.of('internal', `a stored expression no longer parses: ${err.message}`);
    throw err;
  }
}

/** The zone's stored state, as the trace reads it (the settings' `enabled` is the zone setting `waf`). */
function loadZone(ctx: ZoneRequestContext): ZoneTraceInput {
  return {
    wafState: loadWafState(ctx.sql).state,
    plan: ctx.zone.plan,
    firewallRules: rulesInEvaluationOrder(ctx.sql),
    entrypoint: loadEntrypoint(ctx.sql),
    customRules: loadRuleset(ctx.sql, CustomPhase),
    previousWaf: loadSettings(ctx.sql),
    pageRules: listPageRules(ctx.sql),
  };
}
