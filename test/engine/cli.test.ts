/**
 * The CLI commands of the engine: `zonewall engine zone create|list|show|delete` (in-process) and
 * `zonewall serve` (a child process: credentials from the environment only, refuses to start
 * without any, prints the base URL, serves, and stops cleanly on SIGTERM keeping the state).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { main } from '../../src/cli/main.js';
import { Engine } from '../../src/engine/index.js';
import { spawnServe } from '../helpers/serve-child.js';
import { send } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'zw-engine-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const o = vi.spyOn(process.stdout, 'write').mockImplementation((s) => { out += String(s); return true; });
  const e = vi.spyOn(process.stderr, 'write').mockImplementation((s) => { err += String(s); return true; });
  try {
    const code = await main(['node', 'zonewall', ...args]);
    return { code, out, err };
  } finally {
    o.mockRestore();
    e.mockRestore();
  }
}

// Each test runs the CLI from source in child processes: generous on a loaded machine, and bounded.
describe('zonewall engine zone', { timeout: 120_000 }, () => {
  it('creates, lists, shows and deletes zones in a state directory', async () => {
    const created = await cli('engine', 'zone', 'create', 'shop.example', '--plan', 'pro', '--state-dir', dir);
    expect(created.code).toBe(0);
    expect(created.out).toMatch(/created zone shop\.example \(id [0-9a-f]{32}, plan pro\)/);
    expect((await cli('engine', 'zone', 'create', 'shop.example', '--state-dir', dir)).code).toBe(1);
    const list = await cli('engine', 'zone', 'list', '--state-dir', dir, '--json');
    const zones = JSON.parse(list.out) as { name: string; plan_tier: string; id: string }[];
    expect(zones.map((z) => [z.name, z.plan_tier])).toEqual([['shop.example', 'pro']]);
    const show = await cli('engine', 'zone', 'show', zones[0]!.id, '--state-dir', dir);
    expect(show.out).toMatch(/rule quota\s+20 active rules/);
    expect(show.out).toMatch(/firewall rules\s+0/);
    const bad = await cli('engine', 'zone', 'create', 'x.example', '--plan', 'gold', '--state-dir', dir);
    expect([bad.code, bad.err]).toEqual([1, expect.stringMatching(/--plan must be one of free, pro, business, enterprise/)]);
    // Without a terminal, deleting needs --auto-approve: one line, nothing deleted.
    const refused = await cli('engine', 'zone', 'delete', 'shop.example', '--state-dir', dir);
    expect(refused.code).toBe(1);
    expect(refused.err).toBe('error: engine zone delete asks for confirmation on a terminal; without one, pass --auto-approve (nothing was deleted)\n');
    expect((await cli('engine', 'zone', 'show', 'shop.example', '--state-dir', dir)).code).toBe(0);
    expect((await cli('engine', 'zone', 'delete', 'shop.example', '--state-dir', dir, '--auto-approve')).code).toBe(0);
    expect((await cli('engine', 'zone', 'show', 'shop.example', '--state-dir', dir)).err).toMatch(/no zone "shop.example"/);
  });
});

const fixture = fileURLToPath(new URL('./fixtures/cli.ts', import.meta.url));

/** `zonewall serve` from source (`spawnServe`: readiness and every wait bounded). */
function serve(args: string[], env: Record<string, string>): { child: ReturnType<typeof spawnServe>['child']; output: Promise<{ code: number | null; out: string; err: string }>; url: Promise<string> } {
  const served = spawnServe(['--import', 'tsx', fixture, 'serve', ...args], { env: { PATH: process.env.PATH ?? '', ...env } });
  return { child: served.child, output: served.closed.then(({ code, out, err }) => ({ code, out, err })), url: served.url };
}

describe('zonewall serve', { timeout: 120_000 }, () => {
  it('refuses to start without credentials unless --insecure-no-auth', async () => {
    const { output } = serve(['--port', '0', '--state-dir', join(dir, 'none')], {});
    const result = await output;
    expect(result.code).toBe(1);
    expect(result.err).toMatch(/no credentials configured: set ZONEWALL_SERVE_TOKEN/);
  });

  it('serves with a token from the environment and stops cleanly on SIGTERM, keeping state', async () => {
    const state = join(dir, 'served');
    const engine = await Engine.open({ dir: state });
    const zone = await engine.createZone('served.example');
    await engine.close();
    const token = 'serve-test-token-123';
    const { child, output, url } = serve(['--port', '0', '--state-dir', state], { ZONEWALL_SERVE_TOKEN: token });
    const base = await url;
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/);
    const created = await send(base, 'POST', `/zones/${zone.id}/filters`, [{ expression: 'ip.src eq 192.0.2.1' }], { authorization: `Bearer ${token}` });
    expect(created.body.success).toBe(true);
    expect((await send(base, 'GET', `/zones/${zone.id}/filters`)).status).toBe(401);
    child.kill('SIGTERM');
    const result = await output;
    expect(result.code).toBe(0);
    expect(result.out + result.err).not.toContain(token);
    const reopened = await Engine.open({ dir: state });
    const list = await reopened.dispatch({ method: 'GET', path: `/zones/${zone.id}/filters` });
    await reopened.close();
    expect(list.body.result_info?.total_count).toBe(1);
  });
});
