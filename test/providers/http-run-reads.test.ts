/**
 * What a run reads over HTTP, counted by a proxy in front of a real engine server: only the
 * sections the manifests need (no previous WAF, status or entry point for a manifest of filters
 * and rules, even on zones still on the previous WAF), one zones list for many manifests, and a
 * run estimate equal to the requests sent. Counts, never times.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planZones } from '../../src/cli/commands/plan-run.js';
import { runCallsLine } from '../../src/cli/views/text.js';
import { Engine, startServer, type RunningServer } from '../../src/engine/index.js';
import type { DesiredZone } from '../../src/manifest/index.js';
import { estimateRun } from '../../src/plan/index.js';
import { openHttpProvider } from '../../src/providers/http/index.js';
import { startCountingProxy, type CountingProxy } from '../../support/counting-proxy.js';
import { dFilter, desired, dManaged, dRule } from '../plan/fixtures.js';

const Token = 'zw-run-reads-token-0123456789abcdefghijklmn';
const Zones = ['a.example', 'b.example', 'c.example'];
let dir: string;
let engine: Engine;
let server: RunningServer;
let proxy: CountingProxy;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-run-reads-'));
  engine = await Engine.open({ dir });
  for (const name of Zones) {
    const zone = await engine.createZone(name, { plan: 'enterprise', waf: 'previous' });
    // 150 filters: two pages of 100.
    const body = Array.from({ length: 150 }, (_, i) => ({ expression: `ip.src eq 10.0.${i >> 8}.${i & 255}`, ref: `f${i}` }));
    await engine.dispatch({ method: 'POST', path: `/zones/${zone.id}/filters`, body });
  }
  server = await startServer(engine, { port: 0, credentials: [{ type: 'token', token: Token, zones: '*' }] });
  proxy = await startCountingProxy(server.url);
});
afterAll(async () => {
  await proxy?.close();
  await server?.close();
  await engine?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Each zone's manifest: its 150 filters, and `more`. */
function manifests(more: Partial<DesiredZone> = {}): DesiredZone[] {
  return Zones.map((zone) => desired({
    zone, file: `${zone}.yaml`,
    filters: Array.from({ length: 150 }, (_, i) => dFilter(`f${i}`, `ip.src eq 10.0.${i >> 8}.${i & 255}`)),
    ...more,
  }));
}

async function run(zones: DesiredZone[]) {
  proxy.reset();
  const provider = openHttpProvider({ url: proxy.url, env: { ZONEWALL_API_TOKEN: Token } });
  try {
    const runs = await planZones(provider, zones, {});
    for (const r of runs) expect(r.error).toBeUndefined();
    return { runs, counts: Object.fromEntries(proxy.counts), total: proxy.total(), line: runCallsLine(runs, provider) };
  } finally {
    await provider.close();
  }
}

describe('a run over HTTP reads what its manifests need', () => {
  it('filters and rules only: list pages and one zones list, no previous WAF on a previous_only zone', async () => {
    const { runs, counts, total, line } = await run(manifests());
    expect(counts).toEqual({
      'GET /zones': 1,
      'GET /zones/{id}/filters': 6,
      'GET /zones/{id}/firewall/rules': 3,
    });
    expect(runs.every((r) => r.plan !== undefined && r.plan.changes.every((c) => c.action === 'no-op'))).toBe(true);
    // The run's estimate is what was sent.
    expect(estimateRun(runs.map((r) => r.plan!), 1).requests).toBe(total);
    expect(line).toBe(`API calls for this run: ${total} requests (${total} reads, 0 writes), within the budget of 1,200/300 s, no wait.`);
  });

  it('managed_rules adds the entry point; previous_waf adds the status and the previous WAF', async () => {
    const managed = await run(manifests({ managedRules: [dManaged('managed', 'efb7b8c949ac4650a09736fc376e9aee')] }));
    expect(managed.counts['GET /zones/{id}/rulesets/phases/http_request_firewall_managed/entrypoint']).toBe(3);
    expect(managed.counts['GET /zones/{id}/waf_migration/status']).toBeUndefined();
    expect(managed.counts['GET /zones/{id}/firewall/waf/packages']).toBeUndefined();

    const previous = await run(manifests({ previousWaf: { packages: {}, groups: {}, rules: {}, location: { file: 'z.yaml', line: 1, column: 1 } } }));
    expect(previous.counts['GET /zones/{id}/waf_migration/status']).toBe(3);
    expect(previous.counts['GET /zones/{id}/firewall/waf/packages']).toBe(3);
    expect(previous.counts['GET /zones/{id}/rulesets/phases/http_request_firewall_managed/entrypoint']).toBeUndefined();
    expect(estimateRun(previous.runs.map((r) => r.plan!), 1).requests).toBe(previous.total);
  });

  it('one zone is looked up by name, not listed', async () => {
    const { counts } = await run(manifests().slice(0, 1));
    expect(counts['GET /zones']).toBe(1);
  });

  it('a saved plan records the sections it read', async () => {
    const { runs } = await run(manifests({ firewallRules: [dRule('r', 'f1')] }));
    expect(runs[0]!.plan!.settings.reads).toEqual([]);
  });
});
