/**
 * URI-based WAF overrides (reference §5): list, create, get, update (PUT) and the delete-a-WAF-override
 * operation (`result: {id}`). Any override keeps the zone from migrating (seed 002), which is why the
 * delete operation matters: it is the way out the migration check names.
 */
import { ApiError } from '../api-errors.js';
import { Problems, requireObject } from '../body-reader.js';
import type { ZoneRequestContext, ZoneRoute } from '../context.js';
import { ok } from '../envelope.js';
import { newId } from '../ids.js';
import type { ApiResponse } from '../types.js';
import { PreviousWafErrors } from './constants.js';
import { requirePreviousWaf } from './guard.js';
import { legacyList } from './list-query.js';
import type { WafOverride } from './model.js';
import { deleteOverride, getOverride, listOverrides, saveOverride } from './store.js';
import { readOverride } from './validate-override.js';

const BASE = '/zones/:zone_id/firewall/waf/overrides';

/** Routes of the URI-based overrides API. */
export const overrideRoutes: ZoneRoute[] = [
  { method: 'GET', pattern: BASE, handler: list },
  { method: 'POST', pattern: BASE, handler: create },
  { method: 'GET', pattern: `${BASE}/:overrides_id`, handler: (ctx) => ok(mustGet(ctx)) },
  { method: 'PUT', pattern: `${BASE}/:overrides_id`, handler: update },
  { method: 'DELETE', pattern: `${BASE}/:overrides_id`, handler: remove },
];

function mustGet(ctx: ZoneRequestContext): WafOverride {
  requirePreviousWaf(ctx);
  const found = getOverride(ctx.sql, ctx.params.overrides_id!);
  if (found === undefined) {
    throw ApiError.from(PreviousWafErrors.overrideNotFound, `wafuriconfig.api.not_found: the zone has no URI-based WAF override ${ctx.params.overrides_id}`);
  }
  return found;
}

function list(ctx: ZoneRequestContext): ApiResponse {
  requirePreviousWaf(ctx);
  return legacyList(listOverrides(ctx.sql), ctx.query, { filters: {}, orders: {} });
}

function create(ctx: ZoneRequestContext): ApiResponse {
  requirePreviousWaf(ctx);
  const problems = new Problems();
  const fields = readOverride(requireObject(ctx.body, 'a URI-based WAF override'), problems);
  problems.throwIfAny();
  const override: WafOverride = { id: newId(), ...fields! };
  saveOverride(ctx.sql, override);
  return ok(override);
}

function update(ctx: ZoneRequestContext): ApiResponse {
  const existing = mustGet(ctx);
  const problems = new Problems();
  const fields = readOverride(requireObject(ctx.body, 'a URI-based WAF override'), problems, existing.id);
  problems.throwIfAny();
  const override: WafOverride = { id: existing.id, ...fields! };
  saveOverride(ctx.sql, override);
  return ok(override);
}

function remove(ctx: ZoneRequestContext): ApiResponse {
  const existing = mustGet(ctx);
  deleteOverride(ctx.sql, existing.id);
  return ok({ id: existing.id });
}
