import { describe, it, expect, afterEach } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEngineProvider } from '../../src/providers/engine/index.js';
import { providerContract } from '../../src/providers/contract.suite.js';
import type { ContractHarness } from '../../src/providers/contract.suite.js';

function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'zw-provider-engine-'));
}

async function openHarness(): Promise<ContractHarness> {
  const dir = tempDir();
  const provider = await openEngineProvider({ stateDir: dir });
  return {
    provider,
    createZone: async (name, plan) => (await provider.resolveZone(name, { create: { plan } })).zone,
    raw: async (method, p, body) => {
      const res = await provider.engine.dispatch({ method, path: p, body });
      return { status: res.status, body: res.body };
    },
    close: async () => {
      await provider.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

providerContract('embedded engine', openHarness);

describe('engine provider', () => {
  let h: ContractHarness | undefined;
  afterEach(async () => {
    await h?.close();
    h = undefined;
  });

  it('creates a missing zone only when asked, with the plan tier asked for', async () => {
    h = await openHarness();
    await expect(h.provider.resolveZone('new.example')).rejects.toThrow(/not found at embedded engine at/);
    const first = await h.provider.resolveZone('new.example', { create: { plan: 'pro' } });
    expect(first.created).toBe(true);
    expect(first.zone.plan).toBe('pro');
    const again = await h.provider.resolveZone('new.example', { create: { plan: 'pro' } });
    expect(again).toEqual({ zone: first.zone, created: false });
  });

  it('restores a zone to a PITR bookmark', async () => {
    h = await openHarness();
    const { zone } = await h.provider.resolveZone('pitr.example', { create: { plan: 'enterprise' } });
    const mark = await h.provider.bookmark!(zone.id);
    await h.provider.createFilters(zone.id, [{ expression: 'ip.src eq 192.0.2.1', paused: false, ref: 'a' }]);
    expect((await h.provider.readZone(zone.id)).filters).toHaveLength(1);
    await h.provider.restore!(zone.id, mark);
    expect((await h.provider.readZone(zone.id)).filters).toHaveLength(0);
  });

  it('counts every in-process dispatch as a request', async () => {
    h = await openHarness();
    const { zone } = await h.provider.resolveZone('count.example', { create: { plan: 'enterprise' } });
    const before = h.provider.stats.requests;
    await h.provider.createFilters(zone.id, [{ expression: 'ip.src eq 192.0.2.1', paused: false }]);
    expect(h.provider.stats.requests - before).toBe(1);
    expect(h.provider.estimateSeconds?.(5000)).toBe(0);
  });
});
