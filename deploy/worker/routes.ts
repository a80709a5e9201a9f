/**
 * The Worker's own routes, served by the engine's front like its zone routes (same auth, envelope,
 * zone scopes):
 *
 * | route | what |
 * |---|---|
 * | `GET /zones/{id}/pitr/bookmark` | `{bookmark}`: `ctx.storage.getCurrentBookmark()` of the zone |
 * | `POST /zones/{id}/pitr/restore` `{bookmark}` or `{at: RFC 3339}` | restore the zone (`getBookmarkForTime`, `onNextSessionRestoreBookmark`) |
 * | `POST /zonewall/import` `{zone, dump}` or `{account, dump}` | only with `ZONEWALL_IMPORTS`: adopt a zone, or an account with its lists, of a built-in state directory |
 *
 * workerd run locally (Miniflare) has no point-in-time recovery: restore answers 501 saying so;
 * a deployed Worker makes the same storage calls and restores.
 */
import {
  ApiError, BodyReader, Problems, ok, requireObject, zoneInScope,
  type AccountInfo, type ApiResponse, type EngineRoute, type RegistryDirectory, type ZoneDump, type ZoneInfo,
} from '../../src/engine/workerd.js';
import type { Env } from './env.js';

/** PITR is unavailable on this runtime (local workerd). */
export const PitrUnavailable = 10501;

/** The Worker's routes for `V4Dispatcher`'s `extraRoutes`. */
export function workerRoutes(env: Env, directory: RegistryDirectory): EngineRoute[] {
  const zone = (id: string) => env.ZONES.get(env.ZONES.idFromName(id));
  const account = (id: string) => env.ACCOUNTS.get(env.ACCOUNTS.idFromName(id));
  const routes: EngineRoute[] = [
    {
      method: 'GET', pattern: '/zones/:zone_id/pitr/bookmark',
      handler: async (d, req, params) => ok({ bookmark: await zone((await zoneInScope(d, req, params.zone_id!)).id).bookmark() }),
    },
    {
      method: 'POST', pattern: '/zones/:zone_id/pitr/restore',
      handler: async (d, req, params) => restore(zone((await zoneInScope(d, req, params.zone_id!)).id), req.body),
    },
  ];
  if (env.ZONEWALL_IMPORTS === 'true') {
    routes.push({ method: 'POST', pattern: '/zonewall/import', handler: async (_d, req) => {
      const allZones = req.auth === undefined || req.auth.zones === '*';
      const body = requireObject(req.body, '{"zone": ..., "dump": [...]} or {"account": ..., "dump": [...]}');
      return 'account' in body ? importAccount(directory, account, allZones, body) : importZone(directory, zone, allZones, body);
    } });
  }
  return routes;
}

async function restore(stub: DurableObjectStub<{ restore(target: { bookmark: string } | { time: number }): Promise<void>; bookmark(): Promise<string> }>, body: unknown): Promise<ApiResponse> {
  const problems = new Problems();
  const r = new BodyReader(requireObject(body, '{"bookmark": ...} or {"at": "<RFC 3339 time>"}'), '', problems);
  r.allowOnly(['bookmark', 'at']);
  const bookmark = r.string('bookmark', {});
  const at = r.string('at', {});
  problems.throwIfAny();
  const time = at === undefined ? Number.NaN : Date.parse(at);
  if ((bookmark === undefined) === (at === undefined) || (at !== undefined && Number.isNaN(time))) {
    throw ApiError.of('invalidField', 'give either "bookmark" or "at" (an RFC 3339 time)', { pointer: '' });
  }
  try {
    await stub.restore(bookmark !== undefined ? { bookmark } : { time });
  } catch (err) {
    if (/point-in-time recovery/i.test(err instanceof Error ? err.message : String(err))) {
      throw new ApiError(501, [{ code: PitrUnavailable, message: 'point-in-time recovery is not available here: workerd run locally (Miniflare) does not implement it; a deployed Worker does' }]);
    }
    // Otherwise the object reset itself to apply the restore, as expected; the next call restarts it.
  }
  return ok({ bookmark: await stub.bookmark() });
}

async function importZone(
  directory: RegistryDirectory, zone: (id: string) => DurableObjectStub<{ load(dump: ZoneDump): void }>, allZones: boolean, body: unknown,
): Promise<ApiResponse> {
  if (!allZones) throw ApiError.of('forbidden', 'Authentication error: importing zones needs a credential for every zone');
  const { zone: info, dump } = requireObject(body, '{"zone": ..., "dump": [...]}') as { zone: ZoneInfo; dump: ZoneDump };
  // A zone of that id, or of that name, is already here: the Worker's copy wins.
  if ((await directory.zoneById(info.id)) !== undefined || (await directory.getZone(info.name)) !== undefined) return ok({ id: info.id, imported: false });
  await directory.adopt(info, {});
  await zone(info.id).load(dump);
  return ok({ id: info.id, imported: true });
}

/**
 * Adopts an account of a built-in state directory with its lists: the account is created with its
 * id, name and plan when the Worker lacks it, and its rows loaded when its object holds no list yet
 * (an account whose lists the Worker already has keeps the Worker's copy, as zones do).
 */
async function importAccount(
  directory: RegistryDirectory, account: (id: string) => DurableObjectStub<{ load(dump: ZoneDump): void; catalog(withItems: boolean): unknown[] }>, allZones: boolean, body: unknown,
): Promise<ApiResponse> {
  if (!allZones) throw ApiError.of('forbidden', 'Authentication error: importing accounts needs a credential for every zone');
  const { account: info, dump } = body as { account: AccountInfo; dump: ZoneDump };
  if ((await directory.accountById(info.id)) === undefined) await directory.createAccount(info.name, { plan: info.plan, id: info.id, createdOn: info.created_on });
  const stub = account(info.id);
  if ((await stub.catalog(false)).length > 0) return ok({ id: info.id, imported: false });
  await stub.load(dump);
  return ok({ id: info.id, imported: true });
}
