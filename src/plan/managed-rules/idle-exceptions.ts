/**
 * Exceptions of the managed entry point that can never apply: a skip rule skips only the rules after
 * it, so one that names a managed ruleset no execute rule after it deploys (or `current` with no
 * execute rule after it) skips nothing. The service accepts such a rule silently ("if you add an
 * exception at the end of the list of rules of an entry point ruleset, nothing will be skipped",
 * https://developers.cloudflare.com/ruleset-engine/managed-rulesets/create-exception/), and so does
 * the engine; the manifest refuses it where it is written (`check-exceptions.ts`), so these are the
 * zone's skip rules a plan keeps in place (unmanaged ones): the plan warns (`exception-skips-nothing`).
 */
import type { Finding } from '../finding.js';
import { describeSkip, rulesetName } from './entrypoint-rules.js';
import { finding } from './findings.js';
import { isExecuteRule, type EntrypointRule } from './live.js';

/** The enabled skip rules of `rules` (the entry point as it will be) that skip nothing, as warnings. */
export function idleExceptions(rules: readonly EntrypointRule[]): Finding[] {
  const out: Finding[] = [];
  rules.forEach((rule, i) => {
    if (rule.action !== 'skip' || !rule.enabled) return;
    const later = new Set(rules.slice(i + 1).filter(isExecuteRule).map((r) => r.action_parameters.id));
    const p = rule.action_parameters;
    const named = p.ruleset === 'current' ? [] : [...(p.rulesets ?? []), ...Object.keys(p.rules ?? {})];
    const idle = p.ruleset === 'current' ? later.size === 0 : named.length > 0 && named.every((id) => !later.has(id));
    if (!idle) return;
    const what = p.ruleset === 'current' ? 'no execute rule follows it' : `no execute rule after it deploys ${[...new Set(named)].map(rulesetName).join(', ')}`;
    out.push(finding('exception-skips-nothing',
      `entry point rule ${rule.id ?? ''} (ref "${rule.ref ?? ''}"): the exception (skip ${describeSkip(p)}) skips nothing: ${what}, and a skip rule applies only to the rules after it; move it above the execute rule it is meant for (the service accepts it as it is)`,
      { kind: 'managed_exception', ref: rule.ref ?? '' }));
  });
  return out;
}
