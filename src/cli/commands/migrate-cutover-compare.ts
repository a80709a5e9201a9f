/**
 * The cutover's compare step: on the zone as it is after `stage` (the firewall rules enforcing, the
 * converted custom rules stored but disabled), every request of the corpus generated from the live
 * expressions (and the zone's cases) is traced through the zone as stored, and through the same
 * zone with the custom rules as `enable` makes them and no firewall rules: the new generation, from
 * what the service holds rather than from the manifest. Evaluated locally with the live-zone model
 * of `zonewall test --against-zone`, so no request reaches the zone; `$name` resolves to the
 * zone's account's lists as read (`readZoneLists`), as the service resolves it; when the service
 * does not say the zone's account, the account manifest beside the manifest names it, and without
 * one the lists are not read and the step's output says so.
 */
import { CustomPhase } from '../../api/index.js';
import type { Lists } from '../../expr/index.js';
import type { DesiredZone } from '../../manifest/index.js';
import type { LiveZone } from '../../plan/index.js';
import { generateCorpus, indexedTrace, liveTraceInput, requestContext, withZoneHost } from '../../policy/index.js';
import type { TraceRequest, TraceResult } from '../../providers/index.js';

/** One request the two generations end differently. */
export interface LiveDifference { request: TraceRequest; before: string; after: string }

/** What the compare step found. */
export interface LiveComparison { compared: number; differences: LiveDifference[] }

/** How a request ends: at the origin (no action, allow, log, skip) or by a terminating action. */
function outcome(t: TraceResult): string {
  return t.action === null || t.action === 'allow' || t.action === 'log' || t.action === 'skip' ? 'origin' : t.action;
}

/**
 * Compares the zone's old generation with its staged new one (`lists`: what `$name` resolves to;
 * undefined: lists match nothing).
 * @example const { differences } = compareLive(live, enableStep.desired, extraRequests, lists);
 */
export function compareLive(live: LiveZone, enabled: DesiredZone, extra: readonly TraceRequest[] = [], lists?: Lists): LiveComparison {
  const wanted = new Map((enabled.customRules ?? []).map((r) => [r.ref, r.enabled]));
  const ep = live.customEntrypoint ?? null;
  const next: LiveZone = {
    ...live,
    firewallRules: [],
    filters: [],
    customEntrypoint: ep === null ? null : { ...ep, rules: ep.rules.map((r) => (r.ref !== undefined && wanted.has(r.ref) ? { ...r, enabled: wanted.get(r.ref)! } : r)) },
  };
  const expressions = live.firewallRules.flatMap((r) => ('deleted' in r.filter ? [] : [r.filter.expression]));
  const requests = [...extra, ...generateCorpus(expressions, CustomPhase, lists).map((c) => c.request)].map((r) => withZoneHost(r, live.zone.name));
  // Each generation's expressions compiled and indexed once; each request's fields made once, for both.
  const before = indexedTrace(liveTraceInput(live), lists);
  const after = indexedTrace(liveTraceInput(next), lists);
  const differences: LiveDifference[] = [];
  for (const request of requests) {
    const context = requestContext(request, lists);
    const a = outcome(before(context));
    const b = outcome(after(context));
    if (a !== b) differences.push({ request, before: a, after: b });
  }
  return { compared: requests.length, differences };
}
