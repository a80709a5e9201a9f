/**
 * The Worker: zonewall's engine on workerd. It serves the same v4 API as `zonewall serve`
 * (`/client/v4`, the same routes, envelope and credentials) with the engine's own front
 * (`V4Dispatcher`) and HTTP layer (`handleFetch`); each zone is one SQLite-backed Durable Object
 * running the engine's zone object (`ZoneObject`), and a registry object lists the zones
 * (`ZoneRegistry`). Deployed with `npx wrangler deploy` (`wrangler.jsonc`), or run locally by
 * `zonewall serve --runtime workerd` through Miniflare. Bundled by `scripts/build-worker.mjs`.
 */
import { CredentialStore, RegistryDirectory, V4Dispatcher, failureResponse, fromWire, handleFetch, resources, type FetchSettings, type ZoneCall } from '../../src/engine/workerd.js';
import { FrontCache } from './front-cache.js';
import type { Env } from './env.js';
import { credentialsOf, logError, maxBodyBytesOf, planLimitsOf } from './settings.js';
import { workerRoutes } from './routes.js';

export { ZoneObject } from './zone-object.js';
export { ZoneRegistry } from './registry.js';
export { AccountObject } from './account-object.js';

/** The settings of this isolate, built at its first request (the bindings do not change). */
let settings: FetchSettings | undefined;

function settingsOf(env: Env): FetchSettings {
  // The zone objects read the limits; read here too, bad ones refuse every request, not only a zone's.
  planLimitsOf(env);
  // Stubs belong to the request that made them: take new ones for every call.
  const zone = (id: string) => env.ZONES.get(env.ZONES.idFromName(id));
  const registry = () => env.REGISTRY.get(env.REGISTRY.idFromName('zones'));
  const account = (id: string) => env.ACCOUNTS.get(env.ACCOUNTS.idFromName(id));
  const directory = RegistryDirectory.lazy({
    list: () => registry().list(),
    add: (z) => registry().add(z),
    remove: (id) => registry().remove(id),
    accounts: () => registry().accounts(),
    addAccount: (a) => registry().addAccount(a),
  }, zone);
  // Repeat reads of list pages from the front, where this front is the only one (front-cache.ts).
  const cache = env.ZONEWALL_SOLE_FRONT === 'true' ? new FrontCache() : undefined;
  const ask = (call: ZoneCall) => zone(call.zone.id).handle(call);
  const front = new V4Dispatcher({
    resources, strict: env.ZONEWALL_STRICT === 'true', directory, logError,
    zoneById: (id) => directory.zoneById(id),
    callZone: async (call) => fromWire(await (cache !== undefined && call.route.startsWith('GET ') ? cache.read(call, () => ask(call)) : ask(call))),
    extraRoutes: workerRoutes(env, directory),
    accounts: {
      accountById: (id) => directory.accountById(id),
      callAccount: (call) => account(call.account.id).handle(call),
      catalog: (id, withItems) => account(id).catalog(withItems),
      zonesOf: (id) => directory.zonesOf(id),
      zoneReferences: (z) => zone(z.id).listReferences(z),
    },
  });
  return {
    respond: (request) => (cache === undefined || request.method.toUpperCase() === 'GET' ? front.respond(request) : cache.write(() => front.respond(request))),
    store: new CredentialStore(credentialsOf(env)),
    insecure: env.ZONEWALL_INSECURE_NO_AUTH === 'true',
    maxBodyBytes: maxBodyBytesOf(env),
    logError,
  };
}

export default {
  fetch(request: Request, env: Env): Promise<Response> {
    try {
      settings ??= settingsOf(env);
    } catch (err) {
      // A bad credential or limits setting (a malformed or repeated entry): refuse every request, the
      // reason (its place, never a value) in the Worker's log, not in the answer.
      const { status, body } = failureResponse(err, 'reading the Worker\'s settings', logError);
      return Promise.resolve(Response.json(body, { status }));
    }
    return handleFetch(request, settings);
  },
};
