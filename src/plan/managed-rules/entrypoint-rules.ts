/**
 * What the planner, the renderers and export say about one rule of the managed entry point, whatever
 * its action: whether zonewall owns it, and a one-line description for people (`execute managed`,
 * `skip the rules after it`). Skip rules are managed-rules exceptions (`managed_rules` items with
 * `skip`); like executes, zonewall owns one when its ref is its own (not empty, not its id).
 */
import { ManagedRulesetAliases } from '../../manifest/index.js';
import { isExecuteRule, type EntrypointRule, type SkipParameters } from './live.js';

/**
 * True for an entry point rule zonewall did not write: one whose ref is empty or equals its id (the
 * API's default), whether an execute or a skip rule (an exception).
 */
export function isUnmanagedEntrypointRule(r: EntrypointRule): boolean {
  return r.ref === undefined || r.ref === '' || r.ref === r.id;
}

/** A managed ruleset id as people know it: its catalog alias when it has one. */
export function rulesetName(id: string): string {
  return Object.entries(ManagedRulesetAliases).find(([, v]) => v === id)?.[0] ?? id;
}

/** What a skip rule skips, in words: `the rules after it`, `rulesets managed, owasp`, `3 rules of owasp`. */
export function describeSkip(p: SkipParameters): string {
  if (p.ruleset === 'current') return 'the rules after it in the entry point';
  if (p.rulesets !== undefined) return `ruleset${p.rulesets.length === 1 ? '' : 's'} ${p.rulesets.map(rulesetName).join(', ')}`;
  if (p.rules !== undefined) {
    const parts = Object.entries(p.rules).map(([id, rules]) => `${rules.length} rule${rules.length === 1 ? '' : 's'} of ${rulesetName(id)}`);
    return parts.length > 0 ? parts.join(', ') : 'no rules';
  }
  // A service may send parameters zonewall does not know; show them rather than guess.
  return JSON.stringify(p);
}

/** A one-line summary of an entry point rule, as the unmanaged list shows it. */
export function describeEntrypointRule(r: EntrypointRule): string {
  const disabled = r.enabled ? '' : ' (disabled)';
  if (isExecuteRule(r)) return `execute ${r.action_parameters.id}${disabled}`;
  if (r.action === 'skip') return `skip ${describeSkip(r.action_parameters)} when ${r.expression}${disabled}`;
  // Not a type the planner knows (the union is exhaustive, but live JSON may not be).
  return `${String((r as { action: unknown }).action)} rule${disabled}`;
}
