/**
 * The provider contract through the HTTP provider against `zonewall serve --runtime workerd`: the
 * Worker of deploy/worker in Miniflare, each zone a SQLite Durable Object. One workerd for the
 * file; each test's zones are created through the API (`POST /zones`) and deleted after it.
 */
import { rmSync } from 'node:fs';
import { afterAll } from 'vitest';
import { providerContract, type ContractHarness } from '../../src/providers/contract.suite.js';
import { openHttpProvider } from '../../src/providers/http/index.js';
import { startWorkerd } from '../helpers/workerd.js';

const Token = 'zw-test-token-workerd-0123456789abcdefghij';
let running: ReturnType<typeof startWorkerd> | undefined;
afterAll(async () => {
  if (running === undefined) return;
  const server = await running;
  await server.close();
  rmSync(server.dir, { recursive: true, force: true });
});

async function raw(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: { success: boolean; result: unknown } }> {
  const res = await fetch(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${Token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  return { status: res.status, body: (await res.json()) as { success: boolean; result: unknown } };
}

async function openHarness(): Promise<ContractHarness> {
  running ??= startWorkerd({ credentials: [{ type: 'token', token: Token, zones: '*' }] });
  const { url } = await running;
  const provider = openHttpProvider({ url, env: { ZONEWALL_API_TOKEN: Token } });
  const created: string[] = [];
  return {
    provider,
    createZone: async (name, plan) => {
      const res = await raw(url, 'POST', '/zones', { name, plan_tier: plan });
      if (!res.body.success) throw new Error(`zone ${name} not created: ${JSON.stringify(res.body)}`);
      created.push((res.body.result as { id: string }).id);
      return (await provider.resolveZone(name)).zone;
    },
    raw: (method, p, body) => raw(url, method, p, body),
    close: async () => {
      await provider.close();
      for (const id of created) await raw(url, 'DELETE', `/zones/${id}`);
    },
  };
}

providerContract('HTTP against zonewall serve --runtime workerd', openHarness);
