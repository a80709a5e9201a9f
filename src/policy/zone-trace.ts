/**
 * The trace of one request through a `ZoneModel`, in the trace operation's answer shape: the same
 * engine evaluators in the same order as `POST /zones/{id}/trace` (firewall rules first, a
 * terminating one ends the request before the WAFs; then the new WAF, then the previous WAF, which
 * a `bypass` of `waf` skips), so offline results and `--against-zone` results are read by one
 * function. The firewall rules given to the evaluator are the index's candidates for the request:
 * the rules that do not match it are left out, which changes nothing the evaluator reports.
 */
import {
  traceEntrypoint, traceFirewallRules, tracePreviousWaf,
  type Entrypoint, type FirewallTrace, type ManagedTrace, type PreviousTrace,
} from '../engine/index.js';
import type { ExecutionContext } from '../expr/index.js';
import type { TraceResult } from '../providers/index.js';
import type { ZoneModel } from './zone-model.js';

/** Evaluates `request` against the zone model. */
export function traceZone(model: ZoneModel, request: ExecutionContext): TraceResult {
  const firewall = traceFirewallRules(model.index.candidates(request), request);
  const endedBy = firewall.rule !== null ? `firewall rule ${firewall.rule.id} (${firewall.rule.action}) ended the request before the WAF` : undefined;
  const showManaged = model.wafState !== 'previous_only' || model.entrypoint !== undefined;
  const showPrevious = model.wafState !== 'new_only' && model.plan !== 'free';
  let managed: ManagedTrace | undefined;
  if (showManaged) {
    managed = endedBy !== undefined
      ? { enabled: deploysEnabledRuleset(model.entrypoint), matched: [], action: null, rule: null, skipped: [], skipped_by: endedBy }
      : traceEntrypoint(model.entrypoint, request);
  }
  let previous: PreviousTrace | undefined;
  if (showPrevious) previous = previousTrace(model, firewall, endedBy, request);
  return answer(model.wafState, firewall, managed, previous);
}

function deploysEnabledRuleset(entry: Entrypoint | undefined): boolean {
  return entry?.rules.some((r) => r.action === 'execute' && r.enabled) ?? false;
}

function previousTrace(model: ZoneModel, firewall: FirewallTrace, endedBy: string | undefined, request: ExecutionContext): PreviousTrace {
  // A manifest cannot switch the zone setting `waf` off: on, except once migrated or on Free.
  const enabled = model.wafState !== 'new_only' && model.plan !== 'free' && model.previousWaf.enabled;
  const off = (skipped: string): PreviousTrace => ({ enabled, skipped, matched: [], action: null, rule: null });
  if (!enabled) return off('the previous WAF is switched off (zone setting waf: off)');
  if (endedBy !== undefined) return off(endedBy);
  if (firewall.bypassed.includes('waf')) return off('a firewall rule bypasses waf (the previous WAF)');
  const host = String(request.request['http.host'] ?? '');
  const path = String(request.request['http.request.uri.path'] ?? '/');
  return tracePreviousWaf(model.previousWaf, request, host, path);
}

function answer(wafState: string, firewall: FirewallTrace, managed: ManagedTrace | undefined, previous: PreviousTrace | undefined): TraceResult {
  let action: string | null = firewall.action;
  let decidedBy: TraceResult['decided_by'] = firewall.action !== null ? 'firewall_rules' : null;
  if (action === null && managed?.enabled === true && managed.action !== null) { action = managed.action; decidedBy = 'managed_rules'; }
  if (action === null && previous?.enabled === true && previous.action !== null) { action = previous.action; decidedBy = 'previous_waf'; }
  const { bypassed: _bypassed, ...firewallView } = firewall;
  const out: TraceResult = { waf_state: wafState, action, decided_by: decidedBy, firewall_rules: firewallView };
  if (managed !== undefined) out.managed_rules = managed;
  if (previous !== undefined) out.previous_waf = previous;
  return out;
}
