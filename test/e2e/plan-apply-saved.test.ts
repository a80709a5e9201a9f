/**
 * Saved plans, exit codes, output formats and rollback, end to end on the embedded engine (the
 * built CLI in a child process): `plan --out` then `apply plan.json` applies exactly the saved
 * plan, and refuses it once the zone changed (a dashboard edit); `--detailed-exitcode`; markdown;
 * `rollback --zone` restores the zone to before the last apply, once.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PlanJson } from '../../src/plan/index.js';
import { liveObjects, repoRoot, requireBuild, ruleIds, tempDir, v4, withEngine, writeManifest, zonewall } from '../helpers/e2e-cli.js';
import { v1, ZONE } from '../helpers/e2e-manifests.js';

let tmp: ReturnType<typeof tempDir>;
let state: string;
const cli = (...args: string[]) => zonewall([...args, '--state-dir', state]);

beforeAll(() => requireBuild());
beforeEach(() => { tmp = tempDir('saved'); state = join(tmp.dir, 'state'); });
afterEach(() => tmp.cleanup());

describe('saved plans', () => {
  it('apply plan.json applies the saved plan, and refuses it once the zone changed', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', v1);
    const out = join(tmp.dir, 'plan.json');
    await withEngine(state, (engine) => engine.createZone(ZONE, { plan: 'enterprise' }));
    const saved = await cli('plan', file, '--out', out);
    expect(saved.code).toBe(0);
    expect(saved.stderr).toContain(`zonewall apply ${out}`);
    const doc = JSON.parse(readFileSync(out, 'utf8')) as PlanJson;
    const schema = JSON.parse(readFileSync(join(repoRoot, 'schemas/plan.schema.json'), 'utf8')) as object;
    const validate = new Ajv2020({ strict: false }).compile(schema);
    expect(validate(doc), JSON.stringify(validate.errors)).toBe(true);
    expect(doc.zones[0]!.fingerprint).toMatch(/^sha256:/);

    // A "dashboard edit" after planning makes the saved plan stale.
    await withEngine(state, async (engine) => {
      const zone = (await engine.getZone(ZONE))!;
      await v4(engine, 'POST', `/zones/${zone.id}/filters`, [{ expression: 'ip.src eq 192.0.2.200' }]);
    });
    const stale = await cli('apply', out, '--auto-approve');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(`zone ${ZONE} changed since the plan was saved`);
    expect((await liveObjects(state, ZONE)).rules).toEqual([]);

    expect((await cli('plan', file, '--out', out)).code).toBe(0);
    const fresh = await cli('apply', out, '--auto-approve');
    expect(fresh.code, fresh.stderr).toBe(0);
    expect(fresh.stdout).toContain(`Apply complete for ${ZONE}: 6 added`);
    expect((await cli('plan', file, '--detailed-exitcode')).code).toBe(0);
  });

  it('applies a saved plan only where it was made: a new zone is not created in another state directory', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', v1);
    const out = join(tmp.dir, 'plan.json');
    const planned = join(tmp.dir, 'planned-here');
    const elsewhere = join(tmp.dir, 'elsewhere');
    // The zone is new to both state directories: nothing else tells them apart.
    const saved = await zonewall(['plan', file, '--out', out, '--state-dir', planned], { cwd: tmp.dir });
    expect(saved.code, saved.stderr).toBe(0);
    // The hint names the state directory the plan was made against (a user copies it as written).
    expect(saved.stderr).toContain(`apply exactly it with: zonewall apply ${out} --state-dir ${planned}`);

    for (const args of [['--state-dir', elsewhere], []]) {
      const refused = await zonewall(['apply', out, '--auto-approve', ...args], { cwd: tmp.dir });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`the saved plan was made against the embedded engine at ${planned}, not the embedded engine at ${args.length > 0 ? elsewhere : join(tmp.dir, '.zonewall')}: apply it where it was made (--state-dir ${planned})`);
      expect(refused.stderr).not.toMatch(/\n\s+at /);
    }
    expect(existsSync(join(elsewhere, 'zones'))).toBe(false);
    expect(existsSync(join(tmp.dir, '.zonewall', 'zones'))).toBe(false);

    const applied = await zonewall(['apply', out, '--auto-approve', '--state-dir', planned], { cwd: tmp.dir });
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain(`Apply complete for ${ZONE}: 6 added`);
  });

  it("refuses a saved plan once the previous WAF's on/off switch changed", async () => {
    // `waf_migration` makes the plan read the migration status, whose `old_waf_status` is the switch.
    const file = writeManifest(tmp.dir, 'zone.yaml', `${v1}waf_migration: none\n`);
    const out = join(tmp.dir, 'plan.json');
    // A zone that exists: a plan creates none, and the switch is the live zone's.
    await withEngine(state, (engine) => engine.createZone(ZONE, { plan: 'enterprise' }));
    expect((await cli('plan', file, '--out', out)).code).toBe(0);
    await withEngine(state, async (engine) => {
      const zone = (await engine.getZone(ZONE))!;
      await v4(engine, 'PATCH', `/zones/${zone.id}/settings/waf`, { value: 'off' });
    });
    const stale = await cli('apply', out, '--auto-approve');
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain(`zone ${ZONE} changed since the plan was saved`);
    expect((await liveObjects(state, ZONE)).rules).toEqual([]);
  });
});

describe('exit codes and formats', () => {
  it('2 with changes under --detailed-exitcode, 0 without the flag, 1 on manifest errors; markdown', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', v1);
    expect((await cli('plan', file, '--detailed-exitcode')).code).toBe(2);
    const md = await cli('plan', file, '--markdown');
    expect(md.code).toBe(0);
    expect(md.stdout).toContain('### zonewall plan: e2e.example.com');
    expect(md.stdout).toContain('**Plan: 6 to add, 0 to change, 0 to replace, 0 to destroy.**');
    expect(md.stdout).toContain('| `+` | filter | `api` |');
    const bad = writeManifest(tmp.dir, 'bad.yaml', 'zone: bad.example.com\nfirewall_rules:\n  x:\n    action: blok\n    filter:\n      expression: ip.src eq 192.0.2.4\n');
    const err = await cli('plan', bad, '--detailed-exitcode');
    expect(err.code).toBe(1);
    expect(err.stderr).toContain('bad.yaml:4');
  });
});

describe('rollback', () => {
  it('restores the zone to before the last apply, once', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', v1);
    expect((await cli('apply', file, '--auto-approve')).code).toBe(0);
    const first = ruleIds(await liveObjects(state, ZONE));
    writeFileSync(file, v1.replace('ip.src eq 198.51.100.7', 'ip.src eq 198.51.100.8').replace('  block-api:\n    action: block\n    filter: api\n', ''));
    expect((await cli('apply', file, '--auto-approve')).code).toBe(0);
    // No terminal (the child's stdin is not one) and no --auto-approve: refused like apply, nothing rolled back.
    const applied = ruleIds(await liveObjects(state, ZONE));
    const unasked = await cli('rollback', '--zone', ZONE);
    expect(unasked.code).toBe(1);
    expect(unasked.stderr).toBe('error: rollback asks for confirmation on a terminal; without one, pass --auto-approve (nothing was rolled back)\n');
    expect(unasked.stdout).toBe('');
    expect(ruleIds(await liveObjects(state, ZONE))).toEqual(applied);
    const back = await cli('rollback', '--zone', ZONE, '--auto-approve');
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(/^Rolled back e2e\.example\.com \(zone [0-9a-f]{32}\) to before the apply of \S+ \(bookmark \S+\)\.$/m);
    writeFileSync(file, v1);
    expect((await cli('plan', file, '--detailed-exitcode')).code).toBe(0);
    expect(ruleIds(await liveObjects(state, ZONE))).toEqual(first);
    const again = await cli('rollback', '--zone', ZONE);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('no apply to roll back for zone e2e.example.com');
  });
});
