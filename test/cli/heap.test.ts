/**
 * A batch command's heap (src/cli/heap.ts): V8's young generation of a plan stops growing at its
 * cap, where V8's defaults let it grow to twice that on a zone of 2,000 objects. Observed from
 * outside: a probe preloaded into the real CLI reports the young generation's size at exit.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { YoungGenerationCapBytes } from '../../src/cli/heap.js';
import { repoRoot, requireBuild, tempDir, writeManifest, zonewall } from '../helpers/e2e-cli.js';

let tmp: ReturnType<typeof tempDir>;
beforeAll(() => {
  requireBuild();
  tmp = tempDir('heap');
});
afterAll(() => tmp?.cleanup());

/** A zone of `n` filters and `n` rules. */
function manifest(n: number, zone = 'heap.example'): string {
  const lines = [`zone: ${zone}`, 'filters:'];
  for (let i = 0; i < n; i++) lines.push(`  f${i}:`, `    expression: 'ip.src eq 10.0.${(i >> 8) & 255}.${i & 255}'`);
  lines.push('firewall_rules:');
  for (let i = 0; i < n; i++) lines.push(`  r${i}:`, '    action: block', `    filter: f${i}`);
  return `${lines.join('\n')}\n`;
}

const Probe = "import { getHeapSpaceStatistics } from 'node:v8';\nprocess.on('exit', () => process.stderr.write(`young: ${getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size}\\n`));\n";

/** The young generation's bytes at exit reported by the probe. */
function young(stderr: string): number {
  const m = /young: (\d+)/.exec(stderr);
  return m === null ? Number.NaN : Number(m[1]);
}

describe('the heap of a batch command', () => {
  it('a plan of 2,000 objects keeps the young generation at its cap; node with its defaults grows it past', async () => {
    const file = writeManifest(tmp.dir, 'big.yaml', manifest(1000));
    const probe = writeManifest(tmp.dir, 'young-probe.mjs', Probe);
    const args = ['plan', file, '--state-dir', join(tmp.dir, 'state')];
    const plan = await zonewall(args, { env: { NODE_OPTIONS: `--import ${probe}` } });
    expect(plan.code, plan.stderr).toBe(0);
    expect(young(plan.stderr)).toBeLessThanOrEqual(YoungGenerationCapBytes);
    // The same plan through the bundle's `main`, which runs a command without the process entry's
    // tuning: V8's defaults grow the young generation past the cap, so the cap is what kept it.
    const script = `require(${JSON.stringify(join(repoRoot, 'bin/cli-loader.cjs'))}).loadCli().cli.main(['node', 'zonewall', ...${JSON.stringify(args)}]).then((code) => { process.exitCode = code; });`;
    const untuned = spawnSync(process.execPath, ['--import', probe, '-e', script], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
    expect(untuned.status, untuned.stderr).toBe(0);
    expect(young(untuned.stderr)).toBeGreaterThan(YoungGenerationCapBytes);
  });

  it('a plan of many zones keeps the cap too, though it reads them without the event loop turning once', async () => {
    const dir = join(tmp.dir, 'many');
    mkdirSync(dir);
    for (let z = 0; z < 8; z++) writeManifest(dir, `zone-${z}.yaml`, manifest(1000, `z${z}.heap.example`));
    const probe = writeManifest(tmp.dir, 'young-probe-many.mjs', Probe);
    const state = join(tmp.dir, 'state-many');
    // Zones the engine has (a zone it lacks reads as new, which goes through the event loop).
    const apply = await zonewall(['apply', dir, '--state-dir', state, '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    const plan = await zonewall(['plan', dir, '--state-dir', state], { env: { NODE_OPTIONS: `--import ${probe}` } });
    expect(plan.code, plan.stderr).toBe(0);
    expect(young(plan.stderr)).toBeLessThanOrEqual(YoungGenerationCapBytes);
  });
});
