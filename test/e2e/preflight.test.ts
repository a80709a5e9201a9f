/**
 * Pre-flight (issue 31): `plan` runs every planned write through the engine's own validation, in
 * apply order, on a copy of the zone, so what apply would refuse is an error finding at plan time
 * naming the object, the manifest position and the service's message and code; `apply` refuses
 * before its first write; the state directory is left as it was. The built CLI, embedded engine.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { liveObjects, requireBuild, startServe, tempDir, v4, withEngine, writeManifest, zonewall } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
let state: string;
const cli = (...args: string[]) => zonewall([...args, '--state-dir', state]);

beforeAll(() => requireBuild());
beforeEach(() => { tmp = tempDir('preflight'); state = join(tmp.dir, 'state'); });
afterEach(() => tmp.cleanup());

/** A business zone on the previous WAF (`waf_migration: none`: a manifest that says nothing means the new WAF) with OWASP enabled: the engine refuses the managed PUT (11007) after the filters and rules. */
const Unmigrated = `zone: preflight.example.com
plan: business
filters:
  api-paths:
    expression: http.request.uri.path matches "^/api/"
firewall_rules:
  challenge-api:
    action: managed_challenge
    filter: api-paths
managed_rules:
  - ruleset: owasp
    action: block
waf_migration: none
`;

interface PlanDoc { zones: { findings: { level: string; code: string; message: string; ref?: string; location?: { line: number; column: number } }[] }[] }

describe('pre-flight on the embedded engine', () => {
  it('reports the refusal the apply would meet, with the object, its position, the message and code; apply writes nothing', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', Unmigrated);
    await withEngine(state, async (engine) => {
      const zone = await engine.createZone('preflight.example.com', { plan: 'business', waf: 'previous' });
      await v4(engine, 'POST', `/zones/${zone.id}/filters`, [{ expression: 'ip.src eq 192.0.2.9', ref: 'other' }]);
    });
    const before = readdirSync(join(state, 'zones')).sort();
    const plan = await cli('plan', file, '--json');
    expect(plan.code).toBe(1);
    const findings = (JSON.parse(plan.stdout) as PlanDoc).zones[0]!.findings;
    const refused = findings.find((f) => f.code === 'preflight-refused');
    expect(refused).toMatchObject({ level: 'error', ref: 'owasp', location: { line: 11, column: 5 } });
    expect(refused!.message).toMatch(/managed_ruleset "owasp".*may only deploy disabled rules.*\(11007\)/);
    const text = await cli('plan', file);
    expect(text.stdout).toContain('preflight-refused');
    expect(text.stdout).toContain('zone.yaml:11:5');
    const apply = await cli('apply', file, '--auto-approve');
    expect(apply.code).toBe(1);
    const live = await liveObjects(state, 'preflight.example.com');
    expect(live.filters.map((f) => f.ref)).toEqual(['other']);
    expect(live.rules).toEqual([]);
    expect(readdirSync(join(state, 'zones')).sort()).toEqual(before);
  });

  it('a zone the engine does not have yet: refused at plan time, and apply does not create it', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', Unmigrated);
    const plan = await cli('plan', file);
    expect(plan.code).toBe(1);
    expect(plan.stdout).toMatch(/preflight-refused: apply would be refused at managed_ruleset "owasp"/);
    expect((await cli('apply', file, '--auto-approve')).code).toBe(1);
    expect(await withEngine(state, (engine) => engine.listZones())).toEqual([]);
  });

  it('--no-preflight leaves it out; a plan the engine accepts has no pre-flight finding and applies', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', Unmigrated);
    const skipped = await cli('plan', file, '--no-preflight');
    expect(skipped.stdout).not.toContain('preflight-refused');
    const fine = writeManifest(tmp.dir, 'fine.yaml', Unmigrated.replace('plan: business', 'plan: enterprise').replace('preflight.example.com', 'fine.example.com'));
    const ok = await cli('plan', fine);
    expect([ok.code, ok.stdout.includes('preflight-refused')]).toEqual([0, false]);
    expect((await cli('apply', fine, '--auto-approve')).code).toBe(0);
    expect((await cli('plan', fine, '--detailed-exitcode')).code).toBe(0);
  });
});

describe.each([[[] as string[]], [['--strict']]])('pre-flight on a remote API (serve %j)', (args) => {
  it('--preflight sends the Rulesets writes with dry_run=true: the refusal is found, its cost shown, nothing written', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', Unmigrated);
    await withEngine(state, (engine) => engine.createZone('preflight.example.com', { plan: 'business', waf: 'previous' }));
    const served = await startServe(state, undefined, { args });
    try {
      const remote = (...a: string[]) => zonewall([...a, '--remote', served.url], { env: { ZONEWALL_API_TOKEN: served.token } });
      const off = await remote('plan', file, '--json');
      expect(off.stdout).not.toContain('preflight-refused');
      const on = await remote('plan', file, '--preflight');
      expect(on.code).toBe(1);
      expect(on.stdout).toMatch(/preflight-refused: apply would be refused at managed_ruleset "owasp".*\(11007\)/);
      expect(on.stdout).toContain('Pre-flight: 1 dry-run request made.');
      const doc = JSON.parse((await remote('plan', file, '--preflight', '--json')).stdout) as { zones: { calls: { preflight?: number } }[] };
      expect(doc.zones[0]!.calls.preflight).toBe(1);
      expect((await remote('apply', file, '--preflight', '--auto-approve')).code).toBe(1);
    } finally {
      await served.stop();
    }
    const live = await liveObjects(state, 'preflight.example.com');
    expect([live.filters, live.rules]).toEqual([[], []]);
  }, 120_000);
});
