/**
 * Test kit of the engine suite: a real engine in a temp state directory, served over HTTP on
 * 127.0.0.1 (port 0), and an undici client that speaks the v4 envelope.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { request } from 'undici';
import { startWorkerd } from '../helpers/workerd.js';
import type { ResourceModule, ZoneRequestContext } from '../../src/engine/context.js';
import { resources } from '../../src/engine/resources.js';
import { Engine, startServer, type Credential, type EngineOptions, type Envelope, type PlanTier, type RunningServer, type ApiResponse } from '../../src/engine/index.js';

/** The bearer token every test server accepts for all zones. */
export const TOKEN = 'test-token-all-zones-0001';
/** The key-style credential every test server accepts for all zones. */
export const EMAIL = 'ops@example.com';
export const KEY = 'c2547eb745079dac9320b638f5e225cf483cc5cfdda41';

/** A parsed response. */
export interface Reply {
  status: number;
  body: Envelope;
  headers: Record<string, string | string[] | undefined>;
  text: string;
}

/** A server of the v4 API on either runtime, in a temp directory. */
export interface HttpHarness {
  dir: string;
  server: { url: string };
  /** Calls the API with the all-zones bearer token (override with `headers`). */
  api(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<Reply>;
  /** Creates a zone and returns its id. */
  zone(name: string, plan?: PlanTier): Promise<string>;
  /** Stops the server and the engine (the directory stays, for restarts). */
  stop(): Promise<void>;
  /** Stops everything and removes the directory. */
  cleanup(): Promise<void>;
}

/** A running engine + server in a temp directory (the built-in runtime). */
export interface Harness extends HttpHarness {
  engine: Engine;
  server: RunningServer;
}

/** Extra credentials and engine options for a harness. */
export interface HarnessOptions {
  credentials?: Credential[];
  limits?: EngineOptions['limits'];
  dir?: string;
  maxBodyBytes?: number;
  /** Real API shapes only (`serve --strict`). */
  strict?: boolean;
  /** What the server logs as internal errors (default: nothing is kept). */
  logError?: (message: string, err: unknown) => void;
  /**
   * workerd: zones made in the state directory's built-in engine before the start, which imports
   * them (as `engine zone create --state-dir` then `serve --runtime workerd`). A strict server
   * refuses `POST /zones`, so its `zone(name)` finds one of these by name (`GET /zones?name=`).
   */
  zones?: [name: string, plan: PlanTier][];
}

/** Starts a harness (reusing `options.dir` to simulate a restart). */
export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const dir = options.dir ?? mkdtempSync(join(tmpdir(), 'zw-engine-'));
  const engine = await Engine.open({ dir, strict: options.strict === true, ...(options.limits !== undefined ? { limits: options.limits } : {}), logError: () => undefined });
  const credentials: Credential[] = [
    { type: 'token', token: TOKEN, zones: '*' },
    { type: 'key', email: EMAIL, key: KEY, zones: '*' },
    ...(options.credentials ?? []),
  ];
  const server = await startServer(engine, {
    port: 0, credentials,
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
    ...(options.logError !== undefined ? { logError: options.logError } : {}),
  });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await server.close();
    await engine.close();
  };
  return {
    dir, engine, server, stop,
    api: (method, path, body, headers) => send(server.url, method, path, body, { authorization: `Bearer ${TOKEN}`, ...headers }),
    zone: async (name, plan = 'enterprise') => (await engine.createZone(name, { plan })).id,
    cleanup: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The same over `serve --runtime workerd` (deploy/worker in Miniflare): zones are created through
 * the API (`POST /zones`), as a client of a deployed Worker would.
 */
export async function startWorkerdHarness(options: HarnessOptions = {}): Promise<HttpHarness> {
  const credentials: Credential[] = [
    { type: 'token', token: TOKEN, zones: '*' },
    { type: 'key', email: EMAIL, key: KEY, zones: '*' },
    ...(options.credentials ?? []),
  ];
  const dir = options.dir ?? (options.zones !== undefined ? mkdtempSync(join(tmpdir(), 'zw-workerd-')) : undefined);
  if (options.zones !== undefined) {
    const engine = await Engine.open({ dir: dir! });
    for (const [name, plan] of options.zones) await engine.createZone(name, { plan });
    await engine.close();
  }
  const server = await startWorkerd({
    credentials, strict: options.strict === true,
    ...(dir !== undefined ? { dir } : {}),
    ...(options.limits !== undefined ? { limits: options.limits } : {}),
    ...(options.maxBodyBytes !== undefined ? { maxBodyBytes: options.maxBodyBytes } : {}),
  });
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await server.close();
  };
  const api: HttpHarness['api'] = (method, path, body, headers) => send(server.url, method, path, body, { authorization: `Bearer ${TOKEN}`, ...headers });
  return {
    dir: server.dir, server, stop, api,
    zone: async (name, plan = 'enterprise') => {
      if (options.zones?.some(([n]) => n === name)) return (result(await api('GET', `/zones?name=${name}`)) as { id: string }[])[0]!.id;
      return (result(await api('POST', '/zones', { name, plan_tier: plan })) as { id: string }).id;
    },
    cleanup: async () => {
      await stop();
      rmSync(server.dir, { recursive: true, force: true });
    },
  };
}

/** One HTTP request; `body` is JSON-encoded unless it is a string (sent raw). */
export async function send(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> {
  const hasBody = body !== undefined;
  const res = await request(`${base}${path}`, {
    method: method as 'GET',
    headers: { ...(hasBody ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(hasBody ? { body: typeof body === 'string' ? body : JSON.stringify(body) } : {}),
  });
  const text = await res.body.text();
  let parsed: Envelope;
  try {
    parsed = JSON.parse(text) as Envelope;
  } catch {
    throw new Error(`not JSON (${res.statusCode}): ${text.slice(0, 200)}`);
  }
  return { status: res.statusCode, body: parsed, headers: res.headers, text };
}

/** The result of a successful reply, failing the test with the errors otherwise. */
export function result<T = any>(reply: Reply): T {
  if (!reply.body.success) throw new Error(`expected success, got ${reply.status}: ${JSON.stringify(reply.body.errors)}`);
  return reply.body.result as T;
}

/** The error codes of a reply. */
export function codes(reply: Reply): (number | undefined)[] {
  return reply.body.errors.map((e) => e.code);
}

/**
 * The engine's resources and one more, for a test: a route `/zones/:zone_id/<name>` whose handler
 * the test writes (a write that fails halfway, a row the API can no longer write, a probe).
 */
export function resourcesWithZoneRoute(name: string, method: 'GET' | 'POST', handler: (ctx: ZoneRequestContext) => ApiResponse): ResourceModule[] {
  return [...resources, { name, schema: [], routes: [{ method, pattern: `/zones/:zone_id/${name}`, handler }] }];
}
