/**
 * The request tracer's steps, made from the trace of `zone.ts` (one evaluator, two answers): one
 * step per part of the zone the request meets, in the order it meets them. A phase served by the
 * Rulesets API is a `phase` step holding its entry point as a `ruleset` step (`kind: "zone"`),
 * which holds its `rule` steps; an `execute` rule holds the managed ruleset it ran (`kind:
 * "managed"`) and the managed rules that matched. Firewall rules, a product outside the phases, are
 * a `product` step of `rule` steps. A rule step is listed when the request reached it (enabled,
 * and not after the rule that ended its phase), with `matched` telling whether it acted.
 *
 * A phase plugs in by adding its `TracerPhaseStep` to `TracerPhaseSteps`, in the order requests
 * meet the phases.
 */
import { CustomPhase, ManagedPhase, RatelimitPhase, TraceStepTypes, type TraceStep, type ZoneTrace } from '../../api/index.js';
import type { StoredRule, StoredRuleset } from '../rulesets/types.js';
import type { ZoneTraceInput } from './zone.js';

/** The step of one phase (or product) for a traced request; undefined when the zone does not run it. */
export type TracerPhaseStep = (zone: ZoneTraceInput, trace: ZoneTrace) => TraceStep | undefined;

/** The firewall rules (a product: `step_name` `firewall_rules`), while the zone has any. */
export const firewallRulesStep: TracerPhaseStep = (zone, trace) => {
  if (zone.firewallRules.length === 0) return undefined;
  const matched = new Set(trace.firewall_rules.matched.map((m) => m.id));
  const rules: TraceStep[] = [];
  for (const { rule, filter } of zone.firewallRules) {
    if (rule.paused || filter === undefined || filter.paused) continue;
    const step: TraceStep = { step_name: rule.id, type: TraceStepTypes.rule, matched: matched.has(rule.id), action: rule.action, expression: filter.expression };
    if (rule.description !== '') step.description = rule.description;
    if (rule.products.length > 0) step.action_parameters = { products: [...rule.products] };
    rules.push(step);
    if (rule.id === trace.firewall_rules.rule?.id) break;
  }
  return { step_name: 'firewall_rules', type: TraceStepTypes.product, matched: matched.size > 0, trace: rules };
};

/** The WAF custom rules (`http_request_firewall_custom`). */
export const customRulesStep: TracerPhaseStep = (zone, trace) => {
  const custom = trace.custom_rules;
  if (zone.customRules === undefined || custom === undefined) return undefined;
  const matched = new Set(custom.matched.map((m) => m.id));
  const last = custom.rule?.id ?? custom.matched.find((m) => m.ref === custom.ended_by)?.id;
  const rules = custom.skipped_by !== undefined ? [] : ruleSteps(zone.customRules.rules, matched, last);
  return phaseStep(CustomPhase, zone.customRules, rules);
};

/**
 * The rate limiting rules (`http_ratelimit`), after the custom rules: every enabled rule, `matched`
 * when its expression matches the request (one request exceeds no rate, so none acts on it).
 */
export const rateLimitRulesStep: TracerPhaseStep = (zone, trace) => {
  const rl = trace.rate_limiting_rules;
  if (zone.rateLimitRules === undefined || rl === undefined) return undefined;
  const matched = new Set(rl.matched.map((m) => m.id));
  const rules = rl.skipped_by !== undefined ? [] : ruleSteps(zone.rateLimitRules.rules, matched, undefined);
  return phaseStep(RatelimitPhase, zone.rateLimitRules, rules);
};

/** The new WAF (`http_request_firewall_managed`): the entry point, and what each `execute` rule ran. */
export const managedRulesStep: TracerPhaseStep = (zone, trace) => {
  const managed = trace.managed_rules;
  if (zone.entrypoint === undefined || managed === undefined) return undefined;
  const byEntry = new Map<string, TraceStep>();
  for (const m of managed.matched) {
    let rs = byEntry.get(m.entrypoint_rule);
    if (rs === undefined) byEntry.set(m.entrypoint_rule, (rs = { step_name: m.ruleset_id, type: TraceStepTypes.ruleset, kind: 'managed', name: m.ruleset, matched: true, trace: [] }));
    rs.trace!.push({ step_name: m.rule_id, type: TraceStepTypes.rule, matched: true, action: m.action, description: m.description });
  }
  const matched = new Set([...byEntry.keys(), ...managed.skipped.map((s) => s.entrypoint_rule)]);
  const last = managed.rule?.entrypoint_rule ?? managed.skipped.find((s) => s.skip.ruleset === 'current')?.entrypoint_rule;
  const rules = managed.skipped_by !== undefined ? [] : ruleSteps(zone.entrypoint.rules, matched, last);
  for (const step of rules) {
    const ran = byEntry.get(step.step_name!);
    if (ran !== undefined) step.trace = [ran];
  }
  return phaseStep(ManagedPhase, zone.entrypoint, rules);
};

/** The tracer's phases and products, in the order a request meets them. */
export const TracerPhaseSteps: TracerPhaseStep[] = [firewallRulesStep, customRulesStep, rateLimitRulesStep, managedRulesStep];

/** The tracer's steps of one traced request. */
export function tracerSteps(zone: ZoneTraceInput, trace: ZoneTrace): TraceStep[] {
  const out: TraceStep[] = [];
  for (const step of TracerPhaseSteps) {
    const s = step(zone, trace);
    if (s !== undefined) out.push(s);
  }
  return out;
}

/** The rule steps of an entry point: enabled rules up to the one (`last`) that ended the phase. */
function ruleSteps(rules: readonly StoredRule[], matched: ReadonlySet<string>, last: string | undefined): TraceStep[] {
  const out: TraceStep[] = [];
  for (const rule of rules) {
    if (!rule.enabled) continue;
    const step: TraceStep = { step_name: rule.id, type: TraceStepTypes.rule, matched: matched.has(rule.id), action: rule.action, expression: rule.expression };
    if (rule.description !== '') step.description = rule.description;
    if (rule.action_parameters !== undefined) step.action_parameters = rule.action_parameters;
    out.push(step);
    if (rule.id === last) break;
  }
  return out;
}

function phaseStep(phase: string, ruleset: StoredRuleset, rules: TraceStep[]): TraceStep {
  const matched = rules.some((r) => r.matched === true);
  const rs: TraceStep = { step_name: ruleset.id, type: TraceStepTypes.ruleset, kind: 'zone', name: ruleset.name, matched, trace: rules };
  if (ruleset.description !== '') rs.description = ruleset.description;
  return { step_name: phase, type: TraceStepTypes.phase, matched, trace: [rs] };
}
