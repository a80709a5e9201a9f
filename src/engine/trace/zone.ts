/**
 * The trace of one request through a whole zone: the three evaluators combined, as a pure function
 * of the zone's loaded state, so the engine's `POST /zones/{id}/trace` and `zonewall test`'s offline
 * evaluation (a manifest's zone model) give the same answer by running the same code.
 *
 * The firewall rules run first; a terminating one ends the request before the WAFs, except `allow`,
 * which ends the rules of its own list only (reference/custom-rules.md §4.1: "matching requests are
 * not exempt from action by other Cloudflare security products such as … WAF Managed Rules"). On
 * the service firewall rules and custom rules are one list (§4.4: the old API shows the custom rules
 * as firewall rules), so an `allow` skips the custom rules after it, exactly as the `skip` of
 * `ruleset: current` it becomes; the new WAF and the previous WAF still run and decide when they
 * act; when neither does, the request ends as `allow` by the firewall rule. Then the WAF custom rules (`custom.ts`): a terminating one ends the request; a skip rule may
 * skip the managed phase (`phases`) or the previous WAF (`products: [waf]`). Then the WAFs the zone runs: the new WAF (the entry point, when it deploys an enabled
 * managed ruleset) and the previous WAF (a Pro or higher zone that has not migrated, with the `waf`
 * setting on). A firewall rule that bypasses `waf` skips the previous WAF only (as in the real
 * service, "WAF Managed Rules" of the firewall rules' bypass is the previous version; the migration
 * turns such rules into skip rules of the entry point). In validation mode (`both`) each WAF is
 * evaluated on its own, so their verdicts can be compared, and the new WAF decides first, as it
 * runs before the previous one. The first matching active Page Rule switches the previous WAF off
 * (`disable_security`, `waf: off`) or on (`waf: on`) for its URLs; Page Rules do not touch the new WAF.
 * The rate limiting rules run after the custom rules (a custom skip of `http_ratelimit` skips them);
 * for one request the trace lists the rules whose expressions match it, and none acts (a rate is
 * never exceeded by one request: bursts, `burst.ts`, tell when it is).
 */
import type { ExecutionContext } from '../../expr/index.js';
import type { RuleWithFilter } from '../firewall-rules/store.js';
import type { WafState } from '../migration/state-machine.js';
import { actionsLabel, wafEffect, type PageRuleLike } from '../page-rules/index.js';
import type { PreviousWafSettings } from '../previous-waf/model.js';
import { deploysEnabledRuleset, type Entrypoint, type StoredRuleset } from '../rulesets/types.js';
import { ManagedPhase, RatelimitPhase, type RateLimitTrace, type ZoneTrace, type ZoneTraceDecider } from '../../api/index.js';

export type { ZoneTrace, ZoneTraceDecider } from '../../api/index.js';
import { customRulesNotRun, traceCustomRules, type CustomTrace } from './custom.js';
import { traceFirewallRules, type FirewallTrace } from './firewall.js';
import { traceEntrypoint, type ManagedTrace } from './managed.js';
import { firstPageRule } from './page-rules.js';
import { tracePreviousWaf, type PreviousTrace } from './previous.js';
import { traceRateLimitRules } from './ratelimit.js';

/** A zone as the trace reads it: its state, already loaded. */
export interface ZoneTraceInput {
  /** Which WAF versions run. */
  wafState: WafState;
  /** The zone's plan tier (the previous WAF does not run on `free`). */
  plan: string;
  /**
   * Firewall rules in evaluation order. Leaving out rules that do not match the request changes
   * nothing in the answer (policy tests give only an index's candidates).
   */
  firewallRules: readonly RuleWithFilter[];
  /** The `http_request_firewall_managed` entry point, if the zone has one. */
  entrypoint: Entrypoint | undefined;
  /** The `http_request_firewall_custom` entry point (WAF custom rules), if the zone has one. */
  customRules?: StoredRuleset | undefined;
  /** The `http_ratelimit` entry point (rate limiting rules), if the zone has one. */
  rateLimitRules?: StoredRuleset | undefined;
  /** The previous WAF's settings; `enabled` is the zone setting `waf`. */
  previousWaf: PreviousWafSettings;
  /** Page Rules (any order: the trace orders them); none when left out. */
  pageRules?: readonly PageRuleLike[];
}


/** Evaluates `request` against the zone: firewall rules, custom rules, then the new WAF, then the previous WAF. */
export function traceZone(zone: ZoneTraceInput, request: ExecutionContext): ZoneTrace {
  const firewall = traceFirewallRules(zone.firewallRules, request);
  // `allow` ends the firewall rules only: every later product still runs (issue 32).
  const firewallEnded = firewall.rule !== null && firewall.action !== 'allow' ? `firewall rule ${firewall.rule.id} (${firewall.rule.action}) ended the request before the WAF` : undefined;
  const allowEnded = firewall.action === 'allow' && firewall.rule !== null ? `firewall rule ${firewall.rule.id} (allow) skipped the remaining firewall and custom rules` : undefined;
  let custom: CustomTrace | undefined;
  const customNotRun = firewallEnded ?? allowEnded;
  if (zone.customRules !== undefined) custom = customNotRun !== undefined ? customRulesNotRun(zone.customRules, customNotRun) : traceCustomRules(zone.customRules, request);
  const customEnded = custom?.rule != null ? `custom rule ${custom.rule.ref} (${custom.rule.action}) ended the request before the WAF` : undefined;
  const endedBy = firewallEnded ?? customEnded;
  const managedSkip = custom?.skipped_phases.includes(ManagedPhase) === true ? `a custom rule skips ${ManagedPhase}` : undefined;
  // Rate limiting runs after the custom rules (after a firewall `allow` too).
  let rateLimit: RateLimitTrace | undefined;
  if (zone.rateLimitRules !== undefined) {
    const notRun = endedBy ?? (custom?.skipped_phases.includes(RatelimitPhase) === true ? `a custom rule skips ${RatelimitPhase}` : undefined);
    rateLimit = notRun !== undefined ? { matched: [], skipped_by: notRun } : traceRateLimitRules(zone.rateLimitRules.rules, request);
  }
  const showManaged = zone.wafState !== 'previous_only' || zone.entrypoint !== undefined;
  const showPrevious = zone.wafState !== 'new_only' && zone.plan !== 'free';
  let managed: ManagedTrace | undefined;
  if (showManaged) {
    const notRun = endedBy ?? managedSkip;
    managed = notRun !== undefined
      ? { enabled: deploysEnabledRuleset(zone.entrypoint), matched: [], action: null, rule: null, skipped: [], skipped_by: notRun }
      : traceEntrypoint(zone.entrypoint, request);
  }
  const wafSkip = firewall.bypassed.includes('waf') ? 'a firewall rule bypasses waf (the previous WAF)'
    : custom?.skipped_products.includes('waf') === true ? 'a custom rule skips waf (the previous WAF)' : undefined;
  const previous = showPrevious ? previousTrace(zone, wafSkip, endedBy, request) : undefined;
  const out = answer(zone.wafState, firewall, custom, managed, previous);
  if (rateLimit !== undefined) out.rate_limiting_rules = rateLimit;
  return out;
}

function previousTrace(zone: ZoneTraceInput, wafSkip: string | undefined, endedBy: string | undefined, request: ExecutionContext): PreviousTrace {
  // Off once migrated, on Free, or with the zone setting `waf` off, unless a Page Rule decides.
  const page = firstPageRule(zone.pageRules ?? [], request);
  const switchedOn = page !== undefined ? wafEffect(page) === 'on' : zone.previousWaf.enabled;
  const enabled = zone.wafState !== 'new_only' && zone.plan !== 'free' && switchedOn;
  const off = (skipped: string): PreviousTrace => ({ enabled, skipped, matched: [], action: null, rule: null });
  if (!enabled) {
    return off(page !== undefined
      ? `Page Rule ${page.id} (${actionsLabel(page)}) switches the previous WAF off for this URL`
      : 'the previous WAF is switched off (zone setting waf: off)');
  }
  if (endedBy !== undefined) return off(endedBy);
  if (wafSkip !== undefined) return off(wafSkip);
  // URI-based overrides match on the request's host and path.
  const host = String(request.request['http.host'] ?? '');
  const path = String(request.request['http.request.uri.path'] ?? '/');
  return tracePreviousWaf(zone.previousWaf, request, host, path);
}

function answer(wafState: WafState, firewall: FirewallTrace, custom: CustomTrace | undefined, managed: ManagedTrace | undefined, previous: PreviousTrace | undefined): ZoneTrace {
  // A firewall rule's `allow` decides only when nothing later acts.
  const allowed = firewall.action === 'allow';
  let action: string | null = allowed ? null : firewall.action;
  let decidedBy: ZoneTraceDecider | null = action !== null ? 'firewall_rules' : null;
  if (action === null && custom?.action != null) { action = custom.action; decidedBy = 'custom_rules'; }
  if (action === null && managed?.enabled === true && managed.action !== null) { action = managed.action; decidedBy = 'managed_rules'; }
  if (action === null && previous?.enabled === true && previous.action !== null) { action = previous.action; decidedBy = 'previous_waf'; }
  if (action === null && allowed) { action = 'allow'; decidedBy = 'firewall_rules'; }
  const { bypassed: _bypassed, ...firewallView } = firewall;
  const out: ZoneTrace = { waf_state: wafState, action, decided_by: decidedBy, firewall_rules: firewallView };
  if (custom !== undefined) out.custom_rules = custom;
  if (managed !== undefined) out.managed_rules = managed;
  if (previous !== undefined) out.previous_waf = previous;
  return out;
}
