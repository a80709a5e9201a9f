/**
 * Hand-built desired and live zones for planner tests: small builders with defaults, expressions
 * made canonical the way the manifest loader makes them.
 */
import { canonicalize } from '../../src/expr/index.js';
import type {
  DesiredCustomRule, DesiredFilter, DesiredFirewallRule, DesiredManagedRuleset, DesiredZone, SourceLocation,
} from '../../src/manifest/index.js';
import { phaseWriteOf } from '../../src/plan/index.js';
import type { AdoptionWrites, CustomRuleBody, CustomRulesWrite, EntrypointBody, EntrypointWrite, ExecuteEntrypointRule, LiveCustomEntrypoint, LiveCustomRule, LiveFilter, LiveFirewallRule, LiveZone, Plan, SkipEntrypointRule } from '../../src/plan/index.js';

export const loc: SourceLocation = { file: 'zone.yaml', line: 1, column: 1 };

/** A 32-hex id from a short tag, so tests read well and ids look real. */
export function hex(tag: string): string {
  return Buffer.from(tag).toString('hex').padEnd(32, '0').slice(0, 32);
}

export function dFilter(ref: string, expression: string, more: Partial<DesiredFilter> = {}): DesiredFilter {
  return { ref, expression: canonicalize(expression), description: '', paused: false, inline: false, location: loc, ...more };
}

export function dRule(ref: string, filterRef: string, more: Partial<DesiredFirewallRule> = {}): DesiredFirewallRule {
  return { ref, action: 'block', filterRef, priority: 1, description: '', paused: false, products: [], location: loc, ...more };
}

export function dManaged(ref: string, rulesetId: string, more: Partial<DesiredManagedRuleset> = {}): DesiredManagedRuleset {
  return { ref, rulesetId, enabled: true, expression: 'true', description: '', overrides: { categories: [], rules: [] }, location: loc, ...more };
}

export function desired(more: Partial<DesiredZone> = {}): DesiredZone {
  return { file: 'zone.yaml', zone: 'example.com', filters: [], firewallRules: [], locations: {}, ...more };
}

export function lFilter(tag: string, expression: string, more: Partial<LiveFilter> = {}): LiveFilter {
  return { id: hex(tag), expression, paused: false, ...more };
}

export function lRule(tag: string, filter: LiveFilter, more: Partial<LiveFirewallRule> = {}): LiveFirewallRule {
  return { id: hex(tag), action: 'block', priority: 1, paused: false, filter, ...more };
}

export function lManaged(tag: string, rulesetId: string, more: Partial<ExecuteEntrypointRule> = {}): ExecuteEntrypointRule {
  return { id: hex(tag), version: '1', action: 'execute', expression: 'true', enabled: true, action_parameters: { id: rulesetId, version: 'latest' }, ...more };
}

/** A skip rule as the migration writes one: no ref of its own (the API sets ref = id). */
export function lSkip(tag: string, expression: string, more: Partial<SkipEntrypointRule> = {}): SkipEntrypointRule {
  return { id: hex(tag), ref: hex(tag), version: '1', action: 'skip', expression, description: `Migrated from firewall rule ${tag}`, enabled: true,
    action_parameters: { ruleset: 'current' }, logging: { enabled: true }, ...more };
}

export function live(more: Partial<LiveZone> = {}): LiveZone {
  return {
    zone: { id: hex('zone'), name: 'example.com', plan: 'enterprise' },
    filters: [], firewallRules: [], entrypoint: null, previousWaf: null,
    migration: { migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'disabled', waf_state: 'previous_only' },
    ...more,
  };
}

export function dCustom(ref: string, expression: string, more: Partial<DesiredCustomRule> = {}): DesiredCustomRule {
  return { ref, action: 'block', expression: canonicalize(expression), description: '', enabled: true, location: loc, ...more };
}

export function lCustom(tag: string, expression: string, more: Partial<LiveCustomRule> = {}): LiveCustomRule {
  return { id: hex(tag), ref: tag, version: '1', action: 'block', expression, enabled: true, ...more };
}

/** The custom phase entry point holding `rules`. */
export function customEntry(rules: LiveCustomRule[], version = '1'): LiveCustomEntrypoint {
  return { id: hex('custom-entry'), name: 'default', kind: 'zone', phase: 'http_request_firewall_custom', version, rules };
}

/** The managed entry point PUT of a plan (its `entrypoint` phase write), or null. */
export function entrypointOf(plan: Pick<Plan, 'phaseWrites'>): EntrypointWrite | null {
  return phaseWriteOf(plan, 'entrypoint') as EntrypointWrite | null;
}

/** The custom phase's write of a plan (its `custom_rules` phase write), or null. */
export function customWriteOf(plan: Pick<Plan, 'phaseWrites'>): CustomRulesWrite | null {
  return phaseWriteOf(plan, 'custom_rules') as CustomRulesWrite | null;
}

/** An export's adoption writes by resource: bulk filter and rule PUT bodies, and the entry point PUTs. */
export function adoptionParts(adoption: AdoptionWrites) {
  const put = (phase: string) => {
    const w = adoption.phaseWrites.find((p) => p.phase === phase);
    return w?.strategy === 'put' ? w.body : null;
  };
  return {
    filters: adoption.writes.flatMap((w) => (w.op === 'filter.update' ? [{ ...w.body, id: w.id }] : [])),
    firewallRules: adoption.writes.flatMap((w) => (w.op === 'firewall_rule.update' ? [{ ...w.body, id: w.id }] : [])),
    entrypoint: put('entrypoint') as EntrypointBody | null,
    customRules: put('custom_rules') as { description?: string; rules: CustomRuleBody[] } | null,
  };
}
