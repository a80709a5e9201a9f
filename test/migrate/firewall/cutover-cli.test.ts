/**
 * `zonewall migrate firewall-cutover` end to end (the built CLI in a child process, the embedded
 * engine in a temp state directory): the three steps on a zone that runs the firewall rules, the
 * manifest and cases rewritten afterwards, the next plan empty; no terminal without
 * `--auto-approve` refuses before any write; a proof difference refuses without `--force`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, tempDir, zonewall } from '../../helpers/e2e-cli.js';

const manifest = `zone: cut.example.com
plan: enterprise
filters:
  api: { expression: 'starts_with(http.request.uri.path, "/api")' }
firewall_rules:
  allow-office: { action: allow, filter: { expression: 'ip.src in {203.0.113.0/24}' } }
  challenge-api: { action: managed_challenge, filter: api, priority: 10 }
  block-bots: { action: block, filter: { expression: 'http.user_agent contains "badbot"' }, priority: 20 }
`;
const cases = `cases:
  - name: outsiders are challenged on the API
    request: { path: /api/orders, ip: 198.51.100.1 }
    expect: { action: managed_challenge, matched: firewall_rules.challenge-api }
`;

let dir: string;
let cleanup: () => void;
beforeAll(() => {
  requireBuild();
  ({ dir, cleanup } = tempDir('fw-cutover'));
});
afterAll(() => cleanup());

describe('zonewall migrate firewall-cutover', () => {
  it('stages, enables and removes on the live zone, then rewrites the manifest and cases; the next plan is empty', async () => {
    const path = join(dir, 'cut.yaml');
    writeFileSync(path, manifest);
    writeFileSync(join(dir, 'cut.tests.yaml'), cases);
    const state = join(dir, 'state');
    expect((await zonewall(['apply', path, '--state-dir', state, '--auto-approve'])).code).toBe(0);
    const noTty = await zonewall(['migrate', 'firewall-cutover', path, '--state-dir', state]);
    expect(noTty.code).not.toBe(0);
    expect(noTty.stderr).toContain('pass --auto-approve (nothing was applied)');
    const run = await zonewall(['migrate', 'firewall-cutover', path, '--state-dir', state, '--auto-approve']);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('every verdict is the same');
    expect(run.stdout).toMatch(/Step 1\/3 \(stage\)[\s\S]*Step 2\/3 \(enable\)[\s\S]*Step 3\/3 \(remove\)/);
    expect(run.stdout).toContain('Cutover done: cut.example.com runs 3 converted custom rule(s)');
    expect(readFileSync(path, 'utf8')).not.toContain('firewall_rules:');
    expect(readFileSync(join(dir, 'cut.tests.yaml'), 'utf8')).toContain('custom_rules.challenge-api');
    expect((await zonewall(['plan', path, '--state-dir', state, '--detailed-exitcode'])).code).toBe(0);
    expect((await zonewall(['test', path, '--state-dir', state])).code).toBe(0);
  });

  it('refuses a conversion that cannot carry over, before any step; nothing on the zone changes', async () => {
    // Free plan: 5 active firewall rules + 1 paused fit, but custom rules count the disabled one too (quota 5).
    const rules = Array.from({ length: 6 }, (_, i) => `  r${i}: { action: block, filter: { expression: 'http.request.uri.path eq "/p${i}"' }, priority: ${i + 1}${i === 5 ? ', paused: true' : ''} }`).join('\n');
    const path = join(dir, 'free.yaml');
    writeFileSync(path, `zone: free.example.com\nplan: free\nfirewall_rules:\n${rules}\n`);
    const state = join(dir, 'state-free');
    expect((await zonewall(['apply', path, '--state-dir', state, '--auto-approve'])).code).toBe(0);
    const run = await zonewall(['migrate', 'firewall-cutover', path, '--state-dir', state, '--auto-approve']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('error: nothing cut over: 1 finding(s) cannot be carried over exactly');
    expect(run.stdout).not.toContain('Step 1/3');
    expect((await zonewall(['plan', path, '--state-dir', state, '--detailed-exitcode'])).code).toBe(0);
  });
  it('checks the quota against the live zone\'s plan when the manifest names none, before any step', async () => {
    // The same free zone, its manifest without `plan:`: the stage step used to refuse it, at a line of
    // the rewritten text that is not on disk (free.yaml:19:3 in a file of 9 lines).
    const rules = Array.from({ length: 6 }, (_, i) => `  r${i}: { action: block, filter: { expression: 'http.request.uri.path eq "/p${i}"' }, priority: ${i + 1}${i === 5 ? ', paused: true' : ''} }`).join('\n');
    const path = join(dir, 'noplan.yaml');
    const state = join(dir, 'state-noplan');
    expect((await zonewall(['engine', 'zone', 'create', 'noplan.example.com', '--plan', 'free', '--state-dir', state])).code).toBe(0);
    writeFileSync(path, `zone: noplan.example.com\nfirewall_rules:\n${rules}\n`);
    expect((await zonewall(['apply', path, '--state-dir', state, '--auto-approve'])).code).toBe(0);
    const run = await zonewall(['migrate', 'firewall-cutover', path, '--state-dir', state, '--auto-approve']);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('the free plan allows 5 custom rules');
    expect(run.stderr).toContain('error: nothing cut over: 1 finding(s) cannot be carried over exactly');
    expect(run.stdout).not.toContain('Step 1/3');
    expect((await zonewall(['plan', path, '--state-dir', state, '--detailed-exitcode'])).code).toBe(0);
  });
});
