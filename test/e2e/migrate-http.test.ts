/**
 * The same migration through `zonewall serve` over HTTP (`--remote`, a bearer token from the
 * environment) and on the embedded engine directly: the reports, the status and the rewritten
 * manifests must be the same (rule ids, which each zone assigns itself, aside), and the plan after
 * each step empty.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serve, withEngine, zonewall } from '../migrate/cli.js';
import type { Served } from '../migrate/cli.js';

const OWASP = 'c504870194831cd12c3fc0284f294abb';
const token = 'e2e-migrate-token-0123456789';
let dir: string;
let served: Served;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-e2e-migrate-http-'));
  served = await serve(path.join(dir, 'served'), token, dir);
});
afterAll(async () => {
  await served.stop();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Each CLI step spawns node; a busy two-core box needs room for several of them per test. */
const CliTimeout = 180_000;

const manifest = 'zone: same.test   # kept\nprevious_waf:\n  packages:\n    owasp: { sensitivity: low, action_mode: simulate }\n';
const settings = { sensitivity: 'low', action_mode: 'simulate' };

/** Calls the served API. */
async function api(method: string, p: string, body?: unknown): Promise<{ result: { id: string } }> {
  const res = await fetch(`${served.url}${p}`, {
    method, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const json = await res.json() as { success: boolean; result: { id: string } };
  if (!json.success) throw new Error(`${method} ${p}: ${JSON.stringify(json)}`);
  return json;
}

/**
 * Rule ids and refs are the zone's own, and hints name each run's provider flags: mask them to
 * compare two zones' outputs and manifests.
 */
const masked = (s: string) => s.replace(/\b[0-9a-f]{32}\b/g, '<id>').replace(/ --(state-dir|remote) \S+/g, ' <provider>');

/**
 * Runs the migration steps with the given provider flags (and, with `plans`, a plan after each);
 * returns what each step printed and the final manifest.
 */
async function migrateWith(file: string, flags: string[], env: NodeJS.ProcessEnv, plans: boolean) {
  const step = async (...args: string[]) => {
    const r = await zonewall([...args, ...flags], { cwd: dir, env });
    expect(r.code, `${args.join(' ')}\n${r.stdout}\n${r.stderr}`).toBe(0);
    return r.stdout;
  };
  const plan = async () => {
    if (!plans) return;
    const r = await zonewall(['plan', file, '--detailed-exitcode', ...flags], { cwd: dir, env });
    expect(r.code, r.stdout).toBe(0);
  };
  const outputs = [await step('migrate', file, '--mode', 'validation', '--write')];
  await plan();
  outputs.push(await step('migrate', file, '--mode', 'pending', '--force', '--write'));
  await plan();
  outputs.push(await step('migrate', 'status', '--zone', 'same.test'));
  return { outputs: outputs.map(masked), text: masked(fs.readFileSync(file, 'utf8')) };
}

describe('zonewall migrate over HTTP', () => {
  it('gives the same result as on the embedded engine', { timeout: CliTimeout }, async () => {
    const env = { ZONEWALL_API_TOKEN: token };
    const zone = await api('POST', '/zones', { name: 'same.test', plan_tier: 'enterprise' });
    await api('PATCH', `/zones/${zone.result.id}/firewall/waf/packages/${OWASP}`, settings);
    const remoteFile = path.join(dir, 'remote.yaml');
    fs.writeFileSync(remoteFile, manifest);
    const remote = await migrateWith(remoteFile, ['--remote', served.url], env, true);

    const stateDir = path.join(dir, 'local');
    expect((await zonewall(['engine', 'zone', 'create', 'same.test', '--plan', 'enterprise', '--state-dir', stateDir], { cwd: dir })).code).toBe(0);
    await withEngine(stateDir, async (call, engine) => {
      const z = await engine.getZone('same.test');
      await call('PATCH', `/zones/${z!.id}/firewall/waf/packages/${OWASP}`, settings);
    });
    const localFile = path.join(dir, 'local.yaml');
    fs.writeFileSync(localFile, manifest);
    const local = await migrateWith(localFile, ['--state-dir', stateDir], {}, false);

    expect(remote.text).toBe(local.text.replace(/local\.yaml/g, 'remote.yaml'));
    expect(remote.outputs).toEqual(local.outputs.map((o) => o.replace(/local\.yaml/g, 'remote.yaml')));
    expect(remote.text).toContain('waf_migration: pending');
    expect(remote.outputs[0]).toContain('OWASP action: action_mode simulate → 949110 action log');
  });
});
