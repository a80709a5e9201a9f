/**
 * `npm run bench -- custom-rules`: WAF custom rules at the enterprise quota, as a user runs zonewall
 * (the built CLI, a fresh process per run, the embedded engine in a temp state directory). One zone
 * holds 1,000 custom rules, another the same 1,000 expressions as firewall rules with inline
 * filters; both manifests then get the same 10 edits. Printed, beside floors measured in the same
 * run (cold `zonewall --version`, and the firewall rules plan), medians of interleaved runs:
 * - cold `zonewall plan` of the custom rules zone vs the firewall rules zone;
 * - requests `zonewall apply` makes for the 10 edits of the custom rules zone.
 * Targets (issue 12): plan within 1.2x of the firewall rules plan; apply of the 10 edits in at most
 * 10 requests. Needs `npm run build` (dist/).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';

const N = 1000;
const EDITS = 10;
const RUNS = 5;
const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'bin', 'zonewall.js');
const actions = ['block', 'managed_challenge', 'js_challenge', 'challenge'];

function expression(i: number, edited: boolean): string {
  const path = edited ? `/edited/${i}` : `/p/${i}`;
  return i % 2 === 0 ? `ip.src in {10.${(i >> 8) & 255}.${i & 255}.0/24} and http.request.uri.path eq "${path}"` : `http.request.uri.path eq "${path}" and http.host eq "bench.example.com"`;
}

const editedSet = new Set(Array.from({ length: EDITS }, (_, k) => Math.floor((k * N) / EDITS) + 7));

function customManifest(edits: boolean): string {
  const lines = ['zone: custom.bench.example.com', 'plan: enterprise', 'custom_rules:'];
  for (let i = 0; i < N; i++) {
    lines.push(`  r${i}:`, `    action: ${actions[i % actions.length]}`, `    expression: '${expression(i, edits && editedSet.has(i))}'`);
  }
  return `${lines.join('\n')}\n`;
}

function firewallManifest(edits: boolean): string {
  const lines = ['zone: firewall.bench.example.com', 'plan: enterprise', 'firewall_rules:'];
  for (let i = 0; i < N; i++) {
    lines.push(`  r${i}:`, `    action: ${actions[i % actions.length]}`, '    filter:', `      expression: '${expression(i, edits && editedSet.has(i))}'`);
  }
  return `${lines.join('\n')}\n`;
}

function cli(args: string[], expectCode: number[] = [0]): { ms: number; stdout: string } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 64 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (!expectCode.includes(r.status ?? -1)) throw new Error(`zonewall ${args.join(' ')} exited ${String(r.status)}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (ms: number) => `${(ms / 1000).toFixed(3)} s`;

/** Runs the benchmark. */
export async function run(): Promise<void> {
  if (!existsSync(join(root, 'dist', 'cli', 'main.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  const dir = mkdtempSync(join(tmpdir(), 'zw-bench-custom-'));
  try {
    const custom = join(dir, 'custom.yaml');
    const firewall = join(dir, 'firewall.yaml');
    const state = ['--state-dir', join(dir, 'state')];
    writeFileSync(custom, customManifest(false));
    writeFileSync(firewall, firewallManifest(false));
    cli(['apply', custom, '--auto-approve', ...state]);
    cli(['apply', firewall, '--auto-approve', ...state]);
    writeFileSync(custom, customManifest(true));
    writeFileSync(firewall, firewallManifest(true));

    const times = { version: [] as number[], custom: [] as number[], firewall: [] as number[] };
    for (let r = 0; r < RUNS; r++) {
      times.version.push(cli(['--version']).ms);
      times.custom.push(cli(['plan', custom, '--detailed-exitcode', ...state], [2]).ms);
      times.firewall.push(cli(['plan', firewall, '--detailed-exitcode', ...state], [2]).ms);
    }
    const [v, c, f] = [median(times.version), median(times.custom), median(times.firewall)];
    const ratio = c / f;
    console.log(`cold CLI floor (zonewall --version):          ${fmt(v)}`);
    console.log(`plan, ${N} firewall rules, ${EDITS} edits (baseline): ${fmt(f)}`);
    console.log(`plan, ${N} custom rules, ${EDITS} edits:            ${fmt(c)}   ratio ${ratio.toFixed(2)}x   target <= 1.20x   ${ratio <= 1.2 ? 'met' : 'NOT met'}`);

    const applied = JSON.parse(cli(['apply', custom, '--auto-approve', '--json', ...state]).stdout) as { results: { requests: number; ok: boolean }[] };
    const requests = applied.results[0]!.requests;
    console.log(`apply of the ${EDITS} custom rule edits:           ${requests} request(s)   baseline (one per edit) ${EDITS}   target <= ${EDITS}   ${requests <= EDITS && applied.results[0]!.ok ? 'met' : 'NOT met'}`);
    cli(['plan', custom, '--detailed-exitcode', ...state]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
