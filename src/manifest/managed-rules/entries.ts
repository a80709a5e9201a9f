/**
 * The rules of the `http_request_firewall_managed` entry point as the manifest orders them: execute
 * entries (`DesiredZone.managedRules`) and exceptions (`DesiredZone.managedExceptions`) are kept in
 * two lists, so code that reads only deployments is unchanged; this puts them back in one list.
 */
import type { DesiredZone } from '../desired.js';
import type { DesiredManagedException, DesiredManagedRuleset } from './desired.js';

/** One rule of the managed entry point, in manifest order. */
export type DesiredManagedEntry =
  | { kind: 'execute'; ruleset: DesiredManagedRuleset }
  | { kind: 'exception'; exception: DesiredManagedException };

/** The entry point's rules in manifest order; undefined when the manifest has no `managed_rules`. */
export function managedEntrypointRules(desired: DesiredZone): DesiredManagedEntry[] | undefined {
  const rulesets = desired.managedRules;
  if (rulesets === undefined) return undefined;
  const exceptions = desired.managedExceptions ?? [];
  const out: DesiredManagedEntry[] = [];
  let next = 0;
  const flush = (upTo: number) => {
    while (next < exceptions.length && exceptions[next]!.after <= upTo) out.push({ kind: 'exception', exception: exceptions[next++]! });
  };
  rulesets.forEach((ruleset, i) => {
    flush(i);
    out.push({ kind: 'execute', ruleset });
  });
  while (next < exceptions.length) out.push({ kind: 'exception', exception: exceptions[next++]! });
  return out;
}

/** The ruleset ids an exception names (every ruleset it may skip; none for `current`). */
export function skippedRulesetIds(e: Pick<DesiredManagedException, 'skip'>): string[] {
  const s = e.skip;
  if ('rulesets' in s) return [...s.rulesets];
  if ('rules' in s) return Object.keys(s.rules);
  return [];
}
