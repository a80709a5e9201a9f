/**
 * `--against-zone` through the service's request tracer (`POST /accounts/{account_id}/request-tracer/trace`,
 * `security-phases.md` §5), so the same cases run against the real service (a token with Request
 * Tracer Read) and against zonewall's engine. A case's request becomes the tracer's body
 * (`tracerBodyOf`); the answer's steps (phase → ruleset → rule) are read back into the trace shape
 * the verdict reads (`zoneTraceOfTracer`), the rules named through one read of the live zone.
 *
 * What the tracer has no input for (the client IP, Rules language fields other than the bot and
 * threat scores) goes in zonewall's body extension `zonewall: {ip, fields}`, which only zonewall's
 * engine honours; what it cannot tell (the previous WAF's decision) comes from the result's
 * extension `zonewall`, and where that is absent (the service, a strict engine) from the zone as
 * read, evaluated here (`previousAsRead`).
 */
import { TerminatingCustomActions, type CustomMatch, type CustomSkipParameters, type CustomTrace, type FirewallMatch, type ManagedMatch, type ManagedSkipParameters, type ManagedTrace, type PreviousTrace, type SkipPhase, type SkipProduct, type TraceStep, type TracerRequestBody, type TracerResult, type ZoneTrace } from '../api/index.js';
import { requestFields, type RequestDescription } from '../expr/index.js';
import type { Provider, TraceRequest, TraceResult } from '../providers/index.js';

type LiveZone = Awaited<ReturnType<Provider['readZone']>>;

const CustomPhaseName = 'http_request_firewall_custom';
const ManagedPhaseName = 'http_request_firewall_managed';
const Terminating: ReadonlySet<string> = new Set(TerminatingCustomActions);
/** Firewall rule actions that do not end the evaluation. */
const FirewallGoesOn: ReadonlySet<string> = new Set(['log', 'bypass']);

/** The tracer's body for a case's request; `zone` is the host when the request names none. */
export function tracerBodyOf(request: TraceRequest, zone: string): TracerRequestBody {
  const desc: RequestDescription = { ...(request as RequestDescription) };
  if (desc.url === undefined && desc.host === undefined) desc.host = zone;
  const url = String(requestFields(desc)['http.request.full_uri']);
  const body: TracerRequestBody = { url, method: (request.method ?? 'GET').toUpperCase() };
  const headers = Object.entries(request.headers ?? {});
  if (headers.length > 0) {
    body.headers = Object.fromEntries(headers.map(([name, v]) => [name, typeof v === 'string' ? v : v.join(name.toLowerCase() === 'cookie' ? '; ' : ', ')]));
  }
  if (request.body !== undefined) body.body = { plain_text: request.body };
  const context: NonNullable<TracerRequestBody['context']> = {};
  if (request.country !== undefined) context.geoloc = { iso_code: request.country };
  const fields: Record<string, unknown> = { ...(request.fields ?? {}) };
  if (typeof fields['cf.bot_management.score'] === 'number') {
    context.bot_score = fields['cf.bot_management.score'];
    delete fields['cf.bot_management.score'];
  }
  if (typeof fields['cf.threat_score'] === 'number') {
    context.threat_score = fields['cf.threat_score'];
    delete fields['cf.threat_score'];
  }
  if (Object.keys(context).length > 0) body.context = context;
  const extension: NonNullable<TracerRequestBody['zonewall']> = {};
  if (request.ip !== undefined) extension.ip = request.ip;
  if (Object.keys(fields).length > 0) extension.fields = fields;
  if (Object.keys(extension).length > 0) body.zonewall = extension;
  return body;
}

/** The tracer's answer read back into the trace shape the verdict reads, rules named from the live zone. */
export function zoneTraceOfTracer(result: TracerResult, live: LiveZone, previousAsRead?: () => PreviousTrace | undefined): TraceResult {
  const steps = result.trace ?? [];
  const firewall = firewallOf(steps.find((s) => s.step_name === 'firewall_rules'), live);
  const customPhase = steps.find((s) => s.step_name === CustomPhaseName);
  const custom = customPhase === undefined ? undefined : customOf(customPhase, live);
  const managedPhase = steps.find((s) => s.step_name === ManagedPhaseName);
  const managed = managedPhase === undefined ? undefined : managedOf(managedPhase);
  // The service's tracer (and a strict engine) does not tell the previous WAF's decision: then it is
  // evaluated from the zone as read, as without a tracer.
  const previous = result.zonewall !== undefined ? result.zonewall.previous_waf : previousAsRead?.();
  const out: ZoneTrace = { waf_state: result.zonewall?.waf_state ?? 'new_only', action: null, decided_by: null, firewall_rules: firewall };
  if (custom !== undefined) out.custom_rules = custom;
  if (managed !== undefined) out.managed_rules = managed;
  if (previous !== undefined) out.previous_waf = previous;
  // A firewall rule's `allow` decides only when nothing later acts (issue 32 item 2), as in the
  // engine's trace (src/engine/trace/zone.ts `answer`): the WAFs after it still run.
  const allowed = firewall.rule !== null && firewall.rule.action === 'allow';
  if (firewall.rule !== null && !allowed) [out.action, out.decided_by] = [firewall.rule.action, 'firewall_rules'];
  else if (custom?.rule != null) [out.action, out.decided_by] = [custom.rule.action, 'custom_rules'];
  else if (managed?.rule != null) [out.action, out.decided_by] = [managed.rule.action, 'managed_rules'];
  else if (previous?.enabled === true && previous.action !== null) [out.action, out.decided_by] = [previous.action, 'previous_waf'];
  else if (allowed) [out.action, out.decided_by] = ['allow', 'firewall_rules'];
  return out;
}

function matchedRules(step: TraceStep | undefined): TraceStep[] {
  return (step?.trace ?? []).filter((s) => s.type === 'rule' && s.matched === true);
}

/** The rule steps of a phase step's entry point (its first ruleset). */
function entryRules(phase: TraceStep): TraceStep[] {
  return phase.trace?.find((s) => s.type === 'ruleset')?.trace ?? [];
}

/** The live zone's firewall rules by id and custom rules' refs by id, made once per zone read (a run reads thousands of answers). */
const lookups = new WeakMap<LiveZone, { firewall: Map<string, LiveZone['firewallRules'][number]>; customRefs: Map<string, string> }>();

function lookupsOf(live: LiveZone): { firewall: Map<string, LiveZone['firewallRules'][number]>; customRefs: Map<string, string> } {
  let l = lookups.get(live);
  if (l === undefined) {
    l = { firewall: new Map(live.firewallRules.map((r) => [r.id, r])), customRefs: new Map((live.customEntrypoint?.rules ?? []).map((r) => [r.id, r.ref ?? r.id])) };
    lookups.set(live, l);
  }
  return l;
}

function firewallOf(step: TraceStep | undefined, live: LiveZone): ZoneTrace['firewall_rules'] {
  const byId = lookupsOf(live).firewall;
  const matched = matchedRules(step).map((s): FirewallMatch => {
    const rule = byId.get(s.step_name ?? '');
    const m: FirewallMatch = { id: s.step_name ?? '', action: s.action ?? '', priority: rule?.priority ?? null };
    if (rule?.ref !== undefined && rule.ref !== '') m.ref = rule.ref;
    if (s.description !== undefined) m.description = s.description;
    return m;
  });
  const rule = matched.find((m) => !FirewallGoesOn.has(m.action)) ?? null;
  return { matched, action: rule?.action ?? null, rule };
}

function customOf(phase: TraceStep, live: LiveZone): CustomTrace {
  const refs = lookupsOf(live).customRefs;
  const out: CustomTrace = { enabled: true, matched: [], action: null, rule: null, skipped_phases: [], skipped_products: [] };
  for (const s of entryRules(phase).filter((r) => r.matched === true)) {
    const id = s.step_name ?? '';
    const m: CustomMatch = { ref: refs.get(id) ?? id, id, action: s.action ?? '' };
    if (s.description !== undefined) m.description = s.description;
    out.matched.push(m);
    if (Terminating.has(m.action)) {
      out.rule = m;
      out.action = m.action;
      const status = (s.action_parameters as { response?: { status_code?: number } } | undefined)?.response?.status_code;
      if (status !== undefined) m.status_code = status;
      continue;
    }
    if (m.action !== 'skip') continue;
    const skip = (s.action_parameters ?? {}) as CustomSkipParameters;
    m.skip = skip;
    for (const p of skip.phases ?? []) if (!out.skipped_phases.includes(p as SkipPhase)) out.skipped_phases.push(p as SkipPhase);
    for (const p of skip.products ?? []) if (!out.skipped_products.includes(p as SkipProduct)) out.skipped_products.push(p as SkipProduct);
    if (skip.ruleset === 'current' || skip.phase === 'current') out.ended_by = m.ref;
  }
  return out;
}

function managedOf(phase: TraceStep): ManagedTrace {
  const out: ManagedTrace = { enabled: entryRules(phase).some((s) => s.action === 'execute'), matched: [], action: null, rule: null, skipped: [] };
  for (const entry of entryRules(phase).filter((r) => r.matched === true)) {
    if (entry.action === 'skip') {
      out.skipped.push({ entrypoint_rule: entry.step_name ?? '', skip: (entry.action_parameters ?? {}) as ManagedSkipParameters });
      continue;
    }
    for (const ruleset of (entry.trace ?? []).filter((s) => s.type === 'ruleset')) {
      for (const r of matchedRules(ruleset)) {
        const m: ManagedMatch = { entrypoint_rule: entry.step_name ?? '', ruleset_id: ruleset.step_name ?? '', ruleset: ruleset.name ?? '', rule_id: r.step_name ?? '', description: r.description ?? '', action: r.action ?? '', categories: [] };
        out.matched.push(m);
        if (out.rule === null && Terminating.has(m.action)) {
          out.rule = m;
          out.action = m.action;
        }
      }
    }
  }
  return out;
}
