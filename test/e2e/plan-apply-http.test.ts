/**
 * `zonewall plan` / `apply` end to end over HTTP: `zonewall serve` runs as a child process on a free
 * port with `ZONEWALL_SERVE_TOKEN`, and the CLI (another child process) talks to it with `--remote`
 * and `ZONEWALL_API_TOKEN`. Every example applies and then plans clean; a saved plan goes stale
 * after an edit made through the API; rollback refuses remote providers.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadManifests } from '../../src/manifest/index.js';
import { repoRoot, requireBuild, startServe, tempDir, withEngine, writeManifest, zonewall, type Served } from '../helpers/e2e-cli.js';
import { planJson, v1, ZONE } from '../helpers/e2e-manifests.js';

let tmp: ReturnType<typeof tempDir>;
let served: Served;
const remote = (...args: string[]) => zonewall([...args, '--remote', served.url], { env: { ZONEWALL_API_TOKEN: served.token } });
const examples = join(repoRoot, 'examples');

beforeAll(async () => {
  requireBuild();
  tmp = tempDir('http');
  const state = join(tmp.dir, 'state');
  // Remote providers never create zones: the service's owner does, before serving.
  const { zones } = await loadManifests([examples]);
  await withEngine(state, async (engine) => {
    for (const z of zones) await engine.createZone(z.zone, { plan: z.plan ?? 'enterprise' });
    await engine.createZone(ZONE, { plan: 'enterprise' });
  });
  served = await startServe(state);
});
afterAll(async () => {
  await served?.stop();
  tmp?.cleanup();
});

describe('over HTTP against zonewall serve', () => {
  it('apply then plan shows no changes, for every example', async () => {
    const apply = await remote('apply', examples, '--auto-approve', '--force');
    expect(apply.code, apply.stderr + apply.stdout).toBe(0);
    expect(apply.stderr).not.toContain('created zone');
    const plan = await remote('plan', examples, '--json', '--detailed-exitcode');
    expect(plan.code, plan.stdout).toBe(0);
    const doc = planJson(plan);
    expect(doc.provider).toEqual({ kind: 'http', description: expect.stringMatching(/^v4 API at http:\/\/127\.0\.0\.1:\d+\/client\/v4$/), target: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/client\/v4$/) });
    expect(doc.provider?.description).toBe(`v4 API at ${doc.provider?.target}`);
    for (const zone of doc.zones) expect(zone.summary, zone.zone.name).toMatchObject({ add: 0, change: 0, replace: 0, destroy: 0 });
  });

  it('refuses a saved plan after an edit made through the API, and applies a fresh one', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', v1);
    const out = join(tmp.dir, 'plan.json');
    expect((await remote('plan', file, '--out', out)).code).toBe(0);
    expect(readFileSync(out, 'utf8')).not.toContain(served.token);
    const zoneId = planJson({ stdout: readFileSync(out, 'utf8'), stderr: '', code: 0 }).zones[0]!.zone.id;
    const res = await fetch(`${served.url}/zones/${zoneId}/filters`, {
      method: 'POST', headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json' },
      body: JSON.stringify([{ expression: 'ip.src eq 192.0.2.77', description: 'added on the dashboard' }]),
    });
    expect(res.status).toBe(200);
    const stale = await remote('apply', out, '--auto-approve');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('changed since the plan was saved');
    expect((await remote('plan', file, '--out', out)).code).toBe(0);
    const fresh = await remote('apply', out, '--auto-approve');
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain(`Apply complete for ${ZONE}: 6 added`);
    expect((await remote('plan', file, '--detailed-exitcode')).code).toBe(0);
  });

  it('rollback needs the embedded engine', async () => {
    const run = await remote('rollback', '--zone', ZONE);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('rollback needs the embedded engine');
  });
});
