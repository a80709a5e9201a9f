/**
 * The Page Rules API (`/zones/{zone_id}/pagerules`), the subset seed 002 names: list (query
 * `status`, `order`, `direction`, `match`; not paginated, like the real API), get, create (POST),
 * replace (PUT: the rule becomes exactly the body, defaults included), edit (PATCH: the fields
 * given) and delete (`result: {id}`). Each write is one storage transaction (a refusal leaves the
 * zone as it was). Refusals: 1004 per validation reason (with the field's pointer), 1004 for a
 * second rule on the same URL pattern (real `distinctTargetUrl`), 1007 over the plan's quota,
 * 1002 for an unknown id.
 */
import { ApiError } from '../api-errors.js';
import { Problems } from '../body-reader.js';
import type { ZoneRequestContext, ZoneRoute } from '../context.js';
import { ok } from '../envelope.js';
import { newId } from '../ids.js';
import type { ApiResponse } from '../types.js';
import {
  PageRuleErrors, PageRuleLimits, PageRuleListQuery, PageRuleRoutes, throwValidation,
  type PageRule, type PageRuleInput,
} from './constants.js';
import { patternOf } from './model.js';
import { countPageRules, deleteStoredPageRule, getPageRule, listPageRules, savePageRule } from './store.js';
import { readPageRule } from './validate.js';

/** Routes of the Page Rules API. */
export const pageRuleRoutes: ZoneRoute[] = [
  { method: 'GET', pattern: PageRuleRoutes.pageRules, handler: list },
  { method: 'POST', pattern: PageRuleRoutes.pageRules, handler: create },
  { method: 'GET', pattern: PageRuleRoutes.pageRule, handler: (ctx) => ok(mustGet(ctx)) },
  { method: 'PUT', pattern: PageRuleRoutes.pageRule, handler: (ctx) => write(ctx, mustGet(ctx), false) },
  { method: 'PATCH', pattern: PageRuleRoutes.pageRule, handler: (ctx) => write(ctx, mustGet(ctx), true) },
  { method: 'DELETE', pattern: PageRuleRoutes.pageRule, handler: remove },
];

function mustGet(ctx: ZoneRequestContext): PageRule {
  const found = getPageRule(ctx.sql, ctx.params.pagerule_id!);
  if (found === undefined) throw ApiError.from(PageRuleErrors.notFound, `Invalid Page Rule identifier: zone ${ctx.zone.name} has no Page Rule ${JSON.stringify(ctx.params.pagerule_id)}`);
  return found;
}

function queryValue<T extends string>(ctx: ZoneRequestContext, name: keyof typeof PageRuleListQuery, fallback: T): T {
  const raw = ctx.query.get(name);
  if (raw === null || raw === '') return fallback;
  const allowed = PageRuleListQuery[name] as readonly string[];
  if (!allowed.includes(raw)) throw ApiError.of('invalidQuery', `query parameter ${name} must be one of ${allowed.join(', ')}, got ${JSON.stringify(raw)}`, { pointer: `?${name}` });
  return raw as T;
}

function list(ctx: ZoneRequestContext): ApiResponse {
  const status = queryValue<string>(ctx, 'status', '');
  const order = queryValue<string>(ctx, 'order', 'priority');
  const sign = queryValue<string>(ctx, 'direction', 'desc') === 'desc' ? -1 : 1;
  queryValue(ctx, 'match', 'all'); // one filter only, so `all` and `any` agree
  const rules = listPageRules(ctx.sql).filter((r) => status === '' || r.status === status);
  const key = (r: PageRule): number => (order === 'status' ? (r.status === 'active' ? 0 : 1) : r.priority);
  // Stable sort: equal keys keep creation order.
  return ok(rules.sort((a, b) => sign * (key(a) - key(b)) || (order === 'status' ? b.priority - a.priority : 0)));
}

function create(ctx: ZoneRequestContext): ApiResponse {
  const input = readInput(ctx, false);
  const limit = PageRuleLimits.perPlan[ctx.zone.plan];
  const count = countPageRules(ctx.sql);
  if (count >= limit) {
    throw ApiError.from(PageRuleErrors.quotaExceeded, `zone ${ctx.zone.name} has ${count} Page Rules, the most its ${ctx.zone.plan} plan allows (${limit}): delete one first`);
  }
  const rule: PageRule = { id: newId(), ...complete(input), created_on: ctx.now, modified_on: ctx.now };
  refuseDuplicate(ctx, rule);
  savePageRule(ctx.sql, rule);
  return ok(rule);
}

/** PUT (`patch` false: the body is the whole rule) or PATCH (the fields given). */
function write(ctx: ZoneRequestContext, existing: PageRule, patch: boolean): ApiResponse {
  const input = readInput(ctx, patch);
  const fields = patch ? { ...existing, ...input } : complete(input);
  const rule: PageRule = { ...fields, id: existing.id, created_on: existing.created_on, modified_on: ctx.now };
  refuseDuplicate(ctx, rule);
  savePageRule(ctx.sql, rule);
  return ok(rule);
}

function remove(ctx: ZoneRequestContext): ApiResponse {
  const existing = mustGet(ctx);
  deleteStoredPageRule(ctx.sql, existing.id);
  return ok({ id: existing.id });
}

function readInput(ctx: ZoneRequestContext, patch: boolean): Partial<PageRuleInput> {
  const problems = new Problems();
  const input = readPageRule(ctx.body, ctx.zone.name, problems, patch);
  throwValidation(problems);
  return input!;
}

/** A full body with the real defaults: priority 1, status disabled. */
function complete(input: Partial<PageRuleInput>): Required<PageRuleInput> {
  return { targets: input.targets!, actions: input.actions!, priority: input.priority ?? 1, status: input.status ?? 'disabled' };
}

function refuseDuplicate(ctx: ZoneRequestContext, rule: PageRule): void {
  const pattern = patternOf(rule).toLowerCase();
  const other = listPageRules(ctx.sql).find((r) => r.id !== rule.id && patternOf(r).toLowerCase() === pattern);
  if (other === undefined) return;
  const problems = new Problems();
  problems.add('/targets/0/constraint/value', `distinctTargetUrl: zone ${ctx.zone.name} already has Page Rule ${other.id} for ${patternOf(other)}; edit that rule instead`);
  throwValidation(problems);
}
