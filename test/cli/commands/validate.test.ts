import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { main } from '../../../src/cli/main.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'zonewall-validate-')); });
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
  process.exitCode = undefined;
  vi.restoreAllMocks();
});

/** Runs `zonewall ...args` in-process; returns the exit code and what it printed. */
async function run(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  vi.spyOn(process.stdout, 'write').mockImplementation((s: string | Uint8Array) => { out += String(s); return true; });
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => { err += String(s); return true; });
  process.exitCode = undefined;
  const code = await main(['node', 'zonewall', ...args]);
  vi.restoreAllMocks();
  return { code, out, err };
}

describe('zonewall validate', () => {
  it('exits 0 and summarises valid manifests (a directory works like a file)', async () => {
    const r = await run('validate', 'examples');
    expect(r.code).toBe(0);
    expect(r.out).toContain('ok examples/quickstart.yaml: zone quickstart.example.com (2 filters, 2 firewall rules)');
    expect(r.out.trim().split('\n').at(-1)).toMatch(/^\d+ manifests valid$/);
    // Every kind a manifest holds is counted (rate limiting rules and managed exceptions were left out).
    expect(r.out).toMatch(/ok examples\/rate-limiting\.yaml: zone ratelimit\.example\.com \(0 filters, 0 firewall rules, 1 custom rule, \d+ rate limiting rules\)/);
    expect(r.out).toMatch(/ok examples\/managed-exceptions\.yaml: zone \S+ \(.*\d+ managed exceptions?/);
  });

  it('prints every error of every file with the line and a caret run, and exits 1', async () => {
    const a = join(dir, 'a.yaml');
    const b = join(dir, 'b.yaml');
    writeFileSync(a, 'zone: a\nfirewall_rules:\n  block-sqlmap:\n    action: blok\n    filter: {expression: http.user_agent contains "sqlmap"}\n');
    writeFileSync(b, 'zone: b\nplan: gold\n');
    const r = await run('validate', a, b, 'examples/quickstart.yaml');
    expect(r.code).toBe(1);
    expect(r.out).toContain([
      `${a}:4:13: firewall_rules.block-sqlmap.action: must be one of block, challenge, js_challenge, managed_challenge, allow, log, bypass (got "blok"; did you mean "block"?)`,
      ' 4 |     action: blok',
      '   |             ^^^^',
    ].join('\n'));
    expect(r.out).toContain(`${b}:2:7: plan: must be one of free, pro, business, enterprise (got "gold")`);
    expect(r.out.trim().split('\n').at(-1)).toBe('2 errors in 2 of 3 files');
  });

  it('prints no "ok" line for a zone whose file has an error found after loading (an unknown $list)', async () => {
    writeFileSync(join(dir, 'account.yaml'), 'account: zonewall engine\nlists:\n  office:\n    kind: ip\n    items: [192.0.2.0/24]\n');
    writeFileSync(join(dir, 'z.yaml'), 'zone: z.example.com\ncustom_rules:\n  a:\n    action: block\n    expression: ip.src in $offices\n');
    const r = await run('validate', dir);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${join(dir, 'z.yaml')}:5:27: custom_rules.a.expression: unknown list $offices`);
    expect(r.out).not.toContain(`ok ${join(dir, 'z.yaml')}`);
    expect(r.out).toContain(`ok ${join(dir, 'account.yaml')}: account zonewall engine (1 list, 1 item)`);
    expect(r.out.trim().split('\n').at(-1)).toBe('1 error in 1 of 2 files');
  });

  it('checks plan-dependent features with --plan', async () => {
    const f = join(dir, 'z.yaml');
    writeFileSync(f, 'zone: z\nfirewall_rules:\n  audit:\n    action: log\n    filter: {expression: ssl}\n');
    expect((await run('validate', f)).code).toBe(0);
    const r = await run('validate', '--plan', 'pro', f);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${f}:4:13: firewall_rules.audit.action: log needs an Enterprise plan (the zone is on the pro plan)`);
  });

  it('prints JSON with --json', async () => {
    const f = join(dir, 'z.yaml');
    writeFileSync(f, 'zone: z\nwaf_migration: soon\n');
    const r = await run('validate', '--json', f, join(dir, 'missing.yaml'));
    expect(r.code).toBe(1);
    const json = JSON.parse(r.out) as { valid: boolean; errors: unknown[] };
    expect(json.valid).toBe(false);
    expect(json.errors).toEqual([
      { file: join(dir, 'missing.yaml'), line: 0, column: 0, path: '', message: 'no such file or directory' },
      { file: f, line: 2, column: 16, path: 'waf_migration', message: 'must be one of none, validation, pending (got "soon")' },
    ]);
  });

  it('counts every section of a zone in --json, as the text does (custom and rate limiting rules were left out)', async () => {
    const r = await run('validate', '--json', 'examples/rate-limiting.yaml', 'examples/managed-exceptions.yaml');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out) as { zones: Record<string, unknown>[] };
    expect(json.zones[0]).toMatchObject({ file: 'examples/rate-limiting.yaml', filters: 0, firewall_rules: 0, custom_rules: 1, rate_limiting_rules: 2, managed_rules: null });
    expect(json.zones[1]).toMatchObject({ file: 'examples/managed-exceptions.yaml', custom_rules: null, rate_limiting_rules: null, managed_rules: 2, managed_exceptions: 1 });
  });

  it('refuses an unknown --plan', async () => {
    const r = await run('validate', '--plan', 'gold', 'examples');
    expect(r.code).toBe(1);
    expect(r.err).toContain('--plan must be one of free, pro, business, enterprise, got gold');
  });

  it('refuses --json with another --format (it picked SARIF silently), as plan refuses --json with --markdown', async () => {
    const r = await run('validate', '--json', '--format', 'sarif', 'examples/quickstart.yaml');
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toContain('choose one of --json and --format sarif');
    expect((await run('validate', '--json', '--format', 'json', 'examples/quickstart.yaml')).code).toBe(0);
  });
});
