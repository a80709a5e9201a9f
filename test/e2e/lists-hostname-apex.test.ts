/**
 * A hostname list whose `*.` item also matches the bare domain (`exclude_exact_hostname: false`),
 * end to end with the real CLI on the embedded engine: applied with the flag, planned clean, exported
 * with it (the export plans nothing), and `zonewall test` agrees offline and against the zone.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, tempDir, zonewall } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  requireBuild();
  tmp = tempDir('lists-apex');
});
afterAll(() => tmp.cleanup());

const accountText = [
  'account: zonewall engine', 'lists:', '  tenants:', '    kind: hostname', '    items:',
  '      - { value: "*.example.org", exclude_exact_hostname: false }', '      - "*.example.net"', '',
].join('\n');
const zoneText = [
  'zone: apex.example.com', 'plan: enterprise', 'custom_rules:', '  tenants:', '    action: block',
  '    expression: http.host in $tenants', '',
].join('\n');
const casesText = [
  'zone: apex.example.com', 'cases:',
  '  - { name: the bare org domain is in the list, request: { fields: { http.host: example.org } }, expect: { action: block } }',
  '  - { name: an org subdomain too, request: { fields: { http.host: a.example.org } }, expect: { action: block } }',
  '  - { name: a net subdomain too, request: { fields: { http.host: a.example.net } }, expect: { action: block } }',
  '  - { name: the bare net domain is not (the default), request: { fields: { http.host: example.net } }, expect: { allowed: true } }',
  '',
].join('\n');

describe('exclude_exact_hostname end to end', () => {
  it('applies, plans clean, exports the flag, and tests agree offline and against the zone', { timeout: 300_000 }, async () => {
    const dir = join(tmp.dir, 'm');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'account.yaml'), accountText);
    writeFileSync(join(dir, 'apex.example.com.yaml'), zoneText);
    writeFileSync(join(dir, 'apex.example.com.tests.yaml'), casesText);
    const state = ['--state-dir', join(tmp.dir, 'state')];

    const offline = await zonewall(['test', dir, '--json']);
    expect((JSON.parse(offline.stdout) as { reports: { passed: number; failed: number }[] }).reports.map((r) => [r.passed, r.failed])).toEqual([[4, 0]]);

    const applied = await zonewall(['apply', dir, '--auto-approve', ...state]);
    expect(applied.code).toBe(0);
    const clean = await zonewall(['plan', dir, '--detailed-exitcode', ...state]);
    expect(clean.stdout).toContain('No changes. The lists match the account manifest.');
    expect(clean.code).toBe(0);
    const live = await zonewall(['test', dir, '--against-zone', '--json', ...state]);
    expect((JSON.parse(live.stdout) as { reports: { passed: number; failed: number }[] }).reports.map((r) => [r.passed, r.failed])).toEqual([[4, 0]]);

    const exported = join(tmp.dir, 'exported');
    const ex = await zonewall(['export', '--account', 'zonewall engine', '--out', join(exported, 'account.yaml'), ...state]);
    expect(ex.code).toBe(0);
    const text = readFileSync(join(exported, 'account.yaml'), 'utf8');
    expect(text).toMatch(/value: "\*\.example\.org"\n\s+exclude_exact_hostname: false/);
    expect(text).not.toMatch(/example\.net"?\n\s+exclude_exact_hostname/);
    writeFileSync(join(exported, 'apex.example.com.yaml'), zoneText);
    const round = await zonewall(['plan', exported, '--detailed-exitcode', ...state]);
    expect(round.stdout).toContain('No changes. The lists match the account manifest.');
    expect(round.code).toBe(0);

    // Back to the default: one item write, and the zone then leaves example.org alone.
    writeFileSync(join(dir, 'account.yaml'), accountText.replace(', exclude_exact_hostname: false', ''));
    const flip = await zonewall(['plan', dir, ...state]);
    expect(flip.stdout).toContain('~ *.example.org exclude_exact_hostname: false -> true');
    expect((await zonewall(['apply', dir, '--auto-approve', ...state])).code).toBe(0);
    expect((await zonewall(['plan', dir, '--detailed-exitcode', ...state])).code).toBe(0);
  });
});
