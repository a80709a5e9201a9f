/**
 * The whole CLI as a user runs it: `zonewall plan` on the embedded engine in fresh processes, beside
 * `node -e 0` and a data-floor script (bench/_data-floor.mjs: open the zone's SQLite files and read
 * every row), interleaved round by round, medians of wall time and of peak memory (max RSS).
 * Targets (issue 17): a no-op plan of one zone of 2,000 objects at most 3x `node -e 0`; of 50 such
 * zones (BENCH_ZONES) at most 2x the data floor in time and in peak memory.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { applyZone } from '../src/apply/index.js';
import { planZones } from '../src/cli/commands/plan-run.js';
import { loadManifests } from '../src/manifest/index.js';
import { openProvider } from '../src/providers/index.js';

const N = 1000;
const ZONES = Number(process.env.BENCH_ZONES ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const root = fileURLToPath(new URL('..', import.meta.url));
const rss = join(root, 'bench/_rss.mjs');

function manifest(zone: string): string {
  const lines = [`zone: ${zone}`, 'plan: enterprise', 'filters:'];
  for (let i = 0; i < N; i++) lines.push(`  f${i}:`, `    expression: 'ip.src eq 10.${(i >> 8) & 255}.${i & 255}.1'`);
  lines.push('firewall_rules:');
  for (let i = 0; i < N; i++) lines.push(`  r${i}:`, '    action: block', `    filter: f${i}`);
  return `${lines.join('\n')}\n`;
}

/** One fresh process: wall time and peak memory. */
function measure(args: string[]): Promise<{ ms: number; rssMiB: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', rss, ...args], { env: { ...process.env, NO_COLOR: '1' }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - t0;
      const m = /@@maxrss (\d+)/.exec(stderr);
      if (code !== 0 || m === null) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr.slice(0, 500)}`));
      else resolve({ ms, rssMiB: Number(m[1]) / 1024 });
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function setup(dir: string, state: string, zones: number): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (let z = 0; z < zones; z++) writeFileSync(join(dir, `zone-${z}.yaml`), manifest(`bench-${z}.example.com`));
  const { zones: desired } = await loadManifests([dir]);
  const provider = await openProvider({ stateDir: state });
  for (const r of await planZones(provider, desired, {})) {
    const result = await applyZone(r.plan!, provider);
    if (!result.ok) throw new Error(`setup apply failed: ${result.error?.message}`);
  }
  await provider.close();
}

/** Runs the benchmark. */
export async function run(): Promise<void> {
  if (!existsSync(join(root, 'dist/bundle/zonewall.cjs'))) throw new Error('bench cli runs the built CLI: run `npm run build` first');
  const tmp = mkdtempSync(join(tmpdir(), 'zw-bench-cli-'));
  try {
    const t0 = performance.now();
    await setup(join(tmp, 'one'), join(tmp, 'one-state'), 1);
    await setup(join(tmp, 'many'), join(tmp, 'many-state'), ZONES);
    console.log(`setup: 1 zone and ${ZONES} zones of ${N} filters + ${N} rules applied in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${ROUNDS} rounds`);
    const cli = join(root, 'bin/zonewall.js');
    const floor = join(root, 'bench/_data-floor.mjs');
    const subjects: Record<string, string[]> = {
      'node -e 0': ['-e', '0'],
      'data floor, 1 zone': [floor, join(tmp, 'one-state')],
      'zonewall plan, 1 zone': [cli, 'plan', join(tmp, 'one'), '--state-dir', join(tmp, 'one-state')],
      [`data floor, ${ZONES} zones`]: [floor, join(tmp, 'many-state')],
      [`zonewall plan, ${ZONES} zones`]: [cli, 'plan', join(tmp, 'many'), '--state-dir', join(tmp, 'many-state')],
      // Another build of zonewall (BENCH_CLI_BASE=.../bin/zonewall.js), measured in the same rounds: a change's cost.
      ...(process.env.BENCH_CLI_BASE !== undefined ? { [`base plan, ${ZONES} zones`]: [process.env.BENCH_CLI_BASE, 'plan', join(tmp, 'many'), '--state-dir', join(tmp, 'many-state')] } : {}),
    };
    const results = new Map<string, { ms: number[]; rss: number[] }>(Object.keys(subjects).map((k) => [k, { ms: [], rss: [] }]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, args] of Object.entries(subjects)) {
        const r = await measure(args);
        results.get(name)!.ms.push(r.ms);
        results.get(name)!.rss.push(r.rssMiB);
      }
    }
    const med = (k: string) => ({ ms: median(results.get(k)!.ms), rss: median(results.get(k)!.rss) });
    for (const k of Object.keys(subjects)) console.log(`${k.padEnd(26)} ${(med(k).ms / 1000).toFixed(3)} s   ${med(k).rss.toFixed(0)} MiB`);
    const one = med('zonewall plan, 1 zone').ms / med('node -e 0').ms;
    const many = med(`zonewall plan, ${ZONES} zones`);
    const manyFloor = med(`data floor, ${ZONES} zones`);
    const t = many.ms / manyFloor.ms;
    const m = many.rss / manyFloor.rss;
    console.log(`no-op plan, 1 zone: ${one.toFixed(2)}x node -e 0   target <= 3x: ${one <= 3 ? 'met' : 'NOT met'}`);
    console.log(`no-op plan, ${ZONES} zones: ${t.toFixed(2)}x the data floor   target <= 2x: ${t <= 2 ? 'met' : 'NOT met'}`);
    console.log(`peak memory, ${ZONES} zones: ${m.toFixed(2)}x the data floor's   target <= 2x: ${m <= 2 ? 'met' : 'NOT met'}`);
    if (results.has(`base plan, ${ZONES} zones`)) console.log(`this build / base build, ${ZONES} zones: ${(many.ms / med(`base plan, ${ZONES} zones`).ms).toFixed(3)}x`);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
