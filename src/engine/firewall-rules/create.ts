/**
 * POST /zones/{zone_id}/firewall/rules: both flows of seed 000 in one operation.
 *
 * - Recommended flow: each rule's `filter` is `{ id }` of an existing filter (many rules may share
 *   one).
 * - Simplified flow: `filter` is an inline filter object, created as if through the filters API
 *   (same checks, duplicates refused) and locked, then the rule.
 *
 * Order of checks, which is what makes the seed's atomicity hold:
 * 1. Validity of every rule and inline filter (fields, expressions, references, duplicates): any
 *    failure creates nothing.
 * 2. The plan (active-rule quota, the `log` action, the `matches` operator): a failure creates the
 *    inline filters but no rule. The response is `success: false` with the error, and `messages`
 *    name each created filter (code 10203, `meta.id`, `meta.index`) so the client can finish with
 *    the recommended flow once the quota or plan allows. Without inline filters nothing is created.
 * 3. Otherwise every filter and rule is created; `result` holds the rules in request order.
 */
import { ApiError, apiMessage } from '../api-errors.js';
import { Problems, requireArray } from '../body-reader.js';
import type { ZoneRequestContext } from '../context.js';
import { errorResponse, ok } from '../envelope.js';
import { gatedFilterFieldProblems, toRecord } from '../filters/handlers.js';
import { getFilter, insertFilter, type FilterRecord } from '../filters/store.js';
import { duplicateProblems } from '../filters/validate.js';
import { newId } from '../ids.js';
import type { ApiMessage, ApiResponse } from '../types.js';
import { quotaProblem, ruleFeatureProblems } from './entitlements.js';
import { countActiveRules, insertRule, ruleToJson, type RuleRecord } from './store.js';
import { readRuleCreate, type RuleCreateInput } from './validate.js';

/** The create handler of the firewall rules API. */
export function createRules(ctx: ZoneRequestContext): ApiResponse {
  const items = requireArray(ctx.body, 'firewall rule objects');
  const problems = new Problems();
  const inputs = items.map((item, i) => readRuleCreate(item, `/${i}`, problems));
  problems.throwIfAny();
  const rules = inputs as RuleCreateInput[];
  const filters = resolveFilters(ctx, rules);

  const planProblems = rules.flatMap((r, i) => ruleFeatureProblems(ctx, r.action, filters[i]!.usesMatches, r.pointer));
  const before = countActiveRules(ctx.sql);
  const quota = quotaProblem(ctx, before, before + rules.filter((r) => !r.paused).length);
  if (quota !== undefined) planProblems.push(quota);

  const inline = rules.flatMap((r, i) => (r.filter.kind === 'inline' ? [{ index: i, filter: filters[i]! }] : []));
  for (const { filter } of inline) insertFilter(ctx.sql, filter, ctx.now);
  if (planProblems.length > 0) {
    if (inline.length === 0) throw new ApiError(400, planProblems);
    // The seed's partial creation: the filters stay (the transaction commits), the rules do not.
    const created = inline.map(({ index, filter }) => apiMessage('inlineFilterCreated',
      `filter ${filter.id} (of the rule at index ${index}) was created, but its firewall rule was not; ` +
        `once the plan allows it, create the rule with "filter": {"id": "${filter.id}"}`,
      { meta: { id: filter.id, index } }));
    return errorResponse(new ApiError(400, planProblems), { messages: created });
  }

  const result = rules.map((r, i) => {
    const record: RuleRecord = {
      id: newId(), filterId: filters[i]!.id, action: r.action, priority: r.priority, paused: r.paused,
      description: r.description, ref: r.ref, products: r.products, createdOn: ctx.now, modifiedOn: ctx.now,
    };
    insertRule(ctx.sql, record.id, record, ctx.now);
    return ruleToJson({ rule: record, filter: filters[i] });
  });
  return ok(result);
}

/**
 * The filter of each rule: the referenced one (which must exist) or the inline one, checked but
 * not yet written. Refuses the request when a reference is unknown or an inline filter duplicates
 * an existing filter (10202 wrapping the filters API's 10102, with the existing filter's id).
 */
function resolveFilters(ctx: ZoneRequestContext, rules: RuleCreateInput[]): FilterRecord[] {
  const errors: ApiMessage[] = [];
  const out = rules.map((r, i) => {
    if (r.filter.kind === 'inline') return toRecord(newId(), r.filter.input, true);
    const found = getFilter(ctx.sql, r.filter.id);
    if (found === undefined) {
      errors.push(apiMessage('unknownFilterReference',
        `rule at index ${i} references filter ${r.filter.id}, which does not exist in zone ${ctx.zone.name}; create it through the filters API first`,
        { pointer: `${r.pointer}/filter/id` }));
    }
    return found as FilterRecord;
  });
  const inline = rules.flatMap((r) => (r.filter.kind === 'inline' ? [r.filter.input] : []));
  for (const dup of duplicateProblems(ctx.sql, inline)) {
    const index = Number(/^\/(\d+)/.exec(dup.source?.pointer ?? '')?.[1] ?? 0);
    errors.push(apiMessage('inlineFilterRefused', `filter at index ${index}: ${dup.message}`, {
      pointer: dup.source?.pointer ?? `/${index}/filter/expression`,
      ...(dup.meta !== undefined ? { meta: dup.meta } : {}),
      chain: [dup],
    }));
  }
  // A plan-gated field refuses the inline filter as the filters API refuses it (10202 wrapping 10201).
  for (const refused of gatedFilterFieldProblems(ctx, inline)) {
    const index = Number(/^\/(\d+)/.exec(refused.source?.pointer ?? '')?.[1] ?? 0);
    errors.push(apiMessage('inlineFilterRefused', `filter at index ${index}: ${refused.message}`, {
      pointer: refused.source?.pointer ?? `/${index}/filter/expression`, chain: [refused],
    }));
  }
  if (errors.length > 0) throw new ApiError(400, errors);
  return out;
}
