import { describe, it, expect, afterEach } from 'vitest';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openEngineProvider, type EngineProvider } from '../../src/providers/engine/index.js';
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
    createZone: async (name, plan) => {
      // Created on the engine itself (the provider creates a missing zone only at its first write).
      const zone = await provider.engine.createZone(name, { plan });
      return (await provider.resolveZone(zone.id)).zone;
    },
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

  it('plans a missing zone only when asked: it reads as a new zone of that tier and is not created', async () => {
    h = await openHarness();
    const provider = h.provider as EngineProvider;
    await expect(h.provider.resolveZone('new.example')).rejects.toThrow(/not found at embedded engine at/);
    const first = await h.provider.resolveZone('new.example', { create: { plan: 'pro' } });
    expect(first.missing).toBe(true);
    expect(first.zone.plan).toBe('pro');
    const again = await h.provider.resolveZone('new.example', { create: { plan: 'pro' } });
    expect(again).toEqual({ zone: first.zone, missing: true });
    const live = await h.provider.readZone(first.zone.id);
    expect(live.zone.id).toBe(first.zone.id);
    expect(live.filters).toEqual([]);
    expect(live.migration?.waf_state).toBe('previous_only');
    expect(live.previousWaf?.packages.length).toBeGreaterThan(0);
    expect(await provider.engine.listZones()).toEqual([]);
    expect(provider.zonesCreated).toEqual([]);
  });

  it('creates a missing zone at its first write, with the id the plan showed', async () => {
    h = await openHarness();
    const provider = h.provider as EngineProvider;
    const { zone } = await h.provider.resolveZone('new.example', { create: { plan: 'business' } });
    await Promise.all([
      h.provider.createFilters(zone.id, [{ expression: 'ip.src eq 192.0.2.1', paused: false, ref: 'a' }]),
      h.provider.createFilters(zone.id, [{ expression: 'ip.src eq 192.0.2.2', paused: false, ref: 'b' }]),
    ]);
    expect((await provider.engine.listZones()).map((z) => [z.id, z.name, z.plan])).toEqual([[zone.id, 'new.example', 'business']]);
    expect(provider.zonesCreated).toEqual([{ id: zone.id, name: 'new.example', plan: 'business' }]);
    expect((await h.provider.readZone(zone.id)).filters.map((f) => f.ref).sort()).toEqual(['a', 'b']);
    expect(await h.provider.resolveZone('new.example', { create: { plan: 'business' } })).toEqual({ zone, missing: false });
  });

  it('a missing zone planned with an id (a saved plan) reads with that id', async () => {
    h = await openHarness();
    const id = 'ab'.repeat(16);
    const { zone } = await h.provider.resolveZone('saved.example', { create: { plan: 'enterprise', id } });
    expect(zone.id).toBe(id);
    expect((await h.provider.readZone(id)).zone.id).toBe(id);
  });

  it('a bookmark of a missing zone (taken just before the first write of an apply) creates it', async () => {
    h = await openHarness();
    const provider = h.provider as EngineProvider;
    const { zone } = await h.provider.resolveZone('mark.example', { create: { plan: 'enterprise' } });
    const mark = await h.provider.bookmark!(zone.id);
    await h.provider.createFilters(zone.id, [{ expression: 'ip.src eq 192.0.2.1', paused: false }]);
    await h.provider.restore!(zone.id, mark);
    expect((await h.provider.readZone(zone.id)).filters).toEqual([]);
    expect((await provider.engine.getZone('mark.example'))?.id).toBe(zone.id);
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

describe('engine provider lists', () => {
  it('are fixed (pages joined without looking for repeats) only on a read-only engine no writer can reach', async () => {
    const dir = tempDir();
    try {
      const writer = await openEngineProvider({ stateDir: dir });
      const zone = await writer.engine.createZone('fixed.example', { plan: 'enterprise' });
      await writer.createFilters(zone.id, Array.from({ length: 150 }, (_, i) => ({ expression: `ip.src eq 192.0.2.${i}`, paused: false })));
      expect(writer.engine.frozen).toBe(false);
      const written = (await writer.readZone(zone.id)).filters.map((f) => f.id);
      await writer.close();
      const reader = await openEngineProvider({ stateDir: dir, readOnly: true });
      try {
        expect(reader.engine.frozen).toBe(true);
        expect((await reader.readZone(zone.id)).filters.map((f) => f.id)).toEqual(written);
      } finally {
        await reader.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
