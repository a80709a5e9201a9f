/**
 * The zone routes served by the engine itself (not by a zone object): `GET /zones` (list, with the
 * real API's `name`, `page`, `per_page`: default 20, 5..50), `GET /zones/{id}`, and the engine
 * extensions `POST /zones` `{name, plan_tier?, waf?}` and `DELETE /zones/{id}` (absent from
 * `serve --strict`). A scoped credential sees only its zones, and may create only a zone it names.
 */
import { ZoneListParams, ZonePageLimits, ZonePaths } from '../../api/index.js';
import { ApiError } from '../api-errors.js';
import { zoneToJson } from './json.js';
import { accountIdOf } from './accounts.js';
import { BodyReader, Problems, requireObject } from '../body-reader.js';
import type { EngineRoute, ZoneDirectory } from '../engine-route.js';
import { ok, page, parsePageRequest } from '../envelope.js';
import { allZones, inScope } from '../scope.js';
import { PlanTiers, type ApiRequest, type ApiResponse, type ZoneInfo } from '../types.js';

export type { EngineRoute } from '../engine-route.js';
export { ZonePageLimits };

/** Routes of the zones collection. */
export const zoneRoutes: EngineRoute[] = [
  { method: 'GET', pattern: ZonePaths.collection, handler: listZones },
  { method: 'POST', pattern: ZonePaths.collection, handler: createZone },
  { method: 'GET', pattern: ZonePaths.item, handler: getZone },
  { method: 'DELETE', pattern: ZonePaths.item, handler: deleteZone },
];

async function listZones(engine: ZoneDirectory, req: ApiRequest): Promise<ApiResponse> {
  const query = req.query ?? new URLSearchParams();
  const request = parsePageRequest(query, ZonePageLimits);
  const name = query.get(ZoneListParams.name)?.toLowerCase();
  const zones = (await engine.listZones()).filter((z) => inScope(req.auth, z) && (name === undefined || name === '' || z.name === name));
  const accounts = new Map((await engine.listAccounts()).map((a) => [a.id, a]));
  return page(zones.slice(request.offset, request.offset + request.perPage).map((z) => zoneToJson(z, accounts.get(accountIdOf(z)))), request, zones.length);
}

async function getZone(engine: ZoneDirectory, req: ApiRequest, params: Record<string, string>): Promise<ApiResponse> {
  const zone = await zoneInScope(engine, req, params.zone_id!);
  return ok(zoneToJson(zone, await engine.getAccount(accountIdOf(zone))));
}

async function deleteZone(engine: ZoneDirectory, req: ApiRequest, params: Record<string, string>): Promise<ApiResponse> {
  const zone = await zoneInScope(engine, req, params.zone_id!);
  await engine.deleteZone(zone.id);
  return ok({ id: zone.id });
}

async function createZone(engine: ZoneDirectory, req: ApiRequest): Promise<ApiResponse> {
  const problems = new Problems();
  const r = new BodyReader(requireObject(req.body, 'the zone to create, {"name": ..., "plan_tier": ...}'), '', problems);
  r.allowOnly(['name', 'plan_tier', 'waf', 'account', 'type', 'jump_start']);
  const name = r.string('name', { required: true, nonEmpty: true, maxLength: 253 });
  const plan = r.oneOf('plan_tier', PlanTiers);
  const waf = r.oneOf('waf', ['previous', 'new'] as const);
  // The real API's `account: {id}` (required there; optional here: the default account).
  let account: string | undefined;
  if (r.has('account')) {
    const a = new BodyReader(r.raw('account'), '/account', problems, 'an object {"id": …}');
    a.allowOnly(['id']);
    account = a.string('id', { required: true, nonEmpty: true, maxLength: 64 });
  }
  r.oneOf('type', ['full', 'partial', 'secondary'] as const);
  r.boolean('jump_start');
  problems.throwIfAny();
  if (!allZones(req.auth) && !inScope(req.auth, { id: '', name: name!.toLowerCase() })) {
    throw ApiError.of('forbidden', `Authentication error: these credentials may not create zone ${name}`);
  }
  const zone = await engine.createZone(name!, { ...(plan !== undefined ? { plan } : {}), ...(waf !== undefined ? { waf } : {}), ...(account !== undefined ? { account } : {}) });
  return ok(zoneToJson(zone, await engine.getAccount(accountIdOf(zone))));
}

/** The zone `id` when the caller may see it; 404 when unknown, 403 when out of scope. */
export async function zoneInScope(engine: ZoneDirectory, req: ApiRequest, id: string): Promise<ZoneInfo> {
  const zone = await engine.getZone(id);
  if (zone !== undefined && inScope(req.auth, zone)) return zone;
  if (!allZones(req.auth)) throw ApiError.of('forbidden', 'Authentication error');
  throw ApiError.of('zoneNotFound', `zone ${id} not found`);
}
