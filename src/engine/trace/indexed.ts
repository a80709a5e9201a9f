/**
 * A zone's trace for many requests: its firewall rules and enabled custom rules compiled once and
 * indexed by guard (`RuleIndex`), so each request is evaluated by the rules that match it only,
 * which changes nothing in the answer (the evaluators skip a rule that does not match, and report
 * none). The request tracer's batch and the cutover's compare trace thousands of requests through
 * one zone this way; make each request's context once to share it between zones.
 */
import type { ExecutionContext, Lists } from '../../expr/index.js';
import { TracePhases } from './matchers.js';
import { RuleIndex } from './rule-index.js';
import { traceZone, type ZoneTrace, type ZoneTraceInput } from './zone.js';

/**
 * The trace function of `input` (`lists`: what `$name` resolves to, as in the requests' contexts).
 * @example const trace = indexedTrace(zone); for (const r of requests) answers.push(trace(contextOf(r)));
 */
export function indexedTrace(input: ZoneTraceInput, lists?: Lists): (context: ExecutionContext) => ZoneTrace {
  const firewall = input.firewallRules.filter((r) => r.filter !== undefined);
  const firewallIndex = new RuleIndex(firewall, firewall.map((r) => r.filter!.expression), TracePhases.firewall, lists);
  const custom = input.customRules;
  const enabled = custom?.rules.filter((r) => r.enabled) ?? [];
  const customIndex = new RuleIndex(enabled, enabled.map((r) => r.expression), TracePhases.firewall, lists);
  return (context) => {
    const trace = traceZone({
      ...input,
      firewallRules: firewallIndex.candidates(context),
      customRules: custom === undefined ? undefined : { ...custom, rules: customIndex.candidates(context) },
    }, context);
    // Whether the phase has enabled rules is the whole entry point's, not the candidates'.
    if (trace.custom_rules !== undefined) trace.custom_rules.enabled = enabled.length > 0;
    return trace;
  };
}
