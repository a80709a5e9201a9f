/**
 * `serve --runtime workerd` over its state directory: the zones the built-in engine created there
 * are imported once, rows included; a restart finds every zone exactly as it was (zones, filters,
 * firewall rules, custom rules, previous WAF settings); a zone deleted through the API stays deleted;
 * PITR restore says in one line that local workerd has none.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Engine, type Credential } from '../../src/engine/index.js';
import { startWorkerd } from '../helpers/workerd.js';
import { TOKEN, codes, result, send, type Reply } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'zw-workerd-runtime-'));
const credentials: Credential[] = [{ type: 'token', token: TOKEN, zones: '*' }];
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Runs `fn` against the workerd runtime on `dir`, then stops it. */
async function withWorkerd<T>(fn: (api: (method: string, path: string, body?: unknown) => Promise<Reply>, imported: string[]) => Promise<T>, strict = false): Promise<T> {
  const server = await startWorkerd({ dir, credentials, strict });
  try {
    return await fn((method, path, body) => send(server.url, method, path, body, { authorization: `Bearer ${TOKEN}` }), server.imported);
  } finally {
    await server.close();
  }
}

/** Everything a client can read of every zone. */
async function snapshot(api: (method: string, path: string) => Promise<Reply>): Promise<unknown> {
  const zones = result<{ id: string; name: string }[]>(await api('GET', '/zones?per_page=50'));
  const out: Record<string, unknown> = {};
  for (const z of zones) {
    const read = async (path: string) => (await api('GET', `/zones/${z.id}${path}`)).body;
    out[z.name] = {
      zone: await read(''),
      filters: await read('/filters?per_page=100'),
      rules: await read('/firewall/rules?per_page=100'),
      custom: await read('/rulesets/phases/http_request_firewall_custom/entrypoint'),
      packages: await read('/firewall/waf/packages'),
      migration: await read('/waf_migration/status'),
    };
  }
  return out;
}

describe('serve --runtime workerd: state directory', () => {
  let importedId = '';
  let before: unknown;

  it('imports the zones the built-in engine created in the state directory, with their rows', async () => {
    const engine = await Engine.open({ dir });
    const zone = await engine.createZone('imported.example', { plan: 'business' });
    importedId = zone.id;
    await engine.dispatch({ method: 'POST', path: `/zones/${zone.id}/filters`, body: [{ expression: 'ip.src eq 192.0.2.1', ref: 'from-builtin' }] });
    await engine.close();

    await withWorkerd(async (api, imported) => {
      expect(imported).toEqual(['imported.example']);
      const zones = result(await api('GET', '/zones'));
      expect(zones.map((z: { id: string; name: string; plan_tier: string }) => [z.id, z.name, z.plan_tier])).toEqual([[importedId, 'imported.example', 'business']]);
      expect(result(await api('GET', `/zones/${importedId}/filters`)).map((f: { ref: string }) => f.ref)).toEqual(['from-builtin']);
    });
  });

  it('finds every zone intact after a restart', async () => {
    before = await withWorkerd(async (api) => {
      const a = result(await api('POST', '/zones', { name: 'a.example', plan_tier: 'enterprise' })).id as string;
      const b = result(await api('POST', '/zones', { name: 'b.example', plan_tier: 'pro', waf: 'new' })).id as string;
      result(await api('POST', `/zones/${a}/firewall/rules`, [{ filter: { expression: 'http.request.uri.path matches "^/admin"' }, action: 'block', ref: 'admin' }]));
      const pkg = result(await api('GET', `/zones/${a}/firewall/waf/packages`)).find((p: { detection_mode: string }) => p.detection_mode === 'anomaly');
      result(await api('PATCH', `/zones/${a}/firewall/waf/packages/${pkg.id}`, { sensitivity: 'low' }));
      result(await api('PUT', `/zones/${b}/rulesets/phases/http_request_firewall_custom/entrypoint`, { rules: [{ action: 'block', expression: 'ip.src eq 192.0.2.9', ref: 'c1' }] }));
      result(await api('POST', `/zones/${importedId}/filters`, [{ expression: 'ip.src eq 192.0.2.2', ref: 'from-workerd' }]));
      return snapshot(api);
    });
    const after = await withWorkerd(async (api, imported) => {
      expect(imported).toEqual([]);
      return snapshot(api);
    });
    expect(Object.keys(after as object)).toEqual(['imported.example', 'a.example', 'b.example']);
    expect(after).toEqual(before);
  });

  it('does not import a zone again once it was deleted through the API', async () => {
    await withWorkerd(async (api) => {
      expect(result(await api('DELETE', `/zones/${importedId}`))).toEqual({ id: importedId });
    });
    await withWorkerd(async (api, imported) => {
      expect(imported).toEqual([]);
      expect(result(await api('GET', '/zones')).map((z: { name: string }) => z.name)).toEqual(['a.example', 'b.example']);
    });
  });

  it('answers a PITR restore with one line: local workerd has no point-in-time recovery', async () => {
    await withWorkerd(async (api) => {
      const zone = result(await api('GET', '/zones?name=a.example'))[0].id as string;
      expect(result(await api('GET', `/zones/${zone}/pitr/bookmark`)).bookmark).toMatch(/\S/);
      const reply = await api('POST', `/zones/${zone}/pitr/restore`, { at: new Date().toISOString() });
      expect([reply.status, codes(reply)]).toEqual([501, [10501]]);
      expect(reply.body.errors[0]!.message).toBe('point-in-time recovery is not available here: workerd run locally (Miniflare) does not implement it; a deployed Worker does');
    });
  });

  it('serves the real API\'s shapes only with --strict, on the same zones', async () => {
    await withWorkerd(async (api) => {
      const zones = result(await api('GET', '/zones'));
      expect(zones.map((z: { name: string }) => z.name)).toEqual(['a.example', 'b.example']);
      expect(zones.every((z: object) => !('plan_tier' in z))).toBe(true);
      expect(codes(await api('POST', '/zones', { name: 'c.example' }))).toEqual([7001]); // 405, as the built-in strict engine
    }, true);
  });
});
