/**
 * `zonewall migrate` end to end on the embedded engine: the built CLI as a child process, zones
 * created with `zonewall engine zone create`, the previous WAF set through the engine's v4 API,
 * and `zonewall plan --detailed-exitcode` on the rewritten manifest after every step (exit 0: no
 * changes). Professional (straight to new only), Enterprise (validation, then pending), and an
 * incompatible zone (URI-based override, deleted, then unblocked).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { withEngine, zonewall } from '../migrate/cli.js';

const OWASP = 'c504870194831cd12c3fc0284f294abb';
let dir: string;
let stateDir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-e2e-migrate-'));
  stateDir = path.join(dir, 'state');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Each CLI step spawns node; a busy two-core box needs room for several of them per test. */
const CliTimeout = 180_000;

const run = (...args: string[]) => zonewall([...args, '--state-dir', stateDir], { cwd: dir });

/** Creates a zone of a tier and sets its OWASP package. */
async function zone(name: string, plan: string, owasp: { sensitivity: string; action_mode: string }): Promise<string> {
  const created = await run('engine', 'zone', 'create', name, '--plan', plan);
  expect(created.code, created.stderr).toBe(0);
  return withEngine(stateDir, async (call, engine) => {
    const z = await engine.getZone(name);
    await call('PATCH', `/zones/${z!.id}/firewall/waf/packages/${OWASP}`, owasp);
    return z!.id;
  });
}

function write(file: string, text: string): string {
  const p = path.join(dir, file);
  fs.writeFileSync(p, text);
  return p;
}

async function expectEmptyPlan(file: string): Promise<void> {
  const plan = await run('plan', file, '--detailed-exitcode');
  expect(plan.code, `${plan.stdout}\n${plan.stderr}`).toBe(0);
}

describe('a Professional zone: straight to the new WAF only', () => {
  it('reports, refuses validation and an unforced finish, then finishes with --force', { timeout: CliTimeout }, async () => {
    await zone('pro.test', 'pro', { sensitivity: 'medium', action_mode: 'block' });
    const text = 'zone: pro.test   # the shop\n\n# previous WAF\nprevious_waf:\n  packages:\n    owasp: { sensitivity: medium, action_mode: block }\n';
    const file = write('pro.yaml', text);

    const dry = await run('migrate', file);
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('OWASP sensitivity: sensitivity medium → PL1, score threshold high (25)');
    expect(dry.stdout).toContain('+waf_migration: pending');
    expect(fs.readFileSync(file, 'utf8')).toBe(text);

    const validation = await run('migrate', file, '--mode', 'validation');
    expect(validation.code).toBe(1);
    expect(validation.stderr).toMatch(/Enterprise zones only; pro.test is on the pro plan/);

    const unforced = await run('migrate', file, '--mode', 'pending', '--write');
    expect(unforced.code).toBe(1);
    expect(unforced.stderr).toMatch(/cannot go back.*--force/);
    expect(fs.readFileSync(file, 'utf8')).toBe(text);

    const finished = await run('migrate', file, '--mode', 'pending', '--force', '--write');
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stdout).toContain('pro.test: previous WAF only -> new WAF only (migration finished)');
    // The hint repeats the provider flags, or a user following it would plan another provider's zone.
    expect(finished.stdout).toContain(`zonewall plan ${file} --state-dir ${stateDir} should now show no changes`);
    const after = fs.readFileSync(file, 'utf8');
    expect(after.startsWith('zone: pro.test   # the shop\n')).toBe(true);
    const js = parse(after);
    expect(js.previous_waf).toBeUndefined();
    expect(js.waf_migration).toBe('pending');
    expect(js.managed_rules.find((e: { ruleset: string }) => e.ruleset === 'owasp')).toMatchObject({ paranoia_level: 1, score_threshold: 'high', action: 'block' });
    await expectEmptyPlan(file);

    // A manifest still holding previous_waf is refused on the migrated zone, with the way out, which works.
    write('pro-stale.yaml', text);
    const stale = await run('plan', 'pro-stale.yaml');
    expect(stale.code, stale.stderr).toBe(1);
    expect(stale.stdout).toMatch(/ERROR\s+previous-waf-unavailable: the zone has migrated to the ruleset-based WAF \(state `new only`\): the previous WAF's APIs no longer answer/);
    // The command repeats the run's provider flags: without them it would read another zone.
    expect(stale.stdout).toContain(`run \`zonewall migrate pro-stale.yaml --state-dir ${stateDir} --write\` to rewrite the manifest (it replaces \`previous_waf\` by \`managed_rules\``);
    const refused = await run('apply', 'pro-stale.yaml', '--force');
    expect(refused.code).toBe(1);
    expect(`${refused.stdout}${refused.stderr}`).toContain('previous-waf-unavailable');
    const rewritten = await run('migrate', 'pro-stale.yaml', '--write');
    expect(rewritten.code, rewritten.stderr).toBe(0);
    expect(parse(fs.readFileSync(path.join(dir, 'pro-stale.yaml'), 'utf8')).previous_waf).toBeUndefined();
    await expectEmptyPlan('pro-stale.yaml');

    const status = await run('migrate', 'status', '--zone', 'pro.test');
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain('new WAF only (migration finished)');
  });
});

describe('an Enterprise zone: validation, then pending', () => {
  it('runs both WAFs, then finishes; plans are empty after each step', { timeout: CliTimeout }, async () => {
    await zone('ent.test', 'enterprise', { sensitivity: 'high', action_mode: 'simulate' });
    const file = write('ent.yaml', 'zone: ent.test\nprevious_waf:\n  packages:\n    owasp: { sensitivity: high, action_mode: simulate }\n');

    const validation = await run('migrate', file, '--mode', 'validation', '--write');
    expect(validation.code, validation.stderr).toBe(0);
    expect(validation.stdout).toContain('OWASP action: action_mode simulate → 949110 action log');
    expect(validation.stdout).toContain('ent.test: previous WAF only -> both WAFs (validation mode)');
    expect(parse(fs.readFileSync(file, 'utf8')).waf_migration).toBe('validation');
    await expectEmptyPlan(file);
    const both = await run('migrate', 'status', '--zone', 'ent.test', '--json');
    expect(JSON.parse(both.stdout)).toMatchObject({ kind: 'zonewall.migration-status', state: 'both', old_waf: 'enabled', new_waf: 'enabled' });

    const finished = await run('migrate', file, '--mode', 'pending', '--force', '--write');
    expect(finished.code, finished.stderr).toBe(0);
    expect(finished.stdout).toContain('both WAFs (validation mode) -> new WAF only (migration finished)');
    expect(parse(fs.readFileSync(file, 'utf8')).waf_migration).toBe('pending');
    await expectEmptyPlan(file);
  });
});

describe('an incompatible zone', () => {
  it('names the URI-based override and the command that deletes it; unblocked once deleted', { timeout: CliTimeout }, async () => {
    const id = await zone('blocked.test', 'enterprise', { sensitivity: 'low', action_mode: 'challenge' });
    const override = await withEngine(stateDir, (call) => call('POST', `/zones/${id}/firewall/waf/overrides`, {
      urls: ['blocked.test/admin/*'], rules: { '100514': 'disable' }, description: 'admin area',
    })) as { id: string };
    const file = write('blocked.yaml', 'zone: blocked.test\nprevious_waf:\n  packages:\n    owasp: { sensitivity: low, action_mode: challenge }\n');

    const refused = await run('migrate', file, '--mode', 'validation');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain(`${override.id}  blocked.test/admin/*  (admin area)`);
    // The hint repeats the run's provider flags, so it reaches the same zone.
    expect(refused.stdout).toContain(`zonewall migrate delete-overrides --zone blocked.test ${override.id} --state-dir ${stateDir} --force`);
    expect(refused.stderr).toContain(`then run zonewall migrate ${file} --state-dir ${stateDir} again`);

    const listed = await run('migrate', 'delete-overrides', '--zone', 'blocked.test', override.id);
    expect(listed.stdout).toContain(`would delete ${override.id}`);
    const deleted = await run('migrate', 'delete-overrides', '--zone', 'blocked.test', override.id, '--force');
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`deleted ${override.id}`);

    const migrated = await run('migrate', file, '--mode', 'validation', '--write');
    expect(migrated.code, migrated.stderr).toBe(0);
    await expectEmptyPlan(file);
  });
});
