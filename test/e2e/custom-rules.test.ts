/**
 * WAF custom rules end to end, as the "Done means" says, with the built CLI in a child
 * process on a fresh embedded engine: `examples/custom-rules.yaml` plans its rules, applies, then
 * plans nothing (exit 0 with --detailed-exitcode); a reorder plans moves only and keeps every id;
 * a notation-only edit plans nothing; the weakening guard needs --force; rules made outside zonewall
 * (no ref) are listed, kept, and exported: export adopts them and the next plan is empty; rollback
 * restores the phase.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild, tempDir, v4, withEngine, writeManifest, zonewall } from '../helpers/e2e-cli.js';

const example = readFileSync(join(repoRoot, 'examples', 'custom-rules.yaml'), 'utf8');
const Zone = 'custom.example.com';

interface Rule { id: string; ref?: string; action: string; expression: string }

async function liveRules(stateDir: string): Promise<Rule[]> {
  return withEngine(stateDir, async (engine) => {
    const z = (await engine.getZone(Zone))!;
    return (await v4<{ rules: Rule[] }>(engine, 'GET', `/zones/${z.id}/rulesets/phases/http_request_firewall_custom/entrypoint`)).rules;
  });
}

/** The example with its rule blocks in another order. */
function reordered(text: string, order: string[]): string {
  const [head, body] = text.split('custom_rules:\n') as [string, string];
  const blocks = body.split(/^(?=  [a-z])/m).filter((b) => b.trim() !== '');
  const byKey = new Map(blocks.map((b) => [/^ {2}([a-z-]+):/.exec(b)![1]!, b]));
  return `${head}custom_rules:\n${order.map((k) => byKey.get(k)!).join('')}`;
}

describe('custom rules, CLI on the embedded engine', () => {
  let t: ReturnType<typeof tempDir>;
  let state: string[];
  beforeEach(() => {
    requireBuild();
    t = tempDir('custom');
    state = ['--state-dir', join(t.dir, 'state')];
  });
  afterEach(() => t.cleanup());

  const order = ['challenge-admin', 'allow-office', 'block-scanners', 'challenge-api-writes', 'old-endpoint'];

  it('plans the example on a fresh engine, applies, converges, and plans nothing for a notation-only edit', async () => {
    const file = writeManifest(t.dir, 'custom-rules.yaml', example);
    const first = await zonewall(['plan', file, ...state]);
    expect(first.code).toBe(0);
    expect(first.stdout).toContain('+ custom_rule "allow-office"');
    expect(first.stdout).toContain('Plan: 5 to add, 0 to change, 0 to replace, 0 to destroy.');
    expect((await zonewall(['apply', file, '--auto-approve', ...state])).code).toBe(0);
    expect((await zonewall(['plan', file, '--detailed-exitcode', ...state])).code).toBe(0);
    writeManifest(t.dir, 'custom-rules.yaml', example
      .replace('ip.src in {192.0.2.0/24}', '(ip.src in { 192.0.2.0/24 })').replace(' eq "/legacy.php"', ' == "/legacy.php"'));
    expect((await zonewall(['plan', file, '--detailed-exitcode', ...state])).code).toBe(0);
  }, 90_000);

  it('plans a reorder as moves only, applies it in one call, and keeps every id', async () => {
    const file = writeManifest(t.dir, 'custom-rules.yaml', example);
    expect((await zonewall(['apply', file, '--auto-approve', ...state])).code).toBe(0);
    const ids = new Map((await liveRules(join(t.dir, 'state'))).map((r) => [r.ref, r.id]));
    expect(ids.size).toBe(5);
    writeManifest(t.dir, 'custom-rules.yaml', reordered(example, order));
    const moves = await zonewall(['plan', file, '--detailed-exitcode', ...state]);
    expect(moves.code).toBe(2);
    expect(moves.stdout).toContain('~ custom_rule "challenge-admin"');
    expect(moves.stdout).toContain('position 3 -> 1');
    expect(moves.stdout).toContain('Plan: 0 to add, 1 to change, 0 to replace, 0 to destroy.');
    const applied = JSON.parse((await zonewall(['apply', file, '--auto-approve', '--json', ...state])).stdout) as { results: { requests: number }[] };
    expect(applied.results[0]!.requests).toBe(1);
    const after = await liveRules(join(t.dir, 'state'));
    expect(after.map((r) => r.ref)).toEqual(order);
    expect(after.every((r) => ids.get(r.ref) === r.id)).toBe(true);
  }, 90_000);

  it('refuses a weakening change without --force', async () => {
    const file = writeManifest(t.dir, 'custom-rules.yaml', example);
    expect((await zonewall(['apply', file, '--auto-approve', ...state])).code).toBe(0);
    writeManifest(t.dir, 'custom-rules.yaml', example.replace('        content: Forbidden\n', '        content: Forbidden\n    enabled: false\n'));
    const refused = await zonewall(['apply', file, '--auto-approve', ...state]);
    expect(refused.code).toBe(1);
    expect(refused.stdout + refused.stderr).toContain('disables-custom-rule');
    expect((await zonewall(['apply', file, '--auto-approve', '--force', ...state])).code).toBe(0);
  }, 90_000);

  it('lists dashboard rules, exports and adopts them (next plan empty), and rollback restores the phase', async () => {
    const stateDir = join(t.dir, 'state');
    expect((await zonewall(['engine', 'zone', 'create', Zone, '--plan', 'enterprise', ...state])).code).toBe(0);
    await withEngine(stateDir, async (engine) => {
      const z = (await engine.getZone(Zone))!;
      await v4(engine, 'PUT', `/zones/${z.id}/rulesets/phases/http_request_firewall_custom/entrypoint`, { rules: [
        { action: 'block', expression: 'http.request.uri.path contains "/wp-login.php"', description: 'Block WordPress logins' },
        { action: 'skip', expression: 'ip.src in {192.0.2.0/24}', action_parameters: { ruleset: 'current' } },
      ] });
    });
    const listed = await zonewall(['plan', writeManifest(t.dir, 'empty.yaml', `zone: ${Zone}\ncustom_rules: {}\n`), ...state]);
    expect(listed.stdout).toMatch(/\? custom_rule [0-9a-f]{32}: block when http\.request\.uri\.path contains "\/wp-login\.php"/);
    expect(listed.stdout).toContain('No changes.');
    const before = (await liveRules(stateDir)).map((r) => r.id);

    const out = join(t.dir, 'exported.yaml');
    expect((await zonewall(['export', '--zone', Zone, '--out', out, ...state])).code).toBe(0);
    expect(readFileSync(out, 'utf8')).toContain('block-wordpress-logins:');
    expect((await zonewall(['plan', out, '--detailed-exitcode', ...state])).code).toBe(0);
    const adopted = await liveRules(stateDir);
    expect(adopted.map((r) => r.id)).toEqual(before);

    writeManifest(t.dir, 'exported.yaml', readFileSync(out, 'utf8').replace('/wp-login.php', '/xmlrpc.php'));
    expect((await zonewall(['apply', out, '--auto-approve', ...state])).code).toBe(0);
    expect((await liveRules(stateDir))[0]!.expression).toContain('/xmlrpc.php');
    expect((await zonewall(['rollback', '--zone', Zone, '--auto-approve', ...state])).code).toBe(0);
    expect((await liveRules(stateDir))[0]!.expression).toContain('/wp-login.php');
  }, 90_000);
});
