/**
 * A live zone, read through any provider, as the engine's trace evaluators take it: what
 * `--against-zone` evaluates locally when the service has no trace operation (the real service,
 * or `zonewall serve --strict`). Firewall rules keep their live ids, so verdicts name them as the
 * trace operation does. The zone setting `waf` is not read: the previous WAF counts as on while the
 * zone still has one, which is the engine's default.
 */
import { traceZone, type Entrypoint, type PageRuleLike, type PreviousWafSettings, type RuleWithFilter, type StoredRuleset, type WafOverride, type ZoneTraceInput } from '../engine/index.js';
import { ExecutionContext, requestFields, type Lists, type RequestDescription } from '../expr/index.js';
import { firewallEvaluationOrder } from '../manifest/index.js';
import type { Provider, TraceRequest, TraceResult } from '../providers/index.js';

type LiveZone = Awaited<ReturnType<Provider['readZone']>>;
type LiveRule = LiveZone['firewallRules'][number];

/** The trace input of a live zone. */
export function liveTraceInput(live: LiveZone): ZoneTraceInput {
  return {
    wafState: live.migration?.waf_state ?? 'previous_only',
    plan: live.zone.plan ?? 'enterprise',
    // `compareFirewallRules` (priority, no priority last, action precedence, ref, id): the engine's order.
    firewallRules: firewallEvaluationOrder(live.firewallRules).flatMap(toRule),
    entrypoint: (live.entrypoint ?? undefined) as Entrypoint | undefined,
    // The custom phase as read: the wire shape the engine stores, so the engine's evaluator takes it as it is.
    customRules: (live.customEntrypoint ?? undefined) as StoredRuleset | undefined,
    rateLimitRules: (live.rateLimitEntrypoint ?? undefined) as StoredRuleset | undefined,
    // The service answers only the `matches` operator, which the planner's type leaves as a string.
    pageRules: live.pageRules as readonly PageRuleLike[] | undefined,
    previousWaf: previousWaf(live),
  };
}

/** What the live zone would do to one request, evaluated here (`lists`: what `$name` resolves to; undefined: lists match nothing). */
export function traceLocally(input: ZoneTraceInput, request: TraceRequest, lists?: Lists): TraceResult {
  return traceZone(input, new ExecutionContext(requestFields(request as RequestDescription), lists));
}

/** A live rule and its filter as the evaluator's record; a rule whose filter is gone matches nothing. */
function toRule(l: LiveRule): RuleWithFilter[] {
  if ('deleted' in l.filter) return [];
  const f = l.filter;
  return [{
    rule: {
      id: l.id, filterId: f.id, action: l.action, priority: l.priority, paused: l.paused, description: l.description ?? '',
      ref: l.ref ?? '', products: (l.products ?? []) as RuleWithFilter['rule']['products'], createdOn: l.created_on ?? '', modifiedOn: l.modified_on ?? '',
    },
    // `usesMatches` and `locked` drive the engine's write checks; the trace does not read them.
    filter: { id: f.id, expression: f.expression, canonical: f.expression, usesMatches: false, paused: f.paused, description: f.description ?? '', ref: f.ref ?? '', locked: f.locked === true },
  }];
}

function previousWaf(live: LiveZone): PreviousWafSettings {
  const pw = live.previousWaf;
  const s: PreviousWafSettings = { enabled: pw !== null, packages: new Map(), groupModes: new Map(), ruleModes: new Map(), overrides: [] };
  if (pw === null) return s;
  for (const p of pw.packages) if (p.detection_mode === 'anomaly') s.packages.set(p.id, { sensitivity: p.sensitivity ?? null, action_mode: p.action_mode ?? null });
  for (const g of pw.groups) s.groupModes.set(`${g.package_id}/${g.id}`, g.mode);
  for (const r of pw.rules) s.ruleModes.set(`${r.package_id}/${r.id}`, r.mode);
  // The list answers the whole override (groups, rules, rewrite_action), which the planner's type leaves out.
  s.overrides = pw.overrides as unknown as WafOverride[];
  return s;
}
