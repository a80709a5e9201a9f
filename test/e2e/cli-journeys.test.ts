/**
 * A new user's journeys through the built CLI where the README's commands met a fresh checkout:
 * `export --out` into a directory that does not exist yet, a saved plan that was cut short, and a
 * remote plan of a zone the service does not have (remote APIs never create zones).
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { requireBuild, startServe, tempDir, writeManifest, zonewall } from '../helpers/e2e-cli.js';

const Manifest = `zone: journey.example
filters:
  api:
    expression: http.request.uri.path matches "^/api/"
firewall_rules:
  block-api:
    action: block
    filter: api
`;

let tmp: ReturnType<typeof tempDir>;
beforeEach(() => { requireBuild(); tmp = tempDir('journeys'); });
afterEach(() => tmp.cleanup());

describe('CLI journeys of a new user', () => {
  it('a command run from a subdirectory uses the project\'s .zonewall (found upward), not a new empty engine', async () => {
    const project = join(tmp.dir, 'project');
    const zones = join(project, 'zones', 'prod');
    mkdirSync(zones, { recursive: true });
    // The project's state directory (an empty one is made here so that the lookup cannot climb past the temp directory).
    mkdirSync(join(project, '.zonewall'));
    writeManifest(zones, 'journey.yaml', Manifest);
    const applied = await zonewall(['apply', 'zones/prod/journey.yaml', '--auto-approve'], { cwd: project });
    expect(applied.code, applied.stderr).toBe(0);
    const plan = await zonewall(['plan', 'journey.yaml', '--detailed-exitcode'], { cwd: zones });
    expect(plan.code, plan.stdout + plan.stderr).toBe(0);
    expect(plan.stdout).toContain(`(zone `);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.stderr).not.toContain('not in the embedded engine');
    const list = await zonewall(['engine', 'zone', 'list'], { cwd: zones });
    expect(list.stdout).toContain('journey.example');
    expect(existsSync(join(zones, '.zonewall'))).toBe(false);
  });

  it('a first plan, before any state directory exists, writes nothing: no .zonewall, no leftover temporary engine', async () => {
    const project = join(tmp.dir, 'fresh');
    const scratch = join(tmp.dir, 'tmp');
    mkdirSync(project);
    mkdirSync(scratch);
    writeManifest(project, 'journey.yaml', Manifest);
    const plan = await zonewall(['plan', 'journey.yaml', '--state-dir', 'state', '--detailed-exitcode'], { cwd: project, env: { TMPDIR: scratch } });
    expect(plan.code, plan.stderr).toBe(2);
    expect(plan.stdout).toContain('Plan: 2 to add');
    expect(plan.stderr).toContain('zone journey.example is not in the embedded engine at state yet');
    expect(readdirSync(project)).toEqual(['journey.yaml']);
    expect(readdirSync(scratch)).toEqual([]);
    // A plan saved then is applied as it is: apply writes, so it makes the state directory.
    expect((await zonewall(['plan', 'journey.yaml', '--state-dir', 'state', '--out', '../plan.json'], { cwd: project })).code).toBe(0);
    expect(readdirSync(project)).toEqual(['journey.yaml']);
    const applied = await zonewall(['apply', '../plan.json', '--state-dir', 'state', '--auto-approve'], { cwd: project });
    expect(applied.code, applied.stderr).toBe(0);
    expect(readdirSync(project).sort()).toEqual(['journey.yaml', 'state']);
    expect((await zonewall(['plan', 'journey.yaml', '--state-dir', 'state', '--detailed-exitcode'], { cwd: project })).code).toBe(0);
  });

  it('export --out creates the missing directory (zones/NAME.yaml in a fresh repository)', async () => {
    const state = join(tmp.dir, 'state');
    const file = writeManifest(tmp.dir, 'zone.yaml', Manifest);
    expect((await zonewall(['apply', file, '--auto-approve', '--state-dir', state])).code).toBe(0);
    const out = join(tmp.dir, 'zones', 'journey.example.yaml');
    const run = await zonewall(['export', '--zone', 'journey.example', '--state-dir', state, '--out', out]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('zone: journey.example');
    expect(readdirSync(join(tmp.dir, 'zones'))).toEqual(['journey.example.yaml']);
    const plan = await zonewall(['plan', out, '--state-dir', state, '--detailed-exitcode']);
    expect(plan.code).toBe(0);
  });

  it('a truncated saved plan is named as such, not read as a broken YAML manifest', async () => {
    const state = join(tmp.dir, 'state');
    const file = writeManifest(tmp.dir, 'zone.yaml', Manifest);
    const saved = join(tmp.dir, 'plan.json');
    expect((await zonewall(['plan', file, '--state-dir', state, '--out', saved])).code).toBe(0);
    // A plan writes no state: the state directory is made by the apply below.
    expect(readdirSync(tmp.dir).sort()).toEqual(['plan.json', 'zone.yaml']);
    writeFileSync(saved, readFileSync(saved, 'utf8').slice(0, 400));
    const run = await zonewall(['apply', saved, '--auto-approve', '--state-dir', state]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${saved} is a zonewall plan but not valid JSON`);
    expect(run.stderr).toContain('plan again with zonewall plan --out');
    expect(run.stderr).not.toMatch(/Flow map|Missing closing/);
    expect(run.stdout).not.toContain('Apply complete');
  });

  it('plan --out to a path that cannot be written fails cleanly and leaves no file', async () => {
    const state = join(tmp.dir, 'state');
    const file = writeManifest(tmp.dir, 'zone.yaml', Manifest);
    writeFileSync(join(tmp.dir, 'blocker'), 'a file where a directory would be');
    const saved = join(tmp.dir, 'blocker', 'plan.json');
    const run = await zonewall(['plan', file, '--state-dir', state, '--out', saved]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`cannot write the plan to ${saved}`);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(readdirSync(tmp.dir).filter((f) => f.startsWith('blocker') || f.endsWith('.tmp'))).toEqual(['blocker']);
  });

  it('a remote plan of a zone the service lacks says remote APIs never create zones, without the token', async () => {
    const served = await startServe(join(tmp.dir, 'serve-state'), 'journey-secret-token-0123456789abcdef');
    try {
      const file = writeManifest(tmp.dir, 'zone.yaml', Manifest);
      const run = await zonewall(['plan', file, '--remote', served.url], { env: { ZONEWALL_API_TOKEN: served.token } });
      expect(run.code).toBe(1);
      const all = run.stdout + run.stderr;
      expect(all).toContain('zone "journey.example" not found');
      expect(all).toContain('or not visible to this token');
      expect(all).toContain('zonewall never creates zones on a remote API');
      expect(all).not.toContain(served.token);
      const wrong = await zonewall(['plan', file, '--remote', served.url], { env: { ZONEWALL_API_TOKEN: 'journey-wrong-token-0123456789' } });
      expect(wrong.code).toBe(1);
      expect(wrong.stdout + wrong.stderr).toContain('HTTP 403');
      expect(wrong.stdout + wrong.stderr).not.toContain('journey-wrong-token');
    } finally {
      await served.stop();
    }
  });
});
