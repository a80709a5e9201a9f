/**
 * Writes of the `http_request_firewall_custom` entry point: the whole rule list (PUT of the entry
 * point or of the ruleset by id, and the rules of a POST that creates it) and the single-rule
 * operations (POST a rule with an optional `position`, PATCH one with a complete new definition
 * and/or a `position`, DELETE one). Each validates the whole body first (fields, expressions in the
 * custom phase, plan gates, the rule quota, `ref` uniqueness) and refuses it whole; ids are kept
 * for rules matched by `ref` or `id`; a move does not bump the rule's version, any change bumps the
 * ruleset's. Each runs inside the request's one storage transaction. The single-rule operations
 * serve the managed entry point too (`ManagedRulesSpec`, with its migration step).
 */
import { CustomPhase } from '../../api/index.js';
import { ApiError } from '../api-errors.js';
import { Problems } from '../body-reader.js';
import type { ZoneRequestContext } from '../context.js';
import { newId } from '../ids.js';
import { customQuotaProblem, customRuleGateProblems, type CustomGate } from './custom-entitlements.js';
import { addProblem, rulesetError } from './errors.js';
import { reconcileRules, sameContent, stored, type IncomingRule } from './identity.js';
import { readPosition, resolvePosition } from './position.js';
import type { CustomRuleInput, StoredRule, StoredRuleset } from './types.js';
import type { RulesPhaseSpec } from './rules-phase-spec.js';
import { readCustomRule } from './validate-custom.js';
import { expressionCheck, readRulesetBody } from './validate.js';
import { commitRuleset, resolveName } from './write.js';

const checkCustomExpression = expressionCheck(CustomPhase);

function gateOf(ctx: ZoneRequestContext): CustomGate {
  return { plan: ctx.zone.plan, limits: ctx.limits, planLimits: ctx.planLimits };
}

/** Custom rules as a rules phase (the default of every write below; `ratelimit-ops.ts` is the other). */
export const CustomRulesSpec: RulesPhaseSpec<CustomRuleInput> = {
  phase: CustomPhase,
  read: (item, pointer, problems, extra) => readCustomRule(item, pointer, problems, checkCustomExpression, extra),
  gates: (rule, pointer, ctx) => customRuleGateProblems(rule, pointer, gateOf(ctx)),
  quota: (count, ctx, pointer) => customQuotaProblem(count, gateOf(ctx), pointer),
};

/** Replaces every rule of the custom entry point (creating it when absent). */
export function putCustomRules<I extends IncomingRule>(ctx: ZoneRequestContext, body: unknown, existing: StoredRuleset | undefined, createName?: string, spec: RulesPhaseSpec<I> = CustomRulesSpec as unknown as RulesPhaseSpec<I>): StoredRuleset {
  const problems = new Problems();
  const input = readRulesetBody(body, problems, spec.phase, (item, pointer, p) => spec.read(item, pointer, p), checkCustomExpression);
  if (input !== undefined) {
    input.rules.forEach((rule, i) => problems.list.push(...spec.gates(rule, `/rules/${i}`, ctx)));
    const quota = spec.quota(input.rules.length, ctx, '/rules');
    if (quota !== undefined) problems.list.push(quota);
  }
  problems.throwIfAny();
  const name = createName ?? resolveName(input!.name, existing);
  const reconciled = reconcileRules(existing?.rules ?? [], input!.rules, ctx.nowMicros, newId);
  if (reconciled.errors.length > 0) throw new ApiError(400, reconciled.errors);
  const description = input!.description ?? existing?.description ?? '';
  return commitRuleset(ctx, spec.phase, existing, { name, description, rules: reconciled.rules, changed: reconciled.changed });
}

/** Reads a single-rule body (POST, or PATCH with a definition) with its gates and `ref` check. */
function readOneRule<I extends IncomingRule>(ctx: ZoneRequestContext, entry: StoredRuleset, ownId: string | undefined, problems: Problems, spec: RulesPhaseSpec<I>): I | undefined {
  const rule = spec.read(ctx.body, '', problems, ['position']);
  if (rule === undefined) return undefined;
  problems.list.push(...spec.gates(rule, '', ctx));
  if (spec.across !== undefined) problems.list.push(...spec.across(rule, entry.rules.filter((r) => r.id !== ownId)));
  if (rule.id !== undefined && rule.id !== ownId) {
    problems.add('/id', ownId === undefined
      ? 'id is assigned by the server: leave it out of a new rule'
      : `id ${rule.id} differs from the rule in the path (${ownId}); ids cannot change`);
  }
  const clash = rule.ref === undefined ? undefined : entry.rules.find((r) => r.ref === rule.ref && r.id !== ownId);
  if (clash !== undefined) addProblem(problems, 'duplicateRef', `ref ${JSON.stringify(rule.ref)} is already used by rule ${clash.id}; refs must be unique within a ruleset`, '/ref');
  return rule;
}

/** `POST .../rules`: adds one rule (at the end unless `position` says otherwise). */
export function addCustomRule(ctx: ZoneRequestContext, entry: StoredRuleset, spec: RulesPhaseSpec = CustomRulesSpec as RulesPhaseSpec): StoredRuleset {
  const problems = new Problems();
  const rule = readOneRule(ctx, entry, undefined, problems, spec);
  const position = readPosition(ctx.body, problems);
  const quota = spec.quota(entry.rules.length + 1, ctx);
  if (quota !== undefined) problems.list.push(quota);
  problems.throwIfAny();
  const at = insertionIndex(entry.rules, position, entry.rules.length + 1);
  const added = stored(rule!, undefined, ctx.nowMicros, newId);
  const rules = [...entry.rules];
  rules.splice(at, 0, added);
  return commitOne(ctx, spec, entry, rules, true);
}

/** `PATCH .../rules/{rule_id}`: a complete new definition and/or a move. */
export function patchCustomRule(ctx: ZoneRequestContext, entry: StoredRuleset, ruleId: string, spec: RulesPhaseSpec = CustomRulesSpec as RulesPhaseSpec): StoredRuleset {
  const current = findRule(entry, ruleId);
  const problems = new Problems();
  const onlyMove = isOnlyPosition(ctx.body);
  const rule = onlyMove ? undefined : readOneRule(ctx, entry, ruleId, problems, spec);
  const position = readPosition(ctx.body, problems);
  problems.throwIfAny();
  const next = rule === undefined ? current : stored({ ...rule, ref: rule.ref ?? current.ref }, current, ctx.nowMicros, newId);
  const others = entry.rules.filter((r) => r.id !== ruleId);
  const at = position === undefined ? entry.rules.indexOf(current) : insertionIndex(others, position, entry.rules.length);
  const rules = [...others];
  rules.splice(at, 0, next);
  const changed = !sameContent(current, next) || rules.some((r, i) => r.id !== entry.rules[i]!.id);
  return commitOne(ctx, spec, entry, rules, changed);
}

/** `DELETE .../rules/{rule_id}`. */
export function deleteCustomRule(ctx: ZoneRequestContext, entry: StoredRuleset, ruleId: string, spec: RulesPhaseSpec = CustomRulesSpec as RulesPhaseSpec): StoredRuleset {
  findRule(entry, ruleId);
  const rules = entry.rules.filter((r) => r.id !== ruleId);
  return commitOne(ctx, spec, entry, rules, true);
}

/** Saves a single-rule operation's rule list, inside the phase's own step when it has one. */
function commitOne(ctx: ZoneRequestContext, spec: RulesPhaseSpec, entry: StoredRuleset, rules: StoredRule[], changed: boolean): StoredRuleset {
  const step = spec.step?.(ctx, rules);
  const next = commitRuleset(ctx, spec.phase, entry, { name: entry.name, description: entry.description, rules, changed });
  step?.commit();
  return next;
}

function findRule(entry: StoredRuleset, ruleId: string): StoredRule {
  const rule = entry.rules.find((r) => r.id === ruleId);
  if (rule === undefined) throw rulesetError('ruleNotFound', `ruleset ${entry.id} has no rule ${JSON.stringify(ruleId)}`);
  return rule;
}

function isOnlyPosition(body: unknown): boolean {
  return typeof body === 'object' && body !== null && !Array.isArray(body) && Object.keys(body).length === 1 && 'position' in body;
}

function insertionIndex(others: readonly StoredRule[], position: ReturnType<typeof readPosition>, total: number): number {
  const at = resolvePosition(others.map((r) => r.id), position, total);
  if (typeof at === 'string') {
    const key = position === undefined ? '' : Object.keys(position)[0]!;
    throw rulesetError('badPosition', at, `/position/${key}`);
  }
  return at;
}
