/**
 * Plan entitlements of the entry point: which managed rulesets a zone's plan may deploy. Free zones
 * may deploy only the Cloudflare Free Managed Ruleset; the Cloudflare Managed Ruleset and the OWASP
 * Core Ruleset need Pro or higher (reference §4, DOC table). A disabled deployment counts too: it is
 * still a deployment the plan must allow. Every rule of the phase, exceptions included, is also held
 * to the plan-gated fields (`field-entitlements.ts`).
 */
import { FreeRulesetId, findManagedRuleset } from '../catalog/index.js';
import { PlanTiers, type PlanTier } from '../types.js';
import type { ApiMessage } from '../types.js';
import { rulesetMessage } from './errors.js';
import { fieldsOf, gatedFieldProblems } from './field-entitlements.js';
import { ManagedPhase, isExecute, type EntrypointInput, type RuleInput } from './types.js';

/** Whether `plan` is at least `minimum`. */
export function planAtLeast(plan: PlanTier, minimum: PlanTier): boolean {
  return PlanTiers.indexOf(plan) >= PlanTiers.indexOf(minimum);
}

/** One refusal per `execute` rule whose ruleset the plan cannot deploy, and per plan-gated field a rule's expression uses. */
export function entitlementProblems(input: EntrypointInput, plan: PlanTier): ApiMessage[] {
  return input.rules.flatMap((rule, i) => ruleEntitlementProblems(rule, `/rules/${i}`, plan));
}

/**
 * The refusals of one rule at `pointer`: the plan-gated fields of its expression (an exception's skip
 * as an execute rule's), and, for an `execute` rule, a ruleset the plan cannot deploy.
 */
export function ruleEntitlementProblems(rule: RuleInput, pointer: string, plan: PlanTier): ApiMessage[] {
  const fields = gatedFieldProblems(fieldsOf(rule.expression, ManagedPhase), plan, `${pointer}/expression`);
  return [...fields, ...executeEntitlementProblems(rule, pointer, plan)];
}

function executeEntitlementProblems(rule: RuleInput, pointer: string, plan: PlanTier): ApiMessage[] {
  if (!isExecute(rule)) return [];
  const ruleset = findManagedRuleset(rule.action_parameters.id);
  if (ruleset === undefined || planAtLeast(plan, ruleset.minimum_plan)) return [];
  const free = plan === 'free' ? ` Free zones may deploy only the Cloudflare Free Managed Ruleset (${FreeRulesetId}).` : '';
  return [rulesetMessage('notEntitled', `${ruleset.name} needs a ${ruleset.minimum_plan} plan or higher; this zone's plan is ${plan}.${free}`, `${pointer}/action_parameters/id`)];
}
