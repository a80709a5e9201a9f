import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyZone, readApplyRecord, rollbackZone } from '../../src/apply/index.js';
import { hasChanges } from '../../src/plan/index.js';
import type { Provider } from '../../src/providers/index.js';
import { dFilter, desired, dRule } from '../plan/fixtures.js';
import { engineFixture, type EngineFixture } from './engine-fixture.js';

let fx: EngineFixture;
beforeEach(async () => { fx = await engineFixture(); });
afterEach(async () => { await fx.close(); });

const one = desired({ filters: [dFilter('a', 'ip.src eq 192.0.2.1')], firewallRules: [dRule('a', 'a')] });
const two = desired({ filters: [dFilter('b', 'ip.src eq 192.0.2.2')], firewallRules: [dRule('b', 'b')] });

describe('rollback', () => {
  it('records a bookmark before each apply and restores the zone to it, once', async () => {
    const zone = { id: fx.zoneId, name: 'example.com' };
    await applyZone(await fx.plan(one), fx.provider, { stateDir: fx.dir, now: () => new Date('2024-05-01T10:00:00Z') });
    const result = await applyZone(await fx.plan(two), fx.provider, { stateDir: fx.dir, now: () => new Date('2024-05-02T10:00:00Z'), force: true });
    expect(result.record).toMatchObject({ zoneId: fx.zoneId, zone: 'example.com', at: '2024-05-02T10:00:00.000Z' });
    expect(readApplyRecord(fx.dir, fx.zoneId)).toEqual(result.record);
    expect(hasChanges(await fx.plan(one))).toBe(true);
    const used = await rollbackZone(fx.provider, zone, fx.dir);
    expect(used.at).toBe('2024-05-02T10:00:00.000Z');
    expect(hasChanges(await fx.plan(one))).toBe(false);
    await expect(rollbackZone(fx.provider, zone, fx.dir)).rejects.toThrow(/no apply to roll back/);
  });

  it('records nothing for a plan without changes', async () => {
    await applyZone(await fx.plan(one), fx.provider, { stateDir: fx.dir, now: () => new Date('2024-05-01T10:00:00Z') });
    const noop = await applyZone(await fx.plan(one), fx.provider, { stateDir: fx.dir });
    expect(noop).toMatchObject({ ok: true, outcomes: [], requests: 0 });
    expect(readApplyRecord(fx.dir, fx.zoneId)?.at).toBe('2024-05-01T10:00:00.000Z');
  });

  it('refuses providers without bookmarks', async () => {
    const remote = { description: 'v4 API at http://127.0.0.1:1/client/v4' } as Provider;
    await expect(rollbackZone(remote, { id: fx.zoneId, name: 'example.com' }, undefined)).rejects.toThrow(/rollback needs the embedded engine/);
  });
});
