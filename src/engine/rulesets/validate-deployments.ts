/**
 * Checks of the managed entry point across its rules: one managed ruleset is deployed by at most
 * one `execute` rule. The service refuses a second one (400, code 20014, "more than one rule is
 * trying to execute the same managed ruleset", as users report it; the public documentation said
 * the phase holds "one execute rule for each available managed ruleset" and that a second one would
 * never run, a managed ruleset running at most once per request). Disabled rules count: the check
 * is of the configuration, not of one request.
 */
import { RulesetErrorMessages } from '../../api/index.js';
import { findManagedRuleset } from '../catalog/index.js';
import type { ApiMessage } from '../types.js';
import { rulesetMessage } from './errors.js';

/** What the check reads of a rule (a validated body's rule or a stored one). */
export interface DeployingRule {
  action: string;
  action_parameters?: unknown;
}

/** The managed ruleset an `execute` rule deploys, or undefined for any other rule. */
function deployed(rule: DeployingRule): string | undefined {
  if (rule.action !== 'execute') return undefined;
  const id = (rule.action_parameters as { id?: unknown } | undefined)?.id;
  return typeof id === 'string' ? id : undefined;
}

function refusal(id: string, who: (name: string) => string, pointer: string): ApiMessage {
  const name = `${findManagedRuleset(id)?.name ?? 'the managed ruleset'} (${id})`;
  return rulesetMessage('duplicateExecute',
    `${RulesetErrorMessages.duplicateExecute}: ${who(name)}; deploy it with one execute rule, whose expression and overrides cover every case`, pointer);
}

/** The refusals of a whole rule list (a PUT): each execute rule after the first of its ruleset, at `/rules/N/action_parameters/id`. */
export function duplicateDeployments(rules: readonly DeployingRule[]): ApiMessage[] {
  const first = new Map<string, number>();
  const out: ApiMessage[] = [];
  rules.forEach((rule, i) => {
    const id = deployed(rule);
    if (id === undefined) return;
    const at = first.get(id);
    if (at !== undefined) out.push(refusal(id, (name) => `rules ${at} and ${i} both execute ${name}`, `/rules/${i}/action_parameters/id`));
    else first.set(id, i);
  });
  return out;
}

/** The refusal of one rule written beside `others` (a single-rule POST or PATCH), at `/action_parameters/id`. */
export function deploymentClash(rule: DeployingRule, others: readonly (DeployingRule & { id: string })[]): ApiMessage[] {
  const id = deployed(rule);
  const clash = id === undefined ? undefined : others.find((o) => deployed(o) === id);
  return clash === undefined ? [] : [refusal(id!, (name) => `rule ${clash.id} executes ${name} already`, '/action_parameters/id')];
}
