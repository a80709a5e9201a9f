/**
 * `apply` over several zones takes their locks one at a time in the order of their lock keys, before
 * it reads any: two applies of one directory (two people, or CI and a person, with --lock-timeout)
 * then never each hold one zone while waiting for the zone the other holds. They took every zone's
 * lock at once, each as soon as the zone was known, so either could hold one and wait for the other.
 *
 * Here the test holds the lock of the zone whose key sorts first, as the other apply would; the apply
 * of the directory, and of a saved plan of it (the built CLI against `zonewall serve`), must wait for
 * it without taking the second zone's lock meanwhile, and refuse after its --lock-timeout naming the zone.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { acquireZoneLock, lockKey } from '../../src/apply/lock.js';
import { outputOf, requireBuild, spawnZonewall, startServe, tempDir, withEngine, writeManifest, type Served } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
let served: Served;
const ids = new Map<string, string>();

beforeAll(async () => {
  requireBuild();
  tmp = tempDir('gitops-lock-order');
  const state = join(tmp.dir, 'state');
  await withEngine(state, async (engine) => {
    for (const name of ['a.example.com', 'b.example.com']) ids.set(name, (await engine.createZone(name, { plan: 'business' })).id);
  });
  served = await startServe(state);
}, 180_000);

afterAll(async () => {
  await served?.stop();
  tmp?.cleanup();
});

describe('apply of several zones locks them in one order', () => {
  for (const saved of [false, true]) {
    it(`${saved ? 'apply plan.json' : 'apply DIR'}: waits for the first zone without holding the second, and refuses after --lock-timeout`, { timeout: 120_000 }, async () => {
      const zones = join(tmp.dir, `zones-${saved}`);
      mkdirSync(zones);
      for (const name of ids.keys()) writeManifest(zones, `${name}.yaml`, `zone: ${name}\ncustom_rules:\n  block-bots:\n    action: block\n    expression: cf.client.bot\n`);
      const env = { ZONEWALL_API_URL: served.url, ZONEWALL_API_TOKEN: served.token };
      const planFile = join(tmp.dir, `plan-${saved}.json`);
      if (saved) {
        const planned = await outputOf(spawnZonewall(['plan', zones, '--out', planFile], { env, cwd: tmp.dir }));
        expect(planned.code, planned.stderr).toBe(0);
      }
      const provider = { kind: 'http' as const, description: `v4 API at ${served.url}` };
      const [first, second] = [...ids.entries()].map(([name, id]) => ({ name, key: lockKey(provider, id) })).sort((x, y) => (x.key < y.key ? -1 : 1));
      const locksTmp = join(tmp.dir, `tmp-${saved}`);
      mkdirSync(locksTmp);
      const dir = join(locksTmp, `zonewall-locks-${process.getuid!()}`);
      // Held by this (live) process, as by another apply.
      const held = await acquireZoneLock({ dir, key: first!.key, zone: first!.name, timeoutMs: 0 });
      try {
        const child = spawnZonewall(['apply', saved ? planFile : zones, '--auto-approve', '--lock-timeout', '4s'], { env: { ...env, TMPDIR: locksTmp }, cwd: tmp.dir });
        let tookSecond = false;
        const watch = setInterval(() => { if (existsSync(join(dir, `${second!.key}.lock`))) tookSecond = true; }, 20);
        const r = await outputOf(child).finally(() => clearInterval(watch));
        expect(r.code, r.stderr).toBe(1);
        if (saved) expect(r.stderr).toContain(`error: zone ${first!.name} is locked by process ${process.pid}`);
        else {
          expect(r.stdout).toContain(`error [ERR_LOCKED]: zone ${first!.name} is locked by process ${process.pid}`);
          expect(r.stderr).toContain('nothing applied');
        }
        expect(tookSecond).toBe(false);
      } finally {
        held.release();
      }
    });
  }
});
