/**
 * `zonewall test` end to end: the CLI in a child process. Offline runs of the examples (cases found
 * in examples/tests/), a failing case (exit 1, the row names the rule that matched and why), JSON
 * output, a cases file with errors (each located, with the line and a caret run), usage errors,
 * and `--against-zone` on the embedded engine after `zonewall apply`.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputOf } from '../helpers/e2e-cli.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const launcher = fileURLToPath(new URL('../policy/zonewall-cli.ts', import.meta.url));

interface Run { code: number | null; stdout: string; stderr: string }

function cli(args: string[], cwd = root): Promise<Run> {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
  for (const k of ['ZONEWALL_API_URL', 'ZONEWALL_API_TOKEN', 'ZONEWALL_AUTH_EMAIL', 'ZONEWALL_AUTH_KEY']) delete env[k];
  const child = spawn(process.execPath, ['--import', 'tsx', launcher, ...args], { cwd, env });
  return outputOf(child);
}

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'zw-test-cmd-'));
  mkdirSync(join(dir, 'tests'));
  writeFileSync(join(dir, 'shop.yaml'), `zone: shop.example.com
plan: business
firewall_rules:
  allow-health:
    action: allow
    filter:
      expression: http.request.uri.path eq "/healthz"
  block-admin:
    action: block
    filter:
      expression: starts_with(http.request.uri.path, "/admin") and not ip.src in {192.0.2.0/24}
`);
  writeFileSync(join(dir, 'tests', 'shop.tests.yaml'), `zone: shop.example.com
defaults:
  request: { headers: { User-Agent: Mozilla/5.0 } }
cases:
  - name: admin from outside is blocked
    request: { path: /admin, ip: 203.0.113.9 }
    expect: { action: block, matched: firewall_rules.block-admin }
  - name: the health check is allowed
    request: { path: /healthz, ip: 203.0.113.9 }
    expect: { action: allow }
`);
  writeFileSync(join(dir, 'failing.tests.yaml'), `- name: admin from outside is allowed
  request: { path: /admin/users, ip: 203.0.113.9, headers: { User-Agent: Mozilla/5.0 } }
  expect: { allowed: true }
`);
  writeFileSync(join(dir, 'broken.tests.yaml'), `- name: typo
  request: { path: /x, methd: GET }
  expect: { action: blok }
`);
});
afterAll(() => { rmSync(dir, { recursive: true, force: true }); });

// Each test runs the CLI in child processes: generous on a loaded machine, and bounded.
describe('offline', { timeout: 120_000 }, () => {
  it('runs every example with its cases and exits 0', async () => {
    const run = await cli(['test', 'examples/']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^zone enterprise\.example\.com \(examples\/enterprise-migration\.yaml\), cases examples\/tests\/enterprise-migration\.tests\.yaml, offline$/m);
    expect(run.stdout).toMatch(/^total: \d+ passed, 0 failed in 8 zones$/m);
    expect(run.stdout).toMatch(/^zone custom\.example\.com \(examples\/custom-rules\.yaml\), cases examples\/tests\/custom-rules\.tests\.yaml, offline$/m);
    expect(run.stdout).not.toContain('\u001b[');
  });

  it('a failing case exits 1 and shows the rule that matched, why, and where the case is', async () => {
    const run = await cli(['test', join(dir, 'shop.yaml'), '--cases', join(dir, 'failing.tests.yaml')]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/ {2}FAIL {4}admin from outside is allowed +allowed +block +firewall_rules\.block-admin\n/);
    expect(run.stdout).toContain(`${join(dir, 'failing.tests.yaml')}:1:9: expected the request to be allowed, got block by firewall_rules.block-admin`);
    expect(run.stdout).toContain('why: firewall_rules.block-admin (block): starts_with(http.request.uri.path, "/admin") and not ip.src in {192.0.2.0/24}');
    expect(run.stdout).toContain('0 passed, 1 failed');
  });

  it('--json prints the results for machines', async () => {
    const run = await cli(['test', join(dir, 'shop.yaml'), '--json']);
    expect(run.code).toBe(0);
    const doc = JSON.parse(run.stdout) as { passed: boolean; reports: { zone: string; mode: string; results: { name: string; pass: boolean; actual: { rule: string } }[] }[] };
    expect(doc.passed).toBe(true);
    expect(doc.reports[0]!.mode).toBe('offline');
    expect(doc.reports[0]!.results.map((r) => [r.name, r.pass, r.actual.rule])).toEqual([
      ['admin from outside is blocked', true, 'firewall_rules.block-admin'],
      ['the health check is allowed', true, 'firewall_rules.allow-health'],
    ]);
  });

  it('an invalid cases file exits 1 with every error located', async () => {
    const run = await cli(['test', join(dir, 'shop.yaml'), '--cases', join(dir, 'broken.tests.yaml')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${join(dir, 'broken.tests.yaml')}:2:24: [0].request.methd: unknown property "methd"; did you mean "method"?`);
    expect(run.stderr).toContain(`${join(dir, 'broken.tests.yaml')}:3:21: [0].expect.action: must be one of block, challenge`);
    expect(run.stderr).toMatch(/ 3 \| {3}expect: \{ action: blok \}\n +\| +\^\^\^\^\n/);
  });

  it('--cases with several manifests is a usage error', async () => {
    const run = await cli(['test', 'examples/quickstart.yaml', 'examples/shared-filters.yaml', '--cases', join(dir, 'failing.tests.yaml')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error: --cases names the cases of one manifest, but 2 paths were given');
  });
});

describe('--against-zone', { timeout: 120_000 }, () => {
  it('after apply, the live zone gives the offline answers; a zone never applied fails', async () => {
    const state = join(dir, 'state');
    const applied = await cli(['apply', join(dir, 'shop.yaml'), '--auto-approve', '--state-dir', state]);
    expect(applied.code).toBe(0);
    const live = await cli(['test', join(dir, 'shop.yaml'), '--against-zone', '--state-dir', state]);
    expect(live.stderr).toBe('');
    expect(live.code).toBe(0);
    expect(live.stdout).toContain('zone shop.example.com');
    expect(live.stdout).toContain('against the live zone');
    expect(live.stdout).toContain('2 passed, 0 failed');
    const missing = await cli(['test', 'examples/quickstart.yaml', '--against-zone', '--state-dir', state]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('zone "quickstart.example.com" not found');
  });

  it('a zone the service does not have fails its own manifest, as in plan: the other zones are still tested', async () => {
    const state = join(dir, 'state-two');
    const two = join(dir, 'two');
    mkdirSync(two);
    // Sorted first, so that the run meets the missing zone before the applied one.
    writeFileSync(join(two, 'a-missing.yaml'), 'zone: missing.example.com\nplan: business\nfirewall_rules:\n  r:\n    action: block\n    filter: {expression: ip.src eq 192.0.2.1}\n');
    writeFileSync(join(two, 'a-missing.tests.yaml'), '- name: blocked\n  request: { ip: 192.0.2.1 }\n  expect: { action: block }\n');
    writeFileSync(join(two, 'shop.yaml'), readFileSync(join(dir, 'shop.yaml'), 'utf8'));
    writeFileSync(join(two, 'shop.tests.yaml'), readFileSync(join(dir, 'tests', 'shop.tests.yaml'), 'utf8'));
    expect((await cli(['apply', join(two, 'shop.yaml'), '--auto-approve', '--state-dir', state])).code).toBe(0);
    const run = await cli(['test', two, '--against-zone', '--state-dir', state]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`${join(two, 'a-missing.yaml')}: zone "missing.example.com" not found`);
    expect(run.stdout).toContain('zone shop.example.com');
    expect(run.stdout).toContain('2 passed, 0 failed');
    const json = await cli(['test', two, '--against-zone', '--state-dir', state, '--json']);
    const doc = JSON.parse(json.stdout) as { reports: { zone: string }[]; errors: { file: string; message: string }[] };
    expect(doc.reports.map((r) => r.zone)).toEqual(['shop.example.com']);
    expect(doc.errors).toEqual([expect.objectContaining({ file: join(two, 'a-missing.yaml'), message: expect.stringContaining('zone "missing.example.com" not found') })]);
  });
});
