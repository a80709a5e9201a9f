/**
 * The whole CLI as a user runs it: `zonewall plan` on the embedded engine in fresh processes, beside
 * `node -e 0` and a data-floor script (bench/_data-floor.mjs: open the zone's SQLite files and read
 * every row), interleaved round by round, medians of wall time and of peak memory (max RSS).
 * Targets (issues 17, 35): a no-op plan of one zone at most 3x `node -e 0`; of 50 zones (BENCH_ZONES)
 * at most 2x the data floor in time and in peak memory; judged on realistic zones (support/
 * realistic-zone.ts: 1,000 filters + 1,000 rules in an even mixture of eight expression kinds, with
 * descriptions and priorities, and 50 custom rules). The uniform fixture of earlier runs (every
 * expression `ip.src eq 10.x.y.1`) is measured beside it as a second row, never judged.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { applyZone } from '../src/apply/index.js';
import { planZones } from '../src/cli/commands/plan-run.js';
import { loadManifests } from '../src/manifest/index.js';
import { openProvider } from '../src/providers/index.js';
import { mixtureLine, realisticZone } from '../support/realistic-zone.js';
import { median, runProcess } from './_fresh-process.js';

const N = 1000;
const CUSTOM = 50;
const ZONES = Number(process.env.BENCH_ZONES ?? 50);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 11);
const root = fileURLToPath(new URL('..', import.meta.url));

/** The easy case, kept as a second row: one expression shape, no descriptions, no priorities. */
function uniformManifest(zone: string): string {
  const lines = [`zone: ${zone}`, 'plan: enterprise', 'filters:'];
  for (let i = 0; i < N; i++) lines.push(`  f${i}:`, `    expression: 'ip.src eq 10.${(i >> 8) & 255}.${i & 255}.1'`);
  lines.push('firewall_rules:');
  for (let i = 0; i < N; i++) lines.push(`  r${i}:`, '    action: block', `    filter: f${i}`);
  return `${lines.join('\n')}\n`;
}

const Fixtures = {
  realistic: (zone: string) => realisticZone({ zone, rules: N, customRules: CUSTOM }),
  uniform: uniformManifest,
} as const;
type Fixture = keyof typeof Fixtures;


async function setup(dir: string, state: string, zones: number, fixture: Fixture): Promise<void> {
  mkdirSync(dir, { recursive: true });
  for (let z = 0; z < zones; z++) writeFileSync(join(dir, `zone-${z}.yaml`), Fixtures[fixture](`bench-${z}.example.com`));
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
    const fixtures: Fixture[] = process.env.BENCH_UNIFORM === '0' ? ['realistic'] : ['realistic', 'uniform'];
    for (const f of fixtures) {
      await setup(join(tmp, `${f}-one`), join(tmp, `${f}-one-state`), 1, f);
      await setup(join(tmp, `${f}-many`), join(tmp, `${f}-many-state`), ZONES, f);
    }
    console.log(`realistic fixture: ${N} filters + ${N} firewall rules + ${CUSTOM} custom rules a zone, ${mixtureLine()}`);
    console.log(`uniform fixture (second row, not judged): ${N} filters + ${N} rules a zone, every expression \`ip.src eq 10.x.y.1\``);
    console.log(`setup: 1 zone and ${ZONES} zones of each fixture applied in ${((performance.now() - t0) / 1000).toFixed(1)} s; ${ROUNDS} rounds`);
    const cli = join(root, 'bin/zonewall.js');
    const floor = join(root, 'bench/_data-floor.mjs');
    const subjects: Record<string, string[]> = { 'node -e 0': ['-e', '0'] };
    for (const f of fixtures) {
      subjects[`${f}: data floor, 1 zone`] = [floor, join(tmp, `${f}-one-state`)];
      subjects[`${f}: zonewall plan, 1 zone`] = [cli, 'plan', join(tmp, `${f}-one`), '--state-dir', join(tmp, `${f}-one-state`)];
      subjects[`${f}: data floor, ${ZONES} zones`] = [floor, join(tmp, `${f}-many-state`)];
      subjects[`${f}: zonewall plan, ${ZONES} zones`] = [cli, 'plan', join(tmp, `${f}-many`), '--state-dir', join(tmp, `${f}-many-state`)];
    }
    // Another build of zonewall (BENCH_CLI_BASE=.../bin/zonewall.js), measured in the same rounds: a change's cost.
    const base = process.env.BENCH_CLI_BASE;
    if (base !== undefined) {
      subjects['base plan, realistic, 1 zone'] = [base, 'plan', join(tmp, 'realistic-one'), '--state-dir', join(tmp, 'realistic-one-state')];
      subjects[`base plan, realistic, ${ZONES} zones`] = [base, 'plan', join(tmp, 'realistic-many'), '--state-dir', join(tmp, 'realistic-many-state')];
    }
    const results = new Map<string, { ms: number[]; rss: number[] }>(Object.keys(subjects).map((k) => [k, { ms: [], rss: [] }]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, args] of Object.entries(subjects)) {
        const r = runProcess(args);
        results.get(name)!.ms.push(r.ms);
        results.get(name)!.rss.push(r.rssMiB);
      }
    }
    const med = (k: string) => ({ ms: median(results.get(k)!.ms), rss: median(results.get(k)!.rss) });
    for (const k of Object.keys(subjects)) console.log(`${k.padEnd(40)} ${(med(k).ms / 1000).toFixed(3)} s   ${med(k).rss.toFixed(0)} MiB`);
    for (const f of fixtures) {
      const judged = f === 'realistic';
      const one = med(`${f}: zonewall plan, 1 zone`).ms / med('node -e 0').ms;
      const many = med(`${f}: zonewall plan, ${ZONES} zones`);
      const manyFloor = med(`${f}: data floor, ${ZONES} zones`);
      const t = many.ms / manyFloor.ms;
      const m = many.rss / manyFloor.rss;
      const verdict = (x: number, target: number) => (judged ? `target <= ${target}x: ${x <= target ? 'met' : 'NOT met'}` : '(second row, not judged)');
      console.log(`${f}: no-op plan, 1 zone: ${one.toFixed(2)}x node -e 0   ${verdict(one, 3)}`);
      console.log(`${f}: no-op plan, ${ZONES} zones: ${t.toFixed(2)}x the data floor   ${verdict(t, 2)}`);
      console.log(`${f}: peak memory, ${ZONES} zones: ${m.toFixed(2)}x the data floor's   ${verdict(m, 2)}`);
    }
    if (base !== undefined) {
      console.log(`this build / base build, realistic, 1 zone: ${(med('realistic: zonewall plan, 1 zone').ms / med('base plan, realistic, 1 zone').ms).toFixed(3)}x`);
      console.log(`this build / base build, realistic, ${ZONES} zones: ${(med(`realistic: zonewall plan, ${ZONES} zones`).ms / med(`base plan, realistic, ${ZONES} zones`).ms).toFixed(3)}x`);
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
