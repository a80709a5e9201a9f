/**
 * deploy/worker/wrangler.jsonc as `wrangler deploy` reads it, checked without deploying: the bundle
 * is built and loaded in Miniflare with exactly the bindings the file declares (its Durable Object
 * classes, SQLite-backed by its migrations, its compatibility date and flags, its required secrets),
 * and then serves the v4 API. `serve --runtime workerd` uses the same compatibility settings. A
 * zone deleted by another isolate answers 404 in this one.
 */
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Miniflare } from 'miniflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WorkerNodeModules } from '../../scripts/build-worker.mjs';
import { WorkerCompatibility, defaultWorkerScript } from '../../src/engine/index.js';
import { workerBundle } from '../helpers/workerd.js';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const folder = join(root, 'deploy/worker');

interface WranglerConfig {
  name: string;
  main: string;
  compatibility_date: string;
  compatibility_flags: string[];
  durable_objects: { bindings: { name: string; class_name: string }[] };
  migrations: { tag: string; new_sqlite_classes?: string[] }[];
  secrets: { required: string[] };
}

/** JSONC: `//` comments (outside strings) and trailing commas removed. */
function parseJsonc(text: string): unknown {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"') {
      const end = /"(?:[^"\\]|\\.)*"/y;
      end.lastIndex = i;
      const m = end.exec(text)!;
      out += m[0];
      i += m[0].length - 1;
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++;
      out += '\n';
    } else out += c;
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'));
}

const config = parseJsonc(readFileSync(join(folder, 'wrangler.jsonc'), 'utf8')) as WranglerConfig;
const secret = 'wrangler-test-token-0123456789abcdef';
let mf: Miniflare;
let base: string;

beforeAll(async () => {
  const scriptPath = await workerBundle();
  const sqlite = new Set(config.migrations.flatMap((m) => m.new_sqlite_classes ?? []));
  mf = new Miniflare({
    modules: true, scriptPath, modulesRoot: dirname(scriptPath),
    compatibilityDate: config.compatibility_date, compatibilityFlags: config.compatibility_flags,
    durableObjects: Object.fromEntries(config.durable_objects.bindings.map((b) => [b.name, { className: b.class_name, useSQLite: sqlite.has(b.class_name) }])),
    bindings: Object.fromEntries(config.secrets.required.map((name) => [name, secret])),
    host: '127.0.0.1', port: 0,
  });
  base = `${(await mf.ready).origin}/client/v4`;
});
afterAll(async () => { await mf?.dispose(); });

async function call(method: string, path: string, body?: unknown, token = secret): Promise<{ status: number; body: { success: boolean; result: any; errors: { code: number }[] } }> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as any };
}

describe('deploy/worker/wrangler.jsonc', () => {
  it('declares the bundle npm run build writes, SQLite-backed objects and the token secret', () => {
    expect(resolve(folder, config.main)).toBe(defaultWorkerScript());
    expect(config.durable_objects.bindings).toEqual([{ name: 'ZONES', class_name: 'ZoneObject' }, { name: 'REGISTRY', class_name: 'ZoneRegistry' }, { name: 'ACCOUNTS', class_name: 'AccountObject' }]);
    expect(config.migrations.flatMap((m) => m.new_sqlite_classes ?? [])).toEqual(['ZoneObject', 'ZoneRegistry', 'AccountObject']);
    expect(config.secrets.required).toEqual(['ZONEWALL_SERVE_TOKEN']);
    expect({ date: config.compatibility_date, flags: config.compatibility_flags }).toEqual(WorkerCompatibility);
  });

  it('builds a bundle whose only Node imports are those workerd provides under nodejs_compat', async () => {
    const text = readFileSync(await workerBundle(), 'utf8');
    const imports = new Set([...text.matchAll(/from\s*"(node:[a-z_/]+)"/g)].map((m) => m[1]!));
    expect([...imports].filter((i) => !WorkerNodeModules.includes(i))).toEqual([]);
    expect(text).not.toMatch(/better-sqlite3/);
  });

  it('serves the v4 API with those bindings: the secret token, zones, filters and firewall rules', async () => {
    expect((await call('GET', '/zones', undefined, 'some-other-token-value')).status).toBe(403);
    const zone = await call('POST', '/zones', { name: 'deployed.example', plan_tier: 'business' });
    expect(zone.body.success).toBe(true);
    const id = zone.body.result.id as string;
    const rules = await call('POST', `/zones/${id}/firewall/rules`, [{ filter: { expression: 'http.request.uri.path matches "^/admin"' }, action: 'block' }]);
    expect(rules.body.success).toBe(true);
    const filters = await call('GET', `/zones/${id}/filters`);
    expect(filters.body.result.map((f: { expression: string }) => f.expression)).toEqual(['http.request.uri.path matches "^/admin"']);
    expect((await call('GET', '/user/tokens/verify')).body.result.status).toBe('active');
  });

  it('refuses every request while ZONEWALL_CREDENTIALS holds a bad entry: read as serve reads --credentials FILE', async () => {
    // The Worker took the secret's JSON as it was: a repeated token (scoped to one zone here, every
    // zone by ZONEWALL_SERVE_TOKEN) and a key written twice were accepted without a word.
    for (const credentials of [`[{"token": "${secret}", "zones": ["a.example"]}]`, `[{"token": "scoped-token-0123456789", "zones": ["a.example"], "zones": "*"}]`]) {
      const bad = new Miniflare({
        modules: true, scriptPath: await workerBundle(), modulesRoot: dirname(await workerBundle()),
        compatibilityDate: config.compatibility_date, compatibilityFlags: config.compatibility_flags,
        durableObjects: Object.fromEntries(config.durable_objects.bindings.map((b) => [b.name, { className: b.class_name, useSQLite: true }])),
        bindings: { ZONEWALL_SERVE_TOKEN: secret, ZONEWALL_CREDENTIALS: credentials },
        host: '127.0.0.1', port: 0,
      });
      try {
        const res = await fetch(`${(await bad.ready).origin}/client/v4/zones`, { headers: { authorization: `Bearer ${secret}` } });
        const body = (await res.json()) as { success: boolean; errors: { message: string }[] };
        expect([res.status, body.success]).toEqual([500, false]);
        expect(JSON.stringify(body)).not.toContain(secret);
      } finally {
        await bad.dispose();
      }
    }
  });

  it('answers 404 for a zone another isolate deleted, though this isolate still lists it', async () => {
    const id = (await call('POST', '/zones', { name: 'stale.example' })).body.result.id as string;
    expect((await call('GET', `/zones/${id}/filters`)).status).toBe(200);
    // Another isolate's deletion: the registry row and the zone's storage go, this isolate's cache stays.
    type Stubs<T> = { idFromName(name: string): unknown; get(id: unknown): T };
    const registry = (await mf.getDurableObjectNamespace('REGISTRY')) as unknown as Stubs<{ remove(id: string): Promise<boolean> }>;
    const zones = (await mf.getDurableObjectNamespace('ZONES')) as unknown as Stubs<{ destroy(): Promise<void> }>;
    expect(await registry.get(registry.idFromName('zones')).remove(id)).toBe(true);
    await zones.get(zones.idFromName(id)).destroy();
    const reply = await call('GET', `/zones/${id}/filters`);
    expect([reply.status, reply.body.errors.map((e) => e.code)]).toEqual([404, [7003, 7000]]);
  });
});
