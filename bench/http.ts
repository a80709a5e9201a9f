/**
 * What a remote run costs in requests, as a user runs it: the real CLI (a fresh process, default
 * settings) against `zonewall serve`'s engine through a counting proxy on 127.0.0.1, for N
 * enterprise zones of 1,000 filters + 1,000 rules (BENCH_ZONES, default 50). Prints the requests by
 * route, beside the floor measured in the same run (the list pages alone: ceil(objects / 100) per
 * list), the run's own estimate, and the wall time at the default budget (1,200 requests per
 * 300 s), computed from the counts rather than waited for. Targets (issue 17):
 * - no-op plan: at most 1.05x the list-page floor, no budget wait, estimate within 10% of requests sent;
 * - 10 changed rules in one zone, applied through the directory: at most 1.05x (floor + one write).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { applyZone } from '../src/apply/index.js';
import { planZones } from '../src/cli/commands/plan-run.js';
import { Engine, loadCredentials, startServer } from '../src/engine/index.js';
import { loadManifests } from '../src/manifest/index.js';
import { budgetWaitSeconds, CallLimits } from '../src/plan/index.js';
import { openProvider } from '../src/providers/index.js';
import { startCountingProxy, type CountingProxy } from '../support/counting-proxy.js';

const N = 1000;
const ZONES = Number(process.env.BENCH_ZONES ?? 50);
const root = fileURLToPath(new URL('..', import.meta.url));
const Token = 'bench-http-token-0123456789abcdef01234567';
const budget = { requests: CallLimits.budgetRequests, windowSeconds: CallLimits.budgetWindowSeconds };

function manifest(zone: string, changed = 0): string {
  const lines = [`zone: ${zone}`, 'plan: enterprise', 'filters:'];
  for (let i = 0; i < N; i++) lines.push(`  f${i}:`, `    expression: 'ip.src eq 10.${(i >> 8) & 255}.${i & 255}.1'`);
  lines.push('firewall_rules:');
  for (let i = 0; i < N; i++) lines.push(`  r${i}:`, '    action: block', `    filter: f${i}`, ...(i < changed ? ['    description: changed'] : []));
  return `${lines.join('\n')}\n`;
}

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string; ms: number }> {
  const t0 = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(root, 'bin/zonewall.js'), ...args], { env: { ...process.env, ZONEWALL_API_TOKEN: Token, NO_COLOR: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr, ms: performance.now() - t0 }));
  });
}

/** The requests the run's estimate line announced. */
function announced(stdout: string): number {
  const m = /API calls for this run: ([\d,]+) request/.exec(stdout);
  return m === null ? Number.NaN : Number(m[1]!.replace(/,/g, ''));
}

function report(label: string, proxy: CountingProxy, floor: number, run: { stdout: string; stderr: string; ms: number }): boolean {
  const sent = proxy.total();
  console.log(`${label}`);
  for (const [route, n] of [...proxy.counts].sort((a, b) => b[1] - a[1])) console.log(`  ${String(n).padStart(6)}  ${route}`);
  const estimate = announced(run.stdout);
  const wait = budgetWaitSeconds(sent, budget);
  const waited = /waiting \d+ s for the API request budget/.test(run.stderr);
  const ratioOk = sent <= floor * 1.05;
  const estimateOk = Math.abs(estimate - sent) <= sent * 0.1;
  console.log(`  requests ${sent}   floor ${floor}   ratio ${(sent / floor).toFixed(3)}x   target <= 1.05x: ${ratioOk ? 'met' : 'NOT met'}`);
  console.log(`  estimate ${estimate}   off by ${((Math.abs(estimate - sent) / sent) * 100).toFixed(1)}%   target within 10%: ${estimateOk ? 'met' : 'NOT met'}`);
  console.log(`  wall time here ${(run.ms / 1000).toFixed(2)} s; at the default budget (${budget.requests}/${budget.windowSeconds} s) about ${((run.ms / 1000) + wait).toFixed(0)} s (${wait} s of waiting)   target no wait: ${wait === 0 && !waited ? 'met' : 'NOT met'}`);
  return ratioOk && estimateOk && wait === 0;
}

/** Runs the benchmark. */
export async function run(): Promise<void> {
  if (!existsSync(join(root, 'dist/cli/main.js'))) throw new Error('bench http runs the built CLI: run `npm run build` first');
  const tmp = mkdtempSync(join(tmpdir(), 'zw-bench-http-'));
  try {
    const dir = join(tmp, 'zones');
    mkdirSync(dir);
    for (let z = 0; z < ZONES; z++) writeFileSync(join(dir, `zone-${z}.yaml`), manifest(`bench-${z}.example.com`));
    const state = join(tmp, 'state');
    const { zones } = await loadManifests([dir]);
    const provider = await openProvider({ stateDir: state });
    const t0 = performance.now();
    for (const r of await planZones(provider, zones, {})) {
      const result = await applyZone(r.plan!, provider);
      if (!result.ok) throw new Error(`setup apply failed: ${result.error?.message}`);
    }
    await provider.close();
    console.log(`setup: ${ZONES} zones x (${N} filters + ${N} rules) applied in-process in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const engine = await Engine.open({ dir: state });
    const server = await startServer(engine, { port: 0, credentials: loadCredentials({ ZONEWALL_SERVE_TOKEN: Token }) });
    const proxy = await startCountingProxy(server.url);
    try {
      const pages = 2 * Math.ceil(N / 100);
      const noop = await cli(['plan', dir, '--remote', proxy.url]);
      if (noop.code !== 0) throw new Error(`plan failed: ${noop.stderr}`);
      const a = report(`no-op plan of ${ZONES} zones over HTTP:`, proxy, ZONES * pages, noop);

      writeFileSync(join(dir, 'zone-0.yaml'), manifest('bench-0.example.com', 10));
      proxy.reset();
      const apply = await cli(['apply', dir, '--remote', proxy.url, '--auto-approve']);
      if (apply.code !== 0) throw new Error(`apply failed: ${apply.stderr}`);
      const b = report('10 changed rules in one zone, apply through the directory:', proxy, ZONES * pages + 1, apply);
      console.log(`targets: ${a && b ? 'met' : 'NOT met'}`);
    } finally {
      await proxy.close();
      await server.close();
      await engine.close();
    }
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}
