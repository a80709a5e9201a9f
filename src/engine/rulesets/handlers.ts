/**
 * The Rulesets API of a zone for the `http_request_firewall_managed` phase: GET and PUT of the entry
 * point (the PUT also drives the WAF migration with `waf_migration`, see `migration/`), its versions,
 * and the list/get of rulesets (the managed rulesets of the catalog and the zone's entry point).
 *
 * A PUT runs: (1) `waf_migration` parsed; (2) the body validated (shape, actions, expressions,
 * managed ruleset and rule ids) and the plan's entitlements checked; (3) the migration transition
 * decided (state, plan, compatibility); (4) rules matched to existing ones so kept rules keep their
 * ids; (5) saved, with the ruleset `version` + 1 when anything changed. Any refusal throws, so the
 * request's transaction leaves the zone as it was.
 */
import { ExpressionError, parse } from '../../expr/index.js';
import { ApiError, apiMessage } from '../api-errors.js';
import { Problems } from '../body-reader.js';
import { ManagedRulesets, findManagedRuleset, managedRulesetView } from '../catalog/index.js';
import type { ZoneRequestContext, ZoneRoute } from '../context.js';
import { ok } from '../envelope.js';
import { newId } from '../ids.js';
import type { ApiResponse } from '../types.js';
import { applyMigrationStep } from '../migration/apply.js';
import { entitlementProblems } from './entitlements.js';
import { rulesetError } from './errors.js';
import { reconcileRules } from './identity.js';
import { getVersion, listVersions, loadEntrypoint, saveEntrypoint } from './store.js';
import { ManagedPhase, type Entrypoint, type EntrypointInput } from './types.js';
import { readEntrypointBody, type ExpressionCheck } from './validate.js';
import { entrypointView } from './views.js';

const ENTRYPOINT = '/zones/:zone_id/rulesets/phases/:phase/entrypoint';

/** Routes of the Rulesets API. */
export const rulesetRoutes: ZoneRoute[] = [
  { method: 'GET', pattern: ENTRYPOINT, handler: getEntrypoint },
  { method: 'PUT', pattern: ENTRYPOINT, handler: putEntrypoint },
  { method: 'GET', pattern: `${ENTRYPOINT}/versions`, handler: versions },
  { method: 'GET', pattern: `${ENTRYPOINT}/versions/:version`, handler: version },
  { method: 'GET', pattern: '/zones/:zone_id/rulesets', handler: listRulesets },
  { method: 'GET', pattern: '/zones/:zone_id/rulesets/:ruleset_id', handler: getRuleset },
];

/** Checks an expression with the fields and functions of the managed phase (`src/expr`). */
const checkManagedExpression: ExpressionCheck = (source, pointer) => {
  try {
    parse(source, { phase: ManagedPhase });
    return undefined;
  } catch (err) {
    if (!(err instanceof ExpressionError)) throw err;
    return apiMessage('invalidExpression', err.message, { pointer, meta: { line: err.line, column: err.column, offset: err.offset, reason: err.reason } });
  }
};

function requirePhase(ctx: ZoneRequestContext): void {
  const phase = ctx.params.phase!;
  if (phase !== ManagedPhase) {
    throw ApiError.of('invalidField',
      `phase ${JSON.stringify(phase)} is not served by zonewall's engine; it emulates the ${ManagedPhase} phase (WAF managed rules) only`, { pointer: '/phase' });
  }
}

function mustEntrypoint(ctx: ZoneRequestContext): Entrypoint {
  const entry = loadEntrypoint(ctx.sql);
  if (entry === undefined) throw rulesetError('entrypointNotFound', `could not find entrypoint ruleset in the ${ManagedPhase} phase`);
  return entry;
}

function getEntrypoint(ctx: ZoneRequestContext): ApiResponse {
  requirePhase(ctx);
  return ok(entrypointView(mustEntrypoint(ctx)));
}

function putEntrypoint(ctx: ZoneRequestContext): ApiResponse {
  requirePhase(ctx);
  const problems = new Problems();
  const input = readEntrypointBody(ctx.body, problems, checkManagedExpression);
  if (input !== undefined) problems.list.push(...entitlementProblems(input, ctx.zone.plan));
  problems.throwIfAny();
  const anyRuleEnabled = input!.rules.some((r) => r.enabled);
  const step = applyMigrationStep(ctx, anyRuleEnabled);
  const entry = store(ctx, input!);
  step.commit();
  return ok(entrypointView(entry));
}

function store(ctx: ZoneRequestContext, input: EntrypointInput): Entrypoint {
  const existing = loadEntrypoint(ctx.sql);
  const reconciled = reconcileRules(existing?.rules ?? [], input.rules, ctx.now, newId);
  if (reconciled.errors.length > 0) throw new ApiError(400, reconciled.errors);
  const name = input.name ?? existing?.name ?? 'default';
  const description = input.description ?? existing?.description ?? '';
  if (existing !== undefined && !reconciled.changed && name === existing.name && description === existing.description) return existing;
  const entry: Entrypoint = {
    id: existing?.id ?? newId(),
    name,
    description,
    version: existing === undefined ? '1' : String(Number(existing.version) + 1),
    last_updated: ctx.now,
    rules: reconciled.rules,
  };
  saveEntrypoint(ctx.sql, entry);
  return entry;
}

function versions(ctx: ZoneRequestContext): ApiResponse {
  requirePhase(ctx);
  mustEntrypoint(ctx);
  return ok(listVersions(ctx.sql).map((v) => entrypointView(v, false)));
}

function version(ctx: ZoneRequestContext): ApiResponse {
  requirePhase(ctx);
  const raw = ctx.params.version!;
  const found = /^\d+$/.test(raw) ? getVersion(ctx.sql, Number(raw)) : undefined;
  if (found === undefined) throw rulesetError('versionNotFound', `the ${ManagedPhase} entry point has no version ${JSON.stringify(raw)}`);
  return ok(entrypointView(found));
}

function listRulesets(ctx: ZoneRequestContext): ApiResponse {
  const out = ManagedRulesets.map((rs) => managedRulesetView(rs, false));
  const entry = loadEntrypoint(ctx.sql);
  if (entry !== undefined) out.unshift(entrypointView(entry, false));
  return ok(out);
}

function getRuleset(ctx: ZoneRequestContext): ApiResponse {
  const id = ctx.params.ruleset_id!;
  const entry = loadEntrypoint(ctx.sql);
  if (entry !== undefined && entry.id === id) return ok(entrypointView(entry));
  const ruleset = findManagedRuleset(id);
  if (ruleset === undefined || ruleset.id !== id) throw rulesetError('rulesetNotFound', `no ruleset ${JSON.stringify(id)}: GET /zones/{zone_id}/rulesets lists them`);
  return ok(managedRulesetView(ruleset, true));
}

