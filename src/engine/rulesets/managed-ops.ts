/**
 * The write of the `http_request_firewall_managed` entry point (PUT of the entry point or of the
 * ruleset by id, POST that creates it). It runs: (1) `waf_migration` parsed; (2) the body validated
 * (shape, actions, expressions, managed ruleset and rule ids, one execute rule per managed ruleset)
 * and the plan's entitlements checked;
 * (3) the migration transition decided (state, plan, compatibility); (4) rules matched to existing
 * ones so kept rules keep their ids; (5) saved, with the ruleset `version` + 1 when anything
 * changed. Any refusal throws, so the request's transaction leaves the zone as it was.
 */
import { ManagedPhase, RulesetQueryParameters } from '../../api/index.js';
import { ApiError, apiMessage } from '../api-errors.js';
import { Problems } from '../body-reader.js';
import type { ZoneRequestContext } from '../context.js';
import { newId } from '../ids.js';
import { applyMigrationStep } from '../migration/apply.js';
import { EntrypointLimits } from './constants.js';
import { entitlementProblems, ruleEntitlementProblems } from './entitlements.js';
import { reconcileRules } from './identity.js';
import type { RulesPhaseSpec } from './rules-phase-spec.js';
import type { RuleInput, StoredRuleset } from './types.js';
import { expressionCheck, readEntrypointBody, readManagedRule } from './validate.js';
import { deploymentClash, duplicateDeployments } from './validate-deployments.js';
import { commitRuleset, resolveName } from './write.js';

const checkManagedExpression = expressionCheck(ManagedPhase);

/** Query parameters of a managed entry point write: the migration's (`phase_two` is accepted and ignored). */
export const ManagedWriteQuery = RulesetQueryParameters.managedEntrypointWrite;

/**
 * The managed entry point as a rules phase, for the single-rule routes (`custom-ops.ts`: POST with
 * `position`, PATCH, DELETE): one rule read and checked as a PUT reads it (action, expression,
 * `action_parameters` naming known managed rulesets and rules, 20201/20202), no second execute
 * rule of a managed ruleset the entry point deploys already (20014), the plan's
 * entitlement (20204), the rule limit of the entry point, and the migration step of a PUT without
 * `waf_migration` (a single-rule route takes no query parameters).
 */
export const ManagedRulesSpec: RulesPhaseSpec<RuleInput> = {
  phase: ManagedPhase,
  read: (item, pointer, problems, extra) => readManagedRule(item, pointer, problems, checkManagedExpression, extra),
  gates: (rule, pointer, ctx) => ruleEntitlementProblems(rule, pointer, ctx.zone.plan),
  across: (rule, others) => deploymentClash(rule, others),
  quota: (count, _ctx, pointer) => count <= EntrypointLimits.rules ? undefined
    : apiMessage('invalidField', `the ${ManagedPhase} entry point would hold ${count} rules; the limit is ${EntrypointLimits.rules}`, pointer === undefined ? {} : { pointer }),
  step: (ctx, rules) => applyMigrationStep(ctx, rules.some((r) => r.enabled)),
};

/** Replaces every rule of the managed entry point (creating it when absent), with the migration step. */
export function putManagedRules(ctx: ZoneRequestContext, body: unknown, existing: StoredRuleset | undefined, createName?: string): StoredRuleset {
  const problems = new Problems();
  const input = readEntrypointBody(body, problems, checkManagedExpression);
  if (input !== undefined) problems.list.push(...duplicateDeployments(input.rules), ...entitlementProblems(input, ctx.zone.plan));
  problems.throwIfAny();
  const name = createName ?? resolveName(input!.name, existing);
  const step = applyMigrationStep(ctx, input!.rules.some((r) => r.enabled));
  const reconciled = reconcileRules(existing?.rules ?? [], input!.rules, ctx.nowMicros, newId);
  if (reconciled.errors.length > 0) throw new ApiError(400, reconciled.errors);
  const description = input!.description ?? existing?.description ?? '';
  const entry = commitRuleset(ctx, ManagedPhase, existing, { name, description, rules: reconciled.rules, changed: reconciled.changed });
  step.commit();
  return entry;
}
