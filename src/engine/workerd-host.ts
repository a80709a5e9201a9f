/**
 * `zonewall serve --runtime workerd`: the Worker of `deploy/worker` (its bundle, dist/worker/) run
 * locally by Miniflare 3 and its workerd binary, each zone a SQLite-backed Durable Object persisted
 * under `<state dir>/workerd/`. The state directory is held as `serve` holds it (one process).
 *
 * At start, the zones of the state directory's built-in engine (`zonewall engine zone create
 * --state-dir ...`) that were never imported are copied into the Worker, ids, plans and every row
 * included (`zone-dump.ts`), after its accounts with their lists (every account, the default one
 * included, each list and item with its id); `workerd/imported.json` lists the ids imported, so a
 * zone deleted through the API later does not come back. Miniflare is loaded only here, on demand: it is a
 * development dependency.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { ZonewallError } from '../errors.js';
import { makePrivateDir } from '../lock-file.js';
import { Engine } from './engine.js';
import type { PlanLimitsOverride } from './limits.js';
import { checkLoopback, type RunningServer } from './server/server.js';
import type { Credential } from './server/credentials.js';
import { lockStateDir } from './state-lock.js';
import type { AccountInfo, ZoneInfo } from './types.js';
import { DefaultAccount } from './zones/accounts.js';
import type { ZoneDump } from './zone-dump.js';

/** Options of `startWorkerdServer` (those of `serve`). */
export interface WorkerdServerOptions {
  /** The state directory (the Worker's objects live in its `workerd/` folder). */
  dir: string;
  /** TCP port; 0 picks a free one. */
  port?: number;
  /** Loopback only. */
  host?: string;
  credentials: Credential[];
  insecureNoAuth?: boolean;
  strict?: boolean;
  limits?: PlanLimitsOverride;
  maxBodyBytes?: number;
  /** The Worker bundle; default dist/worker/index.js of this package (`npm run build`). */
  scriptPath?: string;
  lockTimeoutMs?: number;
}

/** A started workerd runtime. */
export interface RunningWorkerd extends RunningServer {
  /** Names of the zones imported from the built-in engine at this start. */
  imported: string[];
  /** Names of the accounts whose lists were imported from the built-in engine at this start. */
  importedAccounts: string[];
}

/** The Worker's folder inside a state directory: present once `serve --runtime workerd` ran there. */
export const WorkerdStateFolder = 'workerd';

/** The compatibility settings of `deploy/worker/wrangler.jsonc`, which a test keeps equal. */
export const WorkerCompatibility = { date: '2025-07-18', flags: ['nodejs_compat'] } as const;

/** The default bundle path: dist/worker/index.js, two levels up from this module (src/engine, dist/bundle). */
export function defaultWorkerScript(): string {
  return fileURLToPath(new URL('../../dist/worker/index.js', import.meta.url));
}

/** Starts the Worker in Miniflare, after importing the state directory's new built-in zones. */
export async function startWorkerdServer(options: WorkerdServerOptions): Promise<RunningWorkerd> {
  const host = checkLoopback(options.host ?? '127.0.0.1');
  const scriptPath = options.scriptPath ?? defaultWorkerScript();
  if (!existsSync(scriptPath)) throw new ZonewallError('ERR_USAGE', `the Worker bundle ${scriptPath} is missing: run npm run build`);
  const { Miniflare } = await loadMiniflare();
  if ((options.port ?? 0) !== 0) await probePort(host, options.port!);
  const state = join(options.dir, WorkerdStateFolder);
  const pending = await builtInZones(options.dir, importedIds(state), options.lockTimeoutMs ?? 0);
  const unlock = await lockStateDir(options.dir, options.lockTimeoutMs ?? 0);
  const importer: Credential = { type: 'token', token: `zw-import-${globalThis.crypto.randomUUID()}`, zones: '*' };
  let mf: InstanceType<typeof Miniflare> | undefined;
  try {
    mkdirSync(state, { recursive: true, mode: 0o700 });
    const signalListeners = { SIGINT: process.listeners('SIGINT'), SIGTERM: process.listeners('SIGTERM') };
    mf = new Miniflare({
      modules: true, scriptPath, modulesRoot: join(scriptPath, '..'),
      compatibilityDate: WorkerCompatibility.date, compatibilityFlags: [...WorkerCompatibility.flags],
      durableObjects: { ZONES: { className: 'ZoneObject', useSQLite: true }, REGISTRY: { className: 'ZoneRegistry', useSQLite: true }, ACCOUNTS: { className: 'AccountObject', useSQLite: true } },
      durableObjectsPersist: state,
      bindings: bindingsOf(options, pending.zones.length + pending.accounts.length > 0 ? importer : undefined),
      // Requests go straight to the Worker (a direct socket, on the port asked for), not through
      // Miniflare's entry worker, a second worker in front of it (issue 35: a third of a repeat
      // read's time). The Worker uses none of what that one adds (request.cf, pretty error pages,
      // the edge's gzip); the entry socket stays for Miniflare itself, on a free port.
      host, port: 0,
      unsafeDirectSockets: [{ host, port: options.port ?? 0 }],
    });
    keepSignals(signalListeners);
    await mf.ready;
    const origin = (await mf.unsafeGetDirectURL()).origin;
    const url = `${origin}/client/v4`;
    const importedAccounts = await importAll(url, importer, pending.accounts.map((a) => ({ key: 'account', info: a.account, dump: a.dump })), state);
    const imported = await importAll(url, importer, pending.zones.map((z) => ({ key: 'zone', info: z.zone, dump: z.dump })), state);
    const running = mf;
    return {
      url, port: Number(new URL(origin).port), imported, importedAccounts,
      close: async () => {
        try {
          await running.dispose();
        } finally {
          unlock();
        }
      },
    };
  } catch (err) {
    await mf?.dispose();
    unlock();
    throw err;
  }
}

/**
 * Miniflare exits the process on SIGINT/SIGTERM (its exit hook) before `serve` could stop in
 * order; its signal listeners are removed again (its exit listener stays, so workerd never
 * outlives the process): the owner of the server closes it.
 */
function keepSignals(before: Record<'SIGINT' | 'SIGTERM', NodeJS.SignalsListener[]>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const listener of process.listeners(signal)) if (!before[signal].includes(listener)) process.off(signal, listener);
  }
}

/**
 * Throws Node's EADDRINUSE error (which the CLI words as for the built-in runtime) when the port is
 * taken: workerd would only print a fatal stack trace and fail to start.
 */
async function probePort(host: string, port: number): Promise<void> {
  // node:net is required here, not at load: every command imports the engine, few run workerd.
  const probe = (createRequire(import.meta.url)('node:net') as typeof import('node:net')).createServer();
  await new Promise<void>((resolve, reject) => {
    probe.once('error', reject);
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

/**
 * Miniflare, from node_modules at first use. Required, not imported: the CLI bundle runs from V8's
 * code cache, where an `import()` finds no loader on Node.js 20 (`scripts/build-cli.mjs`).
 */
async function loadMiniflare(): Promise<typeof import('miniflare')> {
  try {
    return createRequire(import.meta.url)('miniflare') as typeof import('miniflare');
  } catch (err) {
    throw new ZonewallError('ERR_USAGE', '--runtime workerd needs the npm package miniflare 3 (npm install --save-dev miniflare@3)', { cause: err });
  }
}

function bindingsOf(o: WorkerdServerOptions, importer: Credential | undefined): Record<string, string> {
  const credentials = importer === undefined ? o.credentials : [...o.credentials, importer];
  return {
    // The entries of a `--credentials FILE`, which the Worker reads as serve does (`type` is no field of it).
    ...(credentials.length > 0 ? { ZONEWALL_CREDENTIALS: JSON.stringify(credentials.map(({ type: _type, ...entry }) => entry)) } : {}),
    ...(o.insecureNoAuth === true ? { ZONEWALL_INSECURE_NO_AUTH: 'true' } : {}),
    ...(o.strict === true ? { ZONEWALL_STRICT: 'true' } : {}),
    ...(o.limits !== undefined ? { ZONEWALL_LIMITS: JSON.stringify(o.limits) } : {}),
    ...(o.maxBodyBytes !== undefined ? { ZONEWALL_MAX_BODY_BYTES: String(o.maxBodyBytes) } : {}),
    ...(importer !== undefined ? { ZONEWALL_IMPORTS: 'true' } : {}),
    // One process holds the state directory and workerd runs the Worker in one isolate: its front
    // sees every write, and may answer repeat reads itself (deploy/worker/front-cache.ts).
    ZONEWALL_SOLE_FRONT: 'true',
  };
}

function importedIds(state: string): Set<string> {
  const file = join(state, 'imported.json');
  return new Set(existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as string[]) : []);
}

/** The built-in engine's zones and accounts not imported yet, with their rows (the engine holds the directory meanwhile). */
async function builtInZones(dir: string, done: Set<string>, lockTimeoutMs: number): Promise<{ zones: { zone: ZoneInfo; dump: ZoneDump }[]; accounts: { account: AccountInfo; dump: ZoneDump }[] }> {
  makePrivateDir(dir);
  const engine = await Engine.open({ dir, lockTimeoutMs });
  try {
    const zones = (await engine.listZones()).filter((z) => !done.has(z.id));
    const accounts = (await engine.listAccounts()).filter((a) => !done.has(a.id));
    return {
      zones: await Promise.all(zones.map(async (zone) => ({ zone, dump: await engine.dumpZone(zone.id) }))),
      // An account without lists has nothing to carry but itself (the default account exists on both sides).
      accounts: (await Promise.all(accounts.map(async (account) => ({ account, dump: await engine.dumpAccount(account.id) }))))
        .filter((a) => a.account.id !== DefaultAccount.id || a.dump.some((t) => t.rows.length > 0)),
    };
  } finally {
    await engine.close();
  }
}

/** Imports zones or accounts (accounts first: zones belong to them); the names of those imported. */
async function importAll(url: string, importer: Credential, pending: { key: 'zone' | 'account'; info: ZoneInfo | AccountInfo; dump: ZoneDump }[], state: string): Promise<string[]> {
  if (pending.length === 0) return [];
  const ids = importedIds(state);
  const names: string[] = [];
  for (const p of pending) {
    const res = await fetch(`${url}/zonewall/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${importer.type === 'token' ? importer.token : ''}`, 'content-type': 'application/json' },
      body: JSON.stringify({ [p.key]: p.info, dump: p.dump }),
    });
    const body = (await res.json()) as { success: boolean; result: { imported: boolean } | null; errors: { message: string }[] };
    if (!body.success) throw new ZonewallError('ERR_IO', `could not import ${p.key} ${p.info.name} into the workerd runtime: ${body.errors.map((e) => e.message).join('; ')}`);
    if (body.result?.imported === true) names.push(p.info.name);
    ids.add(p.info.id);
  }
  writeFileSync(join(state, 'imported.json'), `${JSON.stringify([...ids])}\n`, { mode: 0o600 });
  return names;
}
