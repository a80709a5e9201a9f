/**
 * The Rulesets API of a zone, for the two phases the engine serves (`http_request_firewall_managed`,
 * `http_request_firewall_custom`): the entry point by phase (GET, PUT, versions), rulesets by id
 * (list, create, GET, PUT, DELETE, versions, DELETE of a version but the latest), and single-rule operations on the custom entry point
 * (`rule-handlers.ts`). The writes themselves are `managed-ops.ts` (with the WAF migration step) and
 * `custom-ops.ts`. Every route refuses unknown query parameters (10017), so nothing is ever saved
 * under a parameter the engine does not honour. `?dry_run=true` never reaches a handler: the
 * dispatcher takes it and the zone object rolls the write back (`../dry-run.ts`).
 *
 * A phase the engine does not serve behaves as a phase without an entry point on reads (404 10003,
 * versions `[]`, as the real API answers for a zone that has none) and is refused on writes (20213).
 */
import {
  CustomPhase,
  ManagedPhase,
  RatelimitPhase,
  RulesetRoutes as R,
  type ServedPhase,
} from '../../api/index.js';
import { ManagedRulesets, findManagedRuleset, managedRulesetView, type ManagedRuleset } from '../catalog/index.js';
import type { ZoneRequestContext, ZoneRoute } from '../context.js';
import { ok } from '../envelope.js';
import type { ApiResponse } from '../types.js';
import { createRuleset } from './create.js';
import { planAtLeast } from './entitlements.js';
import { rulesetError } from './errors.js';
import { RulesetListQuery, rulesetListPage } from './list-page.js';
import { entrypointById, entrypointNotFound, isServed, phaseNotServed, putRules } from './phases.js';
import { ruleRoutes } from './rule-handlers.js';
import { deleteRuleset, deleteVersion, getVersion, listVersions, loadRuleset } from './store.js';
import type { StoredRuleset } from './types.js';
import { rulesetView } from './views.js';
import { allowQuery } from './write.js';

/** Routes of the Rulesets API. */
export const rulesetRoutes: ZoneRoute[] = [
  { method: 'GET', pattern: R.entrypoint, handler: getEntrypoint },
  { method: 'PUT', pattern: R.entrypoint, handler: putEntrypoint },
  { method: 'GET', pattern: R.entrypointVersions, handler: entrypointVersions },
  { method: 'GET', pattern: R.entrypointVersion, handler: entrypointVersion },
  { method: 'GET', pattern: R.rulesets, handler: listRulesets },
  { method: 'POST', pattern: R.rulesets, handler: createRuleset },
  { method: 'GET', pattern: R.ruleset, handler: getRuleset },
  { method: 'PUT', pattern: R.ruleset, handler: putRuleset },
  { method: 'DELETE', pattern: R.ruleset, handler: removeRuleset },
  { method: 'GET', pattern: R.rulesetVersions, handler: rulesetVersions },
  { method: 'GET', pattern: R.rulesetVersion, handler: rulesetVersion },
  { method: 'DELETE', pattern: R.rulesetVersion, handler: removeVersion },
  ...ruleRoutes,
];

function getEntrypoint(ctx: ZoneRequestContext): ApiResponse {
  allowQuery(ctx);
  const phase = ctx.params.phase!;
  const entry = isServed(phase) ? loadRuleset(ctx.sql, phase) : undefined;
  if (!isServed(phase) || entry === undefined) throw entrypointNotFound(phase);
  return ok(rulesetView(entry, phase));
}

function putEntrypoint(ctx: ZoneRequestContext): ApiResponse {
  const phase = ctx.params.phase!;
  if (!isServed(phase)) {
    allowQuery(ctx);
    throw phaseNotServed(phase);
  }
  return ok(rulesetView(putRules(ctx, phase, loadRuleset(ctx.sql, phase)), phase));
}

function entrypointVersions(ctx: ZoneRequestContext): ApiResponse {
  allowQuery(ctx);
  const phase = ctx.params.phase!;
  return ok(isServed(phase) ? listVersions(ctx.sql, phase).map((v) => rulesetView(v, phase, false)) : []);
}

function entrypointVersion(ctx: ZoneRequestContext): ApiResponse {
  allowQuery(ctx);
  const phase = ctx.params.phase!;
  if (!isServed(phase) || loadRuleset(ctx.sql, phase) === undefined) throw entrypointNotFound(phase);
  return ok(rulesetView(versionOf(ctx, phase, ctx.params.version!), phase));
}

function versionOf(ctx: ZoneRequestContext, phase: ServedPhase, raw: string): StoredRuleset {
  const found = /^\d+$/.test(raw) ? getVersion(ctx.sql, Number(raw), phase) : undefined;
  if (found === undefined) throw rulesetError('versionNotFound', `the ${phase} entry point has no version ${JSON.stringify(raw)}`);
  return found;
}

function listRulesets(ctx: ZoneRequestContext): ApiResponse {
  allowQuery(ctx, RulesetListQuery);
  const out = ManagedRulesets.filter((rs) => entitled(ctx, rs)).map((rs) => managedRulesetView(rs, false));
  for (const phase of [ManagedPhase, CustomPhase, RatelimitPhase] as const) {
    const entry = loadRuleset(ctx.sql, phase);
    if (entry !== undefined) out.unshift(rulesetView(entry, phase, false));
  }
  return { status: 200, body: rulesetListPage(out, ctx.query) };
}

/** The entry point named by the path's `ruleset_id`, or the refusal (managed catalog rulesets are read-only). */
function mustEntrypointById(ctx: ZoneRequestContext): { phase: ServedPhase; entry: StoredRuleset } {
  const id = ctx.params.ruleset_id!;
  const found = entrypointById(ctx, id);
  if (found !== undefined) return found;
  const managed = findManagedRuleset(id);
  if (managed !== undefined && managed.id === id && entitled(ctx, managed)) {
    throw rulesetError('immutableField', `${managed.name} is a managed ruleset and cannot be changed; deploy it with overrides in the ${ManagedPhase} entry point`);
  }
  throw rulesetNotFound(id);
}

function rulesetNotFound(id: string): Error {
  return rulesetError('rulesetNotFound', `no ruleset ${JSON.stringify(id)}: GET /zones/{zone_id}/rulesets lists them`);
}

function getRuleset(ctx: ZoneRequestContext): ApiResponse {
  allowQuery(ctx);
  const id = ctx.params.ruleset_id!;
  const found = entrypointById(ctx, id);
  if (found !== undefined) return ok(rulesetView(found.entry, found.phase));
  return ok(managedRulesetView(mustManagedRuleset(ctx, id), true));
}

function putRuleset(ctx: ZoneRequestContext): ApiResponse {
  const { phase, entry } = mustEntrypointById(ctx);
  return ok(rulesetView(putRules(ctx, phase, entry), phase));
}

function removeRuleset(ctx: ZoneRequestContext): ApiResponse {
  allowQuery(ctx);
  const { phase } = mustEntrypointById(ctx);
  // The managed entry point is tied to the WAF migration state: emptied by a PUT, never deleted.
  if (phase === ManagedPhase) throw rulesetError('phaseNotServed', `DELETE of the ${ManagedPhase} entry point is not served (it carries the WAF migration state); PUT it with "rules": [] instead`);
  deleteRuleset(ctx.sql, phase);
  return { status: 204, body: { result: null, success: true, errors: [], messages: [] } };
}

function rulesetVersions(ctx: ZoneRequestContext): ApiResponse {
  allowQuery(ctx);
  const found = entrypointById(ctx, ctx.params.ruleset_id!);
  if (found === undefined) return ok([managedRulesetView(mustManagedRuleset(ctx, ctx.params.ruleset_id!), false)]);
  return ok(listVersions(ctx.sql, found.phase).map((v) => rulesetView(v, found.phase, false)));
}

function rulesetVersion(ctx: ZoneRequestContext): ApiResponse {
  allowQuery(ctx);
  const found = entrypointById(ctx, ctx.params.ruleset_id!);
  if (found === undefined) {
    const managed = mustManagedRuleset(ctx, ctx.params.ruleset_id!);
    if (ctx.params.version !== managed.version) {
      throw rulesetError('versionNotFound', `${managed.name} has no version ${JSON.stringify(ctx.params.version)} in zonewall's catalog, which holds its version ${managed.version} only`);
    }
    return ok(managedRulesetView(managed, true));
  }
  return ok(rulesetView(versionOf(ctx, found.phase, ctx.params.version!), found.phase));
}

/**
 * A managed ruleset of the catalog by its exact id that the zone's plan may deploy, or the 404 (the
 * service answers 404 for a ruleset the zone is not entitled to). Decision: the catalog holds one
 * version of each managed ruleset, its current one, so its versions list is that version alone and
 * any other number is 20207.
 */
function mustManagedRuleset(ctx: ZoneRequestContext, id: string): ManagedRuleset {
  const ruleset = findManagedRuleset(id);
  if (ruleset === undefined || ruleset.id !== id || !entitled(ctx, ruleset)) throw rulesetNotFound(id);
  return ruleset;
}

/** Whether the zone's plan may deploy `ruleset` (a Free zone: the Free Managed Ruleset only). */
function entitled(ctx: ZoneRequestContext, ruleset: ManagedRuleset): boolean {
  return planAtLeast(ctx.zone.plan, ruleset.minimum_plan);
}

/**
 * `DELETE …/rulesets/{id}/versions/{n}`: 204; the version is gone from the list and GET, and its
 * number is never reused. The latest version is the ruleset as served: refused (20218), as the
 * documentation describes deleting an older version and DELETE of the ruleset removes them all.
 */
function removeVersion(ctx: ZoneRequestContext): ApiResponse {
  allowQuery(ctx);
  const { phase, entry } = mustEntrypointById(ctx);
  const version = versionOf(ctx, phase, ctx.params.version!);
  if (version.version === entry.version) {
    throw rulesetError('latestVersion', `version ${entry.version} is the latest version of the ${phase} entry point and cannot be deleted; DELETE /zones/{zone_id}/rulesets/${entry.id} deletes the ruleset with all its versions`);
  }
  deleteVersion(ctx.sql, phase, Number(version.version));
  return { status: 204, body: { result: null, success: true, errors: [], messages: [] } };
}
