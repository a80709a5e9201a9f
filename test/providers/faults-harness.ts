/**
 * The harness of the fault suites: a real engine behind `zonewall serve`'s HTTP server on 127.0.0.1,
 * a fault proxy in front of it, the HTTP provider pointed at the proxy with a fake clock (backoff and Retry-After waits are
 * recorded, not slept; request timeouts stay real and short), and the retries it reported.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Engine, startServer } from '../../src/engine/index.js';
import type { RunningServer } from '../../src/engine/index.js';
import { openHttpProvider } from '../../src/providers/http/index.js';
import type { HttpProvider, RetryEvent } from '../../src/providers/http/index.js';
import type { LiveZoneInfo } from '../../src/plan/index.js';
import { FakeClock } from './fake-clock.js';
import { FaultProxy } from './fault-proxy.js';

export type { Intercepted } from './fault-proxy.js';

export const FaultToken = 'zw-fault-suite-token-0123456789abcdefghijklmnop';
/** Short, so a stalled answer times out quickly; far above what the local server needs. */
export const FaultTimeoutMs = 300;

/** One harness per test. */
export interface FaultHarness {
  engine: Engine;
  server: RunningServer;
  provider: HttpProvider;
  clock: FakeClock;
  retries: RetryEvent[];
  zone: LiveZoneInfo;
  /** The proxy the provider talks to: scripted faults, everything else passed to the server. */
  faults: FaultProxy;
  close(): Promise<void>;
}

/** `realClock` runs the backoff on the real clock (short, fixed jitter): for calls that overlap in time. */
export async function openFaultHarness(zoneName = 'faults.example', options: { realClock?: { backoffBaseMs: number }; listOperationPolls?: number } = {}): Promise<FaultHarness> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-faults-'));
  const engine = await Engine.open({ dir, ...(options.listOperationPolls !== undefined ? { listOperationPolls: options.listOperationPolls } : {}) });
  const server = await startServer(engine, { port: 0, credentials: [{ type: 'token', token: FaultToken, zones: '*' }] });
  const clock = new FakeClock();
  const retries: RetryEvent[] = [];
  const timing = options.realClock !== undefined ? { backoffBaseMs: options.realClock.backoffBaseMs, random: () => 0.99 } : { clock };
  const faults = await FaultProxy.start(server.url);
  const provider = openHttpProvider({ url: faults.url, env: { ZONEWALL_API_TOKEN: FaultToken }, timeoutMs: FaultTimeoutMs, onRetry: (e) => retries.push(e), ...timing });
  await engine.createZone(zoneName, { plan: 'enterprise' });
  const zone = (await provider.resolveZone(zoneName)).zone;
  return {
    engine, server, provider, clock, retries, zone, faults,
    async close() {
      await provider.close();
      await faults.close().catch(() => undefined); // a test may have taken it down (an outage)
      await server.close().catch(() => undefined); // a test may have stopped it (the server going down)
      await engine.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `/client/v4` + path, as the proxy matches it. */
export const apiPath = (p: string): string => `/client/v4${p}`;

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));


/** The first `n` characters of a JSON text: the answer as a connection cut short delivers it. */
export function cut(body: unknown, n = 40): string {
  return JSON.stringify(body).slice(0, n);
}
