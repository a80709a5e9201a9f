/**
 * A real embedded-engine provider in a temp directory for apply tests, and a helper that plans a
 * desired zone against it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DesiredZone } from '../../src/manifest/index.js';
import { diffZone, type Plan, type PlanOptions } from '../../src/plan/index.js';
import { openProvider, type Provider } from '../../src/providers/index.js';

export interface EngineFixture {
  dir: string;
  provider: Provider;
  zoneId: string;
  plan(desired: DesiredZone, options?: PlanOptions): Promise<Plan>;
  close(): Promise<void>;
}

export async function engineFixture(tier: 'free' | 'pro' | 'business' | 'enterprise' = 'enterprise'): Promise<EngineFixture> {
  const dir = mkdtempSync(join(tmpdir(), 'zw-apply-'));
  const provider = await openProvider({ stateDir: dir });
  const { zone } = await provider.resolveZone('example.com', { create: { plan: tier } });
  return {
    dir, provider, zoneId: zone.id,
    async plan(desired, options) {
      return diffZone(desired, await provider.readZone(zone.id), options);
    },
    async close() {
      await provider.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
