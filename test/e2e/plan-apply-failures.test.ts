/**
 * `zonewall apply` when it must not, or cannot, finish: the seed's quota case (found at plan time,
 * counting the rules outside the manifest, so nothing is written), unsafe plans refused without `--force`,
 * the mass-deletion threshold, confirmation without a terminal, and a zone locked by another apply.
 * The built CLI in a child process on the embedded engine.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { liveObjects, requireBuild, tempDir, v4, withEngine, writeManifest, zonewall } from '../helpers/e2e-cli.js';
import { active, planJson, v1, ZONE } from '../helpers/e2e-manifests.js';

let tmp: ReturnType<typeof tempDir>;
let state: string;
const cli = (...args: string[]) => zonewall([...args, '--state-dir', state]);

beforeAll(() => requireBuild());
beforeEach(() => { tmp = tempDir('fail'); state = join(tmp.dir, 'state'); });
afterEach(() => tmp.cleanup());

describe('apply failures', () => {
  it('the quota case is found at plan time: rules outside the manifest count, nothing is written', async () => {
    const file = writeManifest(tmp.dir, 'free.yaml', 'zone: quota.example.com\nplan: free\nfirewall_rules:\n  block-one:\n    action: block\n    filter:\n      expression: ip.src eq 192.0.2.1\n');
    // A free zone allows 5 active rules; another tool already uses all 5.
    const other = await withEngine(state, async (engine) => {
      const zone = await engine.createZone('quota.example.com', { plan: 'free' });
      const filters = await v4<{ id: string }[]>(engine, 'POST', `/zones/${zone.id}/filters`, [1, 2, 3, 4, 5].map((i) => ({ expression: `ip.src eq 198.51.100.${i}` })));
      const rules = await v4<{ id: string }[]>(engine, 'POST', `/zones/${zone.id}/firewall/rules`, filters.map((f, i) => ({ action: 'block', priority: i + 10, filter: { id: f.id } })));
      return { zone: zone.id, rules: rules.map((r) => r.id) };
    });
    const plan = await cli('plan', file);
    expect(plan.code).toBe(1);
    expect(plan.stdout + plan.stderr).toContain('the free plan allows 5 active firewall rules, and applying this plan needs 6 at once (counting 5 active rule(s) not in the manifest that the plan leaves in place)');
    const refused = await cli('apply', file, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('cannot be applied');
    expect((await liveObjects(state, 'quota.example.com')).filters).toHaveLength(5);
    // Resolve the quota, and the apply makes the filter and the rule.
    await withEngine(state, (engine) => v4(engine, 'DELETE', `/zones/${other.zone}/firewall/rules?${other.rules.map((id) => `id=${id}`).join('&')}`));
    const finish = await cli('apply', file, '--auto-approve');
    expect(finish.code, finish.stderr).toBe(0);
    expect(finish.stdout).toContain('Apply complete for quota.example.com: 2 added, 0 changed, 0 replaced, 0 destroyed');
    expect((await cli('plan', file, '--detailed-exitcode')).code).toBe(0);
  });

  it('refuses plans that weaken protection without --force, naming each change', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', v1);
    expect((await cli('apply', file, '--auto-approve')).code).toBe(0);
    writeFileSync(file, v1.replace('  block-api:\n    action: block', '  block-api:\n    action: log').replace('  block-ip:\n    action: block', '  block-ip:\n    action: allow'));
    const refused = await cli('apply', file, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/DANGER\s+weakens-action: firewall_rule "block-api": action block -> log/);
    expect(refused.stdout).toMatch(/DANGER\s+weakens-action: firewall_rule "block-ip": action block -> allow/);
    expect(refused.stderr).toContain('unsafe; review it and apply with --force');
    expect((await liveObjects(state, ZONE)).rules.find((r) => r.ref === 'block-api')!.action).toBe('block');
    expect((await cli('apply', file, '--auto-approve', '--force')).code).toBe(0);
    expect((await liveObjects(state, ZONE)).rules.find((r) => r.ref === 'block-api')!.action).toBe('log');
  });

  it('refuses a mass deletion above the threshold; --delete-threshold raises it', async () => {
    const many = `zone: many.example.com\nfirewall_rules:\n${Array.from({ length: 6 }, (_, i) => `  r${i}:\n    action: block\n    filter:\n      expression: ip.src eq 192.0.2.${i + 1}\n`).join('')}`;
    const file = writeManifest(tmp.dir, 'many.yaml', many);
    expect((await cli('apply', file, '--auto-approve')).code).toBe(0);
    writeFileSync(file, many.replace(/ {2}r[2-5]:\n(?: {4}.*\n)+/g, ''));
    const refused = await cli('apply', file, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/DANGER\s+deletes-too-many: the plan deletes 8 of 12 managed objects \(67%, more than the 30% threshold\)/);
    expect((await cli('apply', file, '--auto-approve', '--delete-threshold', '70')).code).toBe(0);
    expect((await liveObjects(state, 'many.example.com')).rules.map((r) => r.ref).sort()).toEqual(['r0', 'r1']);
  });

  it('needs --auto-approve without a terminal, and applies nothing', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', v1);
    const run = await cli('apply', file);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('without one, pass --auto-approve (nothing was applied)');
    // Not even the zone: the embedded engine creates a missing zone only at the first write.
    expect(await withEngine(state, (engine) => engine.getZone(ZONE))).toBeUndefined();
  });

  it('refuses a second apply while another holds the zone, naming the holder', async () => {
    const file = writeManifest(tmp.dir, 'zone.yaml', v1);
    const zoneId = await withEngine(state, async (engine) => (await engine.createZone(ZONE, { plan: 'enterprise' })).id);
    mkdirSync(join(state, 'locks'), { recursive: true });
    // The holder is this test process, which is alive: the lock is genuinely held.
    writeFileSync(join(state, 'locks', `${zoneId}.lock`), JSON.stringify({ pid: process.pid, host: hostname(), at: new Date().toISOString() }));
    const second = await cli('apply', file, '--auto-approve');
    expect(second.code).toBe(1);
    expect(second.stdout + second.stderr).toContain(`zone ${ZONE} is locked by process ${process.pid} on ${hostname()}`);
    expect(second.stderr).toContain('nothing applied');
    expect((await liveObjects(state, ZONE)).rules).toEqual([]);
  });
});
