/**
 * Planner and apply benchmark at the enterprise quota: one zone of 1,000 filters and 1,000 firewall
 * rules, and a directory of 50 such zones. Prints, beside a baseline measured in the same run:
 * - no-op plan time (read the zone + diff) against the read alone;
 * - full-apply time on the embedded engine (plan + apply from an empty zone);
 * - peak memory (max RSS of the process);
 * - HTTP requests a full apply and a no-op plan make against `zonewall serve` (started in-process),
 *   against one request per object.
 * Targets (issue 6): no-op plan of one zone < 0.3 s and of 50 zones < 5 s; requests at most
 * ceil(N / page or batch size) per resource type and phase.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { applyZone } from '../src/apply/index.js';
import { Engine, loadCredentials, startServer } from '../src/engine/index.js';
import { loadManifests, type DesiredZone } from '../src/manifest/index.js';
import { diffZone, hasChanges } from '../src/plan/index.js';
import { openProvider, type Provider } from '../src/providers/index.js';

const N = 1000;
const ZONES = 50;
const CONCURRENCY = 4;

function manifest(zone: string): string {
  const lines = [`zone: ${zone}`, 'plan: enterprise', 'filters:'];
  for (let i = 0; i < N; i++) {
    const expr = i % 2 === 0 ? `ip.src eq 10.${(i >> 8) & 255}.${i & 255}.1` : `http.request.uri.path eq "/p/${i}" and http.host eq "${zone}"`;
    lines.push(`  f${i}:`, `    expression: '${expr}'`);
  }
  lines.push('firewall_rules:');
  for (let i = 0; i < N; i++) lines.push(`  r${i}:`, `    action: ${i % 3 === 0 ? 'block' : 'managed_challenge'}`, `    filter: f${i}`);
  return `${lines.join('\n')}\n`;
}

async function time<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

async function median(runs: number, fn: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push((await time(fn)).ms);
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)]!;
}

async function mapLimit<T>(items: readonly T[], limit: number, fn: (t: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: limit }, async () => { while (next < items.length) await fn(items[next++]!); }));
}

async function planZone(provider: Provider, desired: DesiredZone) {
  const { zone } = await provider.resolveZone(desired.zone, { create: { plan: 'enterprise' } });
  return diffZone(desired, await provider.readZone(zone.id));
}

async function fullApply(provider: Provider, desired: DesiredZone): Promise<void> {
  const result = await applyZone(await planZone(provider, desired), provider);
  if (!result.ok) throw new Error(`apply failed: ${result.error?.message}`);
}

const fmt = (ms: number) => `${(ms / 1000).toFixed(3)} s`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

/** Runs the benchmark. */
export async function run(): Promise<void> {
  const root = mkdtempSync(join(tmpdir(), 'zw-bench-plan-'));
  try {
    const dir = join(root, 'zones');
    mkdirSync(dir);
    for (let z = 0; z < ZONES; z++) writeFileSync(join(dir, `zone-${z}.yaml`), manifest(`bench-${z}.example.com`));
    const load = await time(() => loadManifests([dir]));
    if (load.value.errors.length > 0) throw new Error(`manifest errors: ${load.value.errors[0]!.message}`);
    const zones = load.value.zones;
    console.log(`manifests: ${ZONES} zones x (${N} filters + ${N} rules) loaded in ${fmt(load.ms)}`);

    const engineDir = join(root, 'engine');
    const provider = await openProvider({ stateDir: engineDir });
    const one = await time(() => fullApply(provider, zones[0]!));
    console.log(`full apply, 1 zone, embedded engine:  ${fmt(one.ms)}`);
    const zoneId = (await provider.resolveZone(zones[0]!.zone)).zone.id;
    const read = await median(5, () => provider.readZone(zoneId));
    const noop = await median(5, async () => {
      const plan = diffZone(zones[0]!, await provider.readZone(zoneId));
      if (hasChanges(plan)) throw new Error('the no-op plan has changes');
    });
    console.log(`no-op plan, 1 zone:                   ${fmt(noop)}   baseline (read only) ${fmt(read)}   ratio ${ratio(noop, read)}   target < 0.300 s`);

    const rest = await time(() => mapLimit(zones.slice(1), CONCURRENCY, (d) => fullApply(provider, d)));
    console.log(`full apply, ${ZONES - 1} more zones (x${CONCURRENCY}):     ${fmt(rest.ms)}`);
    const all = await time(() => mapLimit(zones, CONCURRENCY, async (d) => {
      if (hasChanges(await planZone(provider, d))) throw new Error(`${d.zone}: the no-op plan has changes`);
    }));
    const allRead = await time(() => mapLimit(zones, CONCURRENCY, async (d) => provider.readZone((await provider.resolveZone(d.zone)).zone.id)));
    console.log(`no-op plan, ${ZONES} zones (x${CONCURRENCY}):          ${fmt(all.ms)}   baseline (read only) ${fmt(allRead.ms)}   ratio ${ratio(all.ms, allRead.ms)}   target < 5.000 s`);
    await provider.close();

    await httpRequests(root, zones[0]!);
    console.log(`peak memory (max RSS):                ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MiB`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** Requests of a full apply and a no-op plan through `zonewall serve`, against one per object. */
async function httpRequests(root: string, desired: DesiredZone): Promise<void> {
  const engine = await Engine.open({ dir: join(root, 'served') });
  const token = 'bench-token-0123456789abcdef0123456789';
  const server = await startServer(engine, { port: 0, credentials: loadCredentials({ ZONEWALL_SERVE_TOKEN: token }) });
  try {
    await engine.createZone(desired.zone, { plan: 'enterprise' });
    const provider = await openProvider({ remote: server.url, env: { ZONEWALL_API_TOKEN: token } });
    const before = provider.stats.requests;
    const t = await time(() => fullApply(provider, desired));
    const applyRequests = provider.stats.requests - before;
    const mid = provider.stats.requests;
    const plan = await planZone(provider, desired);
    if (hasChanges(plan)) throw new Error('the no-op plan over HTTP has changes');
    const planRequests = provider.stats.requests - mid;
    const perObject = 2 * N;
    console.log(`HTTP full apply:  ${applyRequests} requests in ${fmt(t.ms)}   baseline (one per object) ${perObject}   ratio ${ratio(applyRequests, perObject)}   bound: reads + ceil(${N}/100) x 2 writes`);
    console.log(`HTTP no-op plan:  ${planRequests} requests   baseline (one per object) ${perObject}   ratio ${ratio(planRequests, perObject)}   bound: zone lookup + ceil(${N}/100) pages x 2 lists + WAF reads`);
    await provider.close();
  } finally {
    await server.close();
    await engine.close();
  }
}
