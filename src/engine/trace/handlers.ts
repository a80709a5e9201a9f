/**
 * `POST /zones/{zone_id}/trace` (a zonewall engine operation; the real service's trace differs): the
 * request description in, what the zone would do out. The firewall rules run first; a terminating
 * one (`allow` included) ends the request before the WAFs. Then the WAFs the zone runs: the new WAF
 * (the entry point, when it deploys an enabled managed ruleset) and the previous WAF (a Pro or higher
 * zone that has not migrated, with the `waf` setting on). A firewall rule that bypasses `waf` skips
 * the previous WAF only (as in the real service, "WAF Managed Rules" of the firewall rules' bypass
 * is the previous version; the migration turns such rules into skip rules of the entry point). In
 * validation mode (`both`) each WAF is evaluated on its own, so their verdicts can be compared, and
 * the new WAF decides first, as it runs before the previous one.
 *
 * Answer: `{ waf_state, action, decided_by, firewall_rules, managed_rules?, previous_waf? }`, where
 * `action` is the final verdict (null: the request reaches the origin) and `decided_by` which part
 * gave it; `managed_rules` appears unless the zone runs only the previous WAF and has no entry point,
 * `previous_waf` unless the zone has migrated or is Free.
 */
import { ExpressionError, RequestFieldError, type ExecutionContext } from '../../expr/index.js';
import { ApiError } from '../api-errors.js';
import type { ZoneRequestContext, ZoneRoute } from '../context.js';
import { ok } from '../envelope.js';
import { rulesInEvaluationOrder } from '../firewall-rules/store.js';
import { previousWafEnabled } from '../migration/handlers.js';
import { loadWafState, type WafStateRecord } from '../migration/store.js';
import { loadSettings } from '../previous-waf/store.js';
import { loadEntrypoint } from '../rulesets/store.js';
import { deploysEnabledRuleset } from '../rulesets/types.js';
import type { ApiResponse } from '../types.js';
import { traceFirewallRules, type FirewallTrace } from './firewall.js';
import { traceEntrypoint, type ManagedTrace } from './managed.js';
import { tracePreviousWaf, type PreviousTrace } from './previous.js';
import { readTraceRequest } from './request.js';

/** The trace route. */
export const traceRoutes: ZoneRoute[] = [{ method: 'POST', pattern: '/zones/:zone_id/trace', handler: trace }];

function trace(ctx: ZoneRequestContext): ApiResponse {
  const { request } = readTraceRequest(ctx.body);
  try {
    return ok(evaluate(ctx, request));
  } catch (err) {
    if (err instanceof RequestFieldError) throw ApiError.of('invalidField', err.message, { pointer: `/fields/${err.field}` });
    if (err instanceof ExpressionError) throw ApiError.of('internal', `a stored expression no longer parses: ${err.message}`);
    throw err;
  }
}

function evaluate(ctx: ZoneRequestContext, request: ExecutionContext): Record<string, unknown> {
  const state = loadWafState(ctx.sql);
  const firewall = traceFirewallRules(rulesInEvaluationOrder(ctx.sql), request);
  const endedBy = firewall.rule !== null ? `firewall rule ${firewall.rule.id} (${firewall.rule.action}) ended the request before the WAF` : undefined;
  const entry = loadEntrypoint(ctx.sql);
  const showManaged = state.state !== 'previous_only' || entry !== undefined;
  const showPrevious = state.state !== 'new_only' && ctx.zone.plan !== 'free';
  const host = String(request.request['http.host'] ?? '');
  const path = String(request.request['http.request.uri.path'] ?? '/');
  let managed: ManagedTrace | undefined;
  if (showManaged) {
    managed = endedBy
      ? { enabled: deploysEnabledRuleset(entry), matched: [], action: null, rule: null, skipped: [], skipped_by: endedBy }
      : traceEntrypoint(entry, request);
  }
  let previous: PreviousTrace | undefined;
  if (showPrevious) previous = previousTrace(ctx, state, firewall, endedBy, request, host, path);
  return answer(state.state, firewall, managed, previous);
}

function previousTrace(ctx: ZoneRequestContext, state: WafStateRecord, firewall: FirewallTrace, endedBy: string | undefined,
  request: ExecutionContext, host: string, path: string): PreviousTrace {
  const enabled = previousWafEnabled(state, ctx.zone.plan);
  const off = (skipped: string): PreviousTrace => ({ enabled, skipped, matched: [], action: null, rule: null });
  if (!enabled) return off('the previous WAF is switched off (zone setting waf: off)');
  if (endedBy) return off(endedBy);
  if (firewall.bypassed.includes('waf')) return off('a firewall rule bypasses waf (the previous WAF)');
  return tracePreviousWaf(loadSettings(ctx.sql), request, host, path);
}

function answer(wafState: string, firewall: FirewallTrace, managed: ManagedTrace | undefined, previous: PreviousTrace | undefined): Record<string, unknown> {
  let action: string | null = firewall.action;
  let decidedBy: string | null = firewall.action !== null ? 'firewall_rules' : null;
  if (action === null && managed?.enabled && managed.action !== null) { action = managed.action; decidedBy = 'managed_rules'; }
  if (action === null && previous?.enabled && previous.action !== null) { action = previous.action; decidedBy = 'previous_waf'; }
  const { bypassed: _b, ...firewallView } = firewall;
  const out: Record<string, unknown> = { waf_state: wafState, action, decided_by: decidedBy, firewall_rules: firewallView };
  if (managed !== undefined) out.managed_rules = managed;
  if (previous !== undefined) out.previous_waf = previous;
  return out;
}
