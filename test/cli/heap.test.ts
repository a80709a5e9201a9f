/**
 * A batch command's heap (src/cli/heap.ts): V8's young generation of a plan stops growing at its
 * cap, where V8's defaults let it grow to twice that over many zones; and the old generation holds
 * little more than what is alive, as marking starts early. Observed from outside: a probe preloaded
 * into the real CLI reports the young generation's size at exit, and V8's own trace (`--trace-gc`)
 * the heap's size before and after each collection.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { YoungGenerationCapBytes } from '../../src/cli/heap.js';
import { realisticZone } from '../../support/realistic-zone.js';

const MiB = 1024 * 1024;
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

/**
 * From V8's `--trace-gc` lines ("Scavenge 21.2 (25.6) -> 19.2 (27.1) MB, ..."): the largest heap
 * before a collection, the largest left by a full (Mark-Compact) one, and how many of those ran.
 */
function heapTrace(run: { status: number | null; stdout: string; stderr: string }): { peakMB: number; liveMB: number; fullCollections: number } {
  expect(run.status, run.stderr).toBe(0);
  let peakMB = 0;
  let liveMB = 0;
  let fullCollections = 0;
  for (const m of run.stdout.matchAll(/(Scavenge|Mark-Compact) ([\d.]+) \([\d.]+\) -> ([\d.]+) \(/g)) {
    peakMB = Math.max(peakMB, Number(m[2]));
    if (m[1] === 'Mark-Compact') {
      liveMB = Math.max(liveMB, Number(m[3]));
      fullCollections++;
    }
  }
  return { peakMB, liveMB, fullCollections };
}

describe('the heap of a batch command', () => {
  it('a plan of 2,000 objects keeps the young generation at its cap', async () => {
    const file = writeManifest(tmp.dir, 'big.yaml', manifest(1000));
    const probe = writeManifest(tmp.dir, 'young-probe.mjs', Probe);
    const args = ['plan', file, '--state-dir', join(tmp.dir, 'state')];
    const plan = await zonewall(args, { env: { NODE_OPTIONS: `--import ${probe}` } });
    expect(plan.code, plan.stderr).toBe(0);
    expect(young(plan.stderr)).toBeLessThanOrEqual(YoungGenerationCapBytes);
  });

  it('a plan of one zone marks the old generation only as V8 would: no full collection for zones it has not yet planned', async () => {
    const file = writeManifest(tmp.dir, 'one.yaml', realisticZone({ zone: 'one.heap.example', rules: 1000, customRules: 50 }));
    const state = join(tmp.dir, 'state-one');
    const apply = await zonewall(['apply', file, '--state-dir', state, '--auto-approve']);
    expect(apply.code, apply.stderr).toBe(0);
    // Early marking from the start of the run collected once here, for nothing the plan could drop.
    const one = heapTrace(spawnSync(process.execPath, ['--trace-gc', join(repoRoot, 'bin/zonewall.js'), 'plan', file, '--state-dir', state], { encoding: 'utf8' }));
    expect(one.fullCollections).toBe(0);
  });

  describe('a plan of many zones', () => {
    let dir: string;
    let state: string;
    beforeAll(async () => {
      dir = join(tmp.dir, 'many');
      state = join(tmp.dir, 'state-many');
      mkdirSync(dir);
      for (let z = 0; z < 20; z++) writeManifest(dir, `zone-${z}.yaml`, manifest(1000, `z${z}.heap.example`));
      // Zones the engine has (a zone it lacks reads as new, which goes through the event loop).
      const apply = await zonewall(['apply', dir, '--state-dir', state, '--auto-approve']);
      expect(apply.code, apply.stderr).toBe(0);
    }, 60_000);

    /** The plan through the bundle's `main`, which runs a command without the process entry's tuning: V8's defaults. */
    const untunedScript = () => `require(${JSON.stringify(join(repoRoot, 'bin/cli-loader.cjs'))}).loadCli().cli.main(['node', 'zonewall', 'plan', ${JSON.stringify(dir)}, '--state-dir', ${JSON.stringify(state)}]).then((code) => { process.exitCode = code; });`;

    it('keeps the young generation at its cap, though it reads them without the event loop turning once; V8 grows it past', async () => {
      const probe = writeManifest(tmp.dir, 'young-probe-many.mjs', Probe);
      const plan = await zonewall(['plan', dir, '--state-dir', state], { env: { NODE_OPTIONS: `--import ${probe}` } });
      expect(plan.code, plan.stderr).toBe(0);
      expect(young(plan.stderr)).toBeLessThanOrEqual(YoungGenerationCapBytes);
      const untuned = spawnSync(process.execPath, ['--import', probe, '-e', untunedScript()], { encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] });
      expect(untuned.status, untuned.stderr).toBe(0);
      expect(young(untuned.stderr)).toBeGreaterThan(YoungGenerationCapBytes);
    });

    it('holds little more than what is alive: its heap peaks within a young generation and a few MB of what a full collection leaves', () => {
      // Without early marking the old generation fills with zones already planned up to V8's
      // limit (~17 MB over what is alive here); V8's defaults, ~26 MB.
      const bound = YoungGenerationCapBytes / 2 / MiB + 6;
      const tuned = heapTrace(spawnSync(process.execPath, ['--trace-gc', join(repoRoot, 'bin/zonewall.js'), 'plan', dir, '--state-dir', state], { encoding: 'utf8' }));
      expect(tuned.fullCollections).toBeGreaterThan(0);
      expect(tuned.peakMB - tuned.liveMB).toBeLessThan(bound);
      const untuned = heapTrace(spawnSync(process.execPath, ['--trace-gc', '-e', untunedScript()], { encoding: 'utf8' }));
      expect(untuned.peakMB - untuned.liveMB).toBeGreaterThan(bound);
    });
  });
});
