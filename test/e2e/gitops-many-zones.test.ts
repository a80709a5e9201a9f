/**
 * Many zones in one repository, planned as a CI job plans them (the built CLI as a child process,
 * `zonewall serve` on 127.0.0.1, the API settings from the environment): a zone that cannot be
 * planned (here: not on the service) does not stop the other zones' plans, the exit code says a zone
 * failed (1, also with `--detailed-exitcode`, whose 2 would hide it), no plan is saved, and the
 * pull-request markdown counts the failed zone in its total.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, startServe, tempDir, withEngine, writeManifest, zonewall, type Served } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
let served: Served;
let zones: string;
const env = (): Record<string, string> => ({ ZONEWALL_API_URL: served.url, ZONEWALL_API_TOKEN: served.token });

beforeAll(async () => {
  requireBuild();
  tmp = tempDir('gitops-zones');
  const state = join(tmp.dir, 'state');
  await withEngine(state, async (engine) => {
    await engine.createZone('a.example.com', { plan: 'business' });
    await engine.createZone('b.example.com', { plan: 'business' });
  });
  served = await startServe(state);
  zones = join(tmp.dir, 'zones');
  mkdirSync(zones);
  writeManifest(zones, 'a.yaml', 'zone: a.example.com\ncustom_rules:\n  block-sqlmap:\n    action: block\n    expression: http.user_agent contains "sqlmap"\n');
  writeManifest(zones, 'b.yaml', 'zone: b.example.com\n');
  // Not on the service: a remote API never creates zones, so this zone cannot be planned.
  writeManifest(zones, 'c.yaml', 'zone: c.example.com\ncustom_rules:\n  block-bots:\n    action: block\n    expression: cf.client.bot\n');
}, 180_000);

afterAll(async () => {
  await served?.stop();
  tmp?.cleanup();
});

describe('a repository of zones, one of which cannot be planned', () => {
  it('plans the others, grouped per zone, and exits 1 with or without --detailed-exitcode', { timeout: 120_000 }, async () => {
    for (const extra of [[], ['--detailed-exitcode']]) {
      const r = await zonewall(['plan', zones, ...extra], { env: env(), cwd: tmp.dir });
      expect(r.code, r.stderr).toBe(1);
      expect(r.stdout).toMatch(/a\.example\.com \(zone [0-9a-f]{32}, business\) — \S*a\.yaml\n\n {2}\+ custom_rule "block-sqlmap"/);
      expect(r.stdout).toContain('No changes. b.example.com matches its manifest.');
      expect(r.stdout).toMatch(/c\.example\.com — \S*c\.yaml\n\nerror \[ERR_API\]: zone "c\.example\.com" not found/);
      expect(r.stdout).toContain('3 zones: 1 with changes, 1 up to date, 1 failed.');
    }
  });

  it('saves no plan: a saved plan would leave the failed zone out', { timeout: 120_000 }, async () => {
    const out = join(tmp.dir, 'plan.json');
    const r = await zonewall(['plan', zones, '--out', out], { env: env(), cwd: tmp.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`plan not saved to ${out}: 1 zone(s) or manifest(s) had errors`);
    expect(existsSync(out)).toBe(false);
  });

  it('the markdown for the pull-request comment has every zone and counts the failed one in its total', { timeout: 120_000 }, async () => {
    const r = await zonewall(['plan', zones, '--markdown'], { env: env(), cwd: tmp.dir });
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('### zonewall plan: a.example.com');
    expect(r.stdout).toContain('### zonewall plan: b.example.com');
    expect(r.stdout).toMatch(/### zonewall plan: c\.example\.com\n\n> \*\*error\*\* \(ERR_API\): zone "c\.example\.com" not found/);
    expect(r.stdout).toContain('**Total over 3 zones: Plan: 1 to add, 0 to change, 0 to replace, 0 to destroy.**\n\n3 zones: 1 with changes, 1 up to date, 1 failed.\n');
  });
});
