/**
 * The plan-gated fields (`PlanGatedFields` of the wire contract: attack scores Enterprise, geo
 * subdivisions and `is_in_european_union` Business, Bot Management and request body fields
 * Enterprise) in any expression of a rules phase: a custom rule's, a rate limiting rule's
 * expression and counting expression, a managed phase rule's (an exception's skip, an execute).
 * One refusal (20204) per field the zone's plan lacks, at the expression.
 */
import { planGatedUses, type PlanTier } from '../../api/index.js';
import { inspect, parse, type ParseOptions } from '../../expr/index.js';
import type { ApiMessage } from '../types.js';
import { rulesetMessage } from './errors.js';

/** The refusals of the plan-gated fields `fields` uses that `plan` lacks; `skip`: fields refused already for another reason. */
export function gatedFieldProblems(fields: Iterable<string>, plan: PlanTier, pointer: string, skip?: ReadonlySet<string>): ApiMessage[] {
  return planGatedUses(fields, plan).filter((g) => !skip?.has(g.field)).map((g) =>
    rulesetMessage('notEntitled', `the field ${g.field} needs the ${g.tier} plan or higher; this zone's plan is ${plan}`, pointer));
}

/** The fields of a valid expression of `phase` (one the rule's reading has checked already). */
export function fieldsOf(expression: string, phase: ParseOptions['phase']): Set<string> {
  return inspect(parse(expression, { phase })).fields;
}
