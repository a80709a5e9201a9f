/**
 * The HTTP provider against `zonewall serve` with faults a real server does not produce on demand,
 * injected by a fault proxy in front of it: a POST whose answer never arrives although the server created
 * the objects (the client times out), a 429 with Retry-After, and bursts of 5xx. Unmatched calls
 * pass through to the real server. The zone must end with exactly the desired objects.
 */
import { describe, it, expect, beforeEach, afterEach } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine, startServer } from '../../src/engine/index.js';
import type { RunningServer } from '../../src/engine/index.js';
import { openHttpProvider } from '../../src/providers/http/index.js';
import type { HttpProvider, RetryEvent } from '../../src/providers/http/index.js';
import { filterBodies, readBudget } from '../../src/providers/contract.suite.js';
import type { FirewallRuleBody, LiveZoneInfo } from '../../src/plan/index.js';
import { FakeClock } from './fake-clock.js';
import { FaultProxy, type Intercepted } from './fault-proxy.js';

const Token = 'zw-fault-token-0123456789abcdefghijklmnopqrstuv';
const TimeoutMs = 300;

let dir: string;
let engine: Engine;
let server: RunningServer;
let faults: FaultProxy;
let provider: HttpProvider;
let clock: FakeClock;
let retries: RetryEvent[];
let zone: LiveZoneInfo;

beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-provider-faults-'));
  engine = await Engine.open({ dir });
  server = await startServer(engine, { port: 0, credentials: [{ type: 'token', token: Token, zones: '*' }] });
  clock = new FakeClock();
  retries = [];
  // The fake clock makes backoff and Retry-After waits instant and records them; request timeouts stay real.
  faults = await FaultProxy.start(server.url);
  provider = openHttpProvider({ url: faults.url, env: { ZONEWALL_API_TOKEN: Token }, timeoutMs: TimeoutMs, clock, onRetry: (e) => retries.push(e) });
  await engine.createZone('faults.example', { plan: 'enterprise' });
  zone = (await provider.resolveZone('faults.example')).zone;
});

afterEach(async () => {
  await provider.close();
  await faults.close();
  await server.close();
  await engine.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const apiPath = (p: string) => `/client/v4${p}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Applies a call on the real engine, then answers only after the client has given up. */
function appliedThenLost(p: string) {
  return async (req: Intercepted): Promise<[number, object]> => {
    const res = await engine.dispatch({ method: 'POST', path: p, body: await req.json() });
    await sleep(TimeoutMs * 6);
    return [res.status, res.body as object];
  };
}

describe('HTTP provider under faults', () => {
  it('ends with exactly the desired objects: lost answers, 429 with Retry-After, 5xx bursts', async () => {
    const n = 250;
    const filtersPath = `/zones/${zone.id}/filters`;
    const rulesPath = `/zones/${zone.id}/firewall/rules`;
    const busy = { success: false, errors: [{ code: 10500, message: 'upstream busy' }], messages: [], result: null };
    faults
      // Filters: the first batch is created but its answer is lost (client timeout)...
      .on('POST', apiPath(filtersPath), appliedThenLost(filtersPath))
      // ...the re-read that follows meets a burst of two 503s...
      .on('GET', apiPath(filtersPath), [503, busy], 2)
      // Rules: a 429 with Retry-After on the first batch, then a 502 after the server applied the second.
      .on('POST', apiPath(rulesPath), [429, { success: false, errors: [{ code: 10429, message: 'rate limited' }], messages: [], result: null }, { 'Retry-After': '1' }])
      .on('POST', apiPath(rulesPath), async (req: Intercepted) => {
        await engine.dispatch({ method: 'POST', path: rulesPath, body: await req.json() });
        return [502, busy];
      });

    const before = provider.stats.requests;
    const filters = await provider.createFilters(zone.id, filterBodies(n));
    // 3 batch POSTs (the lost one is not resent) + a re-read of the 100 it created (1 page) after two 503s.
    expect(provider.stats.requests - before).toBe(3 + 1 + 2);
    const rules: FirewallRuleBody[] = filters.map((f, i) => ({ action: 'block', priority: i + 1, paused: false, ref: `rule-${i}`, filter: { id: f.id } }));
    const middle = provider.stats.requests;
    const created = await provider.createFirewallRules(zone.id, rules);
    // Batch 1 meets the 429, and its retry the 502 (applied): a re-read of its 100 rules (1 page) finds them
    // all, so nothing is resent; batches 2 and 3 go through. 4 POSTs + 1 GET.
    expect(provider.stats.requests - middle).toBe(4 + 1);
    expect(faults.pending()).toEqual([]);

    const beforeRead = provider.stats.requests;
    const live = await provider.readZone(zone.id);
    expect(provider.stats.requests - beforeRead).toBeLessThanOrEqual(readBudget(live));
    expect(live.filters.map((f) => f.ref).sort()).toEqual(filterBodies(n).map((f) => f.ref).sort());
    expect(live.firewallRules.map((r) => r.ref).sort()).toEqual(rules.map((r) => r.ref).sort());
    expect(new Set(created.map((r) => r.id)).size).toBe(n);
    expect(created.map((r) => r.ref)).toEqual(rules.map((r) => r.ref));

    // Every retry is reported, the re-reads after a lost POST answer too (README: "every retry is reported").
    expect(retries.map((r) => r.reason)).toEqual(['lost-answer', 'server-error', 'server-error', 'rate-limited', 'lost-answer']);
    expect(clock.sleeps).toContain(1_000);
  });

  it('re-reads by ref after a lost answer to a POST that the server never applied, then sends it once', async () => {
    const filtersPath = `/zones/${zone.id}/filters`;
    faults
      .on('POST', apiPath(filtersPath), async () => {
        await sleep(TimeoutMs * 6);
        return [200, { success: true, errors: [], messages: [], result: [] }];
      });
    const created = await provider.createFilters(zone.id, filterBodies(3));
    expect(created.map((f) => f.ref)).toEqual(['f-0', 'f-1', 'f-2']);
    const live = await provider.readZone(zone.id);
    expect(live.filters).toHaveLength(3);
  });

  it('does not leak the token into errors when every attempt fails', async () => {
    faults
      .on('GET', apiPath(`/zones/${zone.id}/filters`), [500, { success: false, errors: [{ code: 10500, message: `boom ${Token}` }], messages: [], result: null }], 10);
    const err = await provider.readZone(zone.id).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('boom [REDACTED]');
    expect((err as Error).message).not.toContain(Token);
  });
});
