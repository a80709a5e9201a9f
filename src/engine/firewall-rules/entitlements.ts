/**
 * The plan checks on firewall rules: the active-rule quota and the gated features (the `log`
 * action, filters using the `matches` operator). These are the seed's "quota exceeded" and
 * "feature unavailable to the zone" cases: in the simplified flow they let the inline filters be
 * created while the rules are not, so they are checked after every validity check.
 */
import { planGatedUses } from '../../api/index.js';
import { apiMessage } from '../api-errors.js';
import type { ZoneRequestContext } from '../context.js';
import { cheapestTierWith, type Feature } from '../limits.js';
import type { ApiMessage } from '../types.js';
import type { FirewallAction } from './constants.js';

/** The refusal for a feature the zone's plan lacks. */
export function featureUnavailable(ctx: ZoneRequestContext, feature: Feature, pointer: string): ApiMessage {
  const needs = cheapestTierWith(feature, ctx.planLimits);
  const what = feature === 'log' ? 'the log action' : 'the matches operator';
  const way = needs === undefined ? 'no plan has it in this engine\'s limits' : `it needs the ${needs} plan or higher`;
  return apiMessage('featureUnavailable', `${what} is not available to zone ${ctx.zone.name} on the ${ctx.zone.plan} plan: ${way}`, {
    pointer,
    meta: { feature, plan: ctx.zone.plan, ...(needs !== undefined ? { required_plan: needs } : {}) },
  });
}

/**
 * The refusals of the plan-gated fields (`PlanGatedFields`) a filter's expression uses that the
 * zone's plan lacks: 10201 as every feature unavailable to the zone, at the filter's expression,
 * with `meta` naming the field and the plan it needs. Unlike `matches` (a rule's feature, the
 * seed's partial creation), a field the plan lacks is not in the zone's fields at all, so the
 * filter itself is refused, wherever it is written (filters API, or inline in a rule: nothing created).
 */
export function filterFieldProblems(ctx: ZoneRequestContext, fields: Iterable<string>, pointer: string): ApiMessage[] {
  return planGatedUses(fields, ctx.zone.plan).map((g) => apiMessage('featureUnavailable',
    `the field ${g.field} (${g.what}) is not available to zone ${ctx.zone.name} on the ${ctx.zone.plan} plan: it needs the ${g.tier} plan or higher`,
    { pointer, meta: { feature: 'field', field: g.field, plan: ctx.zone.plan, required_plan: g.tier } }));
}

/** Feature refusals for one rule: its action and whether its filter uses `matches`. */
export function ruleFeatureProblems(ctx: ZoneRequestContext, action: FirewallAction, filterUsesMatches: boolean, pointer: string): ApiMessage[] {
  const out: ApiMessage[] = [];
  if (action === 'log' && !ctx.limits.log) out.push(featureUnavailable(ctx, 'log', `${pointer}/action`));
  if (filterUsesMatches && !ctx.limits.matches) out.push(featureUnavailable(ctx, 'matches', `${pointer}/filter`));
  return out;
}

/**
 * The quota refusal, if going from `before` to `after` active rules breaks the quota. A change
 * that does not raise the count is always allowed, so a zone already over its quota (limits
 * lowered by configuration) can still pause, delete and edit.
 */
export function quotaProblem(ctx: ZoneRequestContext, before: number, after: number): ApiMessage | undefined {
  const quota = ctx.limits.firewall_rules;
  if (after <= quota || after <= before) return undefined;
  return apiMessage(
    'quotaExceeded',
    `firewall rule quota exceeded: the ${ctx.zone.plan} plan allows ${quota} active firewall rules, and this request would make ${after} ` +
      `(${before} now); delete or pause rules, or create these paused`,
    { meta: { quota, active: before, requested: after - before, plan: ctx.zone.plan } },
  );
}
