/**
 * A saved plan with a danger finding (a mass deletion), applied as a merge job would: the refusal
 * says the way out that works for a saved plan. The finding's own advice, "raise
 * --delete-threshold", is a `plan --out` option that `apply plan.json` refuses; `--force` applies it.
 * The built CLI in a child process on the embedded engine.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requireBuild, tempDir, writeManifest, zonewall } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
let state: string;
const cli = (...args: string[]) => zonewall([...args, '--state-dir', state], { cwd: tmp.dir });

beforeAll(() => {
  requireBuild();
  tmp = tempDir('gitops-saved-danger');
  state = join(tmp.dir, 'state');
});
afterAll(() => tmp?.cleanup());

describe('apply plan.json refused for a danger finding', () => {
  it('names --force, and plan --out with another --delete-threshold, as the ways out', { timeout: 120_000 }, async () => {
    const rules = Array.from({ length: 12 }, (_, i) => `  r${i}:\n    action: block\n    expression: ip.src eq 192.0.2.${i + 1}\n`).join('');
    const file = writeManifest(tmp.dir, 'zone.yaml', `zone: danger.example.com\ncustom_rules:\n${rules}`);
    expect((await cli('apply', file, '--auto-approve')).code).toBe(0);
    writeManifest(tmp.dir, 'zone.yaml', 'zone: danger.example.com\ncustom_rules: {}\n');
    const out = join(tmp.dir, 'plan.json');
    expect((await cli('plan', file, '--out', out)).code).toBe(0);

    const refused = await cli('apply', out, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('deletes-too-many: the plan deletes 12 of 12 managed objects');
    expect(refused.stderr).toContain('(a saved plan: apply it with --force, or make it again with zonewall plan --out and another --delete-threshold)');

    const usage = await cli('apply', out, '--auto-approve', '--delete-threshold', '100');
    expect(usage.code).toBe(1);
    expect(usage.stderr).toContain('--prune and --delete-threshold are fixed when the plan is made');

    const forced = await cli('apply', out, '--auto-approve', '--force');
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('Apply complete for danger.example.com: 0 added, 0 changed, 0 replaced, 12 destroyed');
  });
});
