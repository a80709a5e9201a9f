/**
 * What a burst's variant does before rate limiting (`burst-prepare.ts`): ended by the firewall or
 * custom rules, skipped past `http_ratelimit` by a custom skip, or run through the rate limiting
 * rules. Two ways with the same answers: through the phases' traces (`fateOf`), or the lean walk
 * the memoised path takes (`leanFateOf`).
 */
import { CustomPhase, RatelimitPhase, TerminatingCustomActions, type CustomSkipParameters } from '../../api/index.js';
import type { ExecutionContext } from '../../expr/index.js';
import { traceCustomRules } from './custom.js';
import { traceFirewallRules } from './firewall.js';
import { matches } from './matchers.js';
import type { ZoneTraceInput } from './zone.js';

/** What a variant does before rate limiting: `Ended` by the firewall or custom rules, `Skipped` past it, or it runs (`Runs`). */
export const Ended = 0;
export const Skipped = 1;
export const Runs = 2;

/** What the phases before rate limiting make of a request: the firewall rules, then the custom rules. */
export function fateOf(zone: ZoneTraceInput, context: ExecutionContext): number {
  const firewall = traceFirewallRules(zone.firewallRules, context);
  // `allow` ends the firewall and custom rules only: rate limiting still runs (as in `traceZone`).
  if (firewall.rule !== null) return firewall.action === 'allow' ? Runs : Ended;
  const custom = zone.customRules === undefined ? undefined : traceCustomRules(zone.customRules, context);
  return custom?.rule != null ? Ended : custom?.skipped_phases.includes(RatelimitPhase) === true ? Skipped : Runs;
}

const Terminating: ReadonlySet<string> = new Set(TerminatingCustomActions);

/**
 * `fateOf` without building the custom rules' trace (the memoised path, once per distinct value of
 * what the rules read; the tests hold it to `fateOf` through `preparePlain`): the first matching
 * terminating rule ends the request, a matching skip of `http_ratelimit` skips it unless a later
 * rule ends it, a skip of the current ruleset or phase ends the custom rules.
 */
export function leanFateOf(zone: ZoneTraceInput, context: ExecutionContext): number {
  if (zone.firewallRules.length > 0) {
    const firewall = traceFirewallRules(zone.firewallRules, context);
    if (firewall.rule !== null) return firewall.action === 'allow' ? Runs : Ended;
  }
  let skipped = false;
  for (const rule of zone.customRules?.rules ?? []) {
    if (!rule.enabled || !matches(rule.expression, CustomPhase, context)) continue;
    if (Terminating.has(rule.action)) return Ended;
    if (rule.action !== 'skip') continue;
    const skip = rule.action_parameters as CustomSkipParameters | undefined;
    if (skip?.phases?.includes(RatelimitPhase) === true) skipped = true;
    if (skip?.ruleset === 'current' || skip?.phase === 'current') break;
  }
  return skipped ? Skipped : Runs;
}
