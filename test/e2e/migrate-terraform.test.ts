/**
 * `zonewall migrate --from-terraform-state` end to end: a Terraform state holding every
 * previous-WAF resource type (package, group, rule, URI override) plus filters and firewall rules
 * becomes a manifest; applied to an embedded-engine zone it plans empty; then the same manifest
 * migrates (validation, then pending) with an empty plan after each step.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { root, zonewall } from '../migrate/cli.js';

const fixtures = path.join(root, 'examples', 'terraform');
let dir: string;
let stateDir: string;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-e2e-tf-'));
  stateDir = path.join(dir, 'state');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Each CLI step spawns node; a busy two-core box needs room for several of them per test. */
const CliTimeout = 180_000;

const run = (...args: string[]) => zonewall([...args, '--state-dir', stateDir], { cwd: dir });

describe('from a .tfstate with svc_ resources to a migrated zone', () => {
  it('converts, applies, migrates, and plans empty after each step', { timeout: CliTimeout }, async () => {
    expect((await run('engine', 'zone', 'create', 'tf.test', '--plan', 'enterprise')).code).toBe(0);
    const file = path.join(dir, 'tf.yaml');
    const converted = await zonewall(['migrate', file, '--from-terraform-state', path.join(fixtures, 'svc-previous-waf.tfstate'), '--zone', 'tf.test', '--write'], { cwd: dir });
    expect(converted.code, converted.stderr).toBe(0);
    expect(converted.stdout).toContain('blocker  svc_waf_override.admin: URI-based WAF override de677e5818985db1285d0e80225f06e5');
    expect(converted.stdout).toContain('terraform state rm -dry-run svc_filter.api_paths');
    const manifest = parse(fs.readFileSync(file, 'utf8'));
    expect(Object.keys(manifest.previous_waf)).toEqual(['packages', 'groups', 'rules']);

    const again = await zonewall(['migrate', file, '--from-terraform-state', path.join(fixtures, 'svc-previous-waf.tfstate'), '--zone', 'tf.test', '--write'], { cwd: dir });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists.*--force/);

    const applied = await run('apply', file, '--auto-approve', '--force');
    expect(applied.code, `${applied.stdout}\n${applied.stderr}`).toBe(0);
    let plan = await run('plan', file, '--detailed-exitcode');
    expect(plan.code, plan.stdout).toBe(0);

    const validation = await run('migrate', file, '--mode', 'validation', '--write');
    expect(validation.code, `${validation.stdout}\n${validation.stderr}`).toBe(0);
    expect(validation.stdout).toMatch(/recreate by hand\s+OWASP group 07d700cf30fda7548be94ff01087d0c4/);
    expect(validation.stdout).toMatch(/recreate by hand\s+OWASP rule 990012/);
    expect(validation.stdout).toMatch(/maps\s+vendor group c956a7bf4225adc26448b0badc12f17a \(Cloudflare WordPress\)/);
    expect(validation.stdout).toMatch(/maps\s+Migrated from firewall rule/);
    expect(validation.stdout).not.toMatch(/^\s+differs/m);
    plan = await run('plan', file, '--detailed-exitcode');
    expect(plan.code, plan.stdout).toBe(0);

    const finished = await run('migrate', file, '--mode', 'pending', '--force', '--write');
    expect(finished.code, finished.stderr).toBe(0);
    plan = await run('plan', file, '--detailed-exitcode');
    expect(plan.code, plan.stdout).toBe(0);
    const final = fs.readFileSync(file, 'utf8');
    expect(final).toContain('# from svc_filter.api_paths\n  api-traffic:');
    expect(parse(final).previous_waf).toBeUndefined();
  });
});

describe('from terraform show -json with cloudflare_ resources', () => {
  it('prints the manifest on stdout and the report on stderr', { timeout: CliTimeout }, async () => {
    const r = await zonewall(['migrate', '--from-terraform-state', path.join(fixtures, 'cloudflare-show.json')], { cwd: dir });
    expect(r.code, r.stderr).toBe(0);
    const manifest = parse(r.stdout);
    expect(manifest.zone).toBe('shop.example');
    expect(manifest.previous_waf.rules).toEqual({ WP0025B: 'block', '100514': 'simulate' });
    expect(manifest.managed_rules).toHaveLength(2);
    expect(r.stderr).toContain('module.waf.cloudflare_waf_override.legacy: URI-based WAF override a27cece9ec0e4af39ae9c58e3326e2b6');
    fs.writeFileSync(path.join(dir, 'shop.yaml'), r.stdout);
    const validated = await zonewall(['validate', path.join(dir, 'shop.yaml')], { cwd: dir });
    expect(validated.code, validated.stdout).toBe(0);
  });
});

describe('a state holding values no manifest accepts', () => {
  it('fails with each problem and writes nothing, with --write or without', { timeout: CliTimeout }, async () => {
    const state = path.join(dir, 'garbage.tfstate');
    fs.writeFileSync(state, JSON.stringify({
      version: 4,
      resources: [{ mode: 'managed', type: 'svc_waf_package', name: 'p', instances: [{ attributes: { zone_id: 'z1', package_id: 'a25a9a7e9c00afc1fb2e0245519d725b', sensitivity: 'extreme', action_mode: 'block' } }] }],
    }));
    const file = path.join(dir, 'garbage.yaml');
    const written = await zonewall(['migrate', file, '--from-terraform-state', state, '--write'], { cwd: dir });
    expect(written.code).toBe(1);
    expect(written.stderr).toMatch(/previous_waf\.packages\.\S+\.sensitivity: must be one of high, medium, low, off \(got "extreme"\)/);
    expect(fs.existsSync(file)).toBe(false);
    const printed = await zonewall(['migrate', '--from-terraform-state', state], { cwd: dir });
    expect(printed.code).toBe(1);
    expect(printed.stdout).toContain('sensitivity: extreme');
    expect(printed.stderr).toContain('is not valid (1 problem(s))');
  });
});
