/**
 * One dropped link, many calls: when the concurrent reads of a zone all meet a reset connection, the
 * transport reports one retry line for the outage (not one per call), sends nothing while it waits,
 * and the read converges. The run printed 25 "network error; retrying" lines for 6 requests.
 */
import nock from 'nock';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { filterBodies } from '../../src/providers/contract.suite.js';
import { openFaultHarness, type FaultHarness } from './faults-harness.js';

let h: FaultHarness;
// The shared wait must outlast the moment the failed calls come back: real time, 0.99 * 1 s.
beforeEach(async () => { h = await openFaultHarness('outage.example', { realClock: { backoffBaseMs: 1000 } }); });
afterEach(async () => { await h.close(); });

describe('HTTP faults: an outage met by concurrent reads', () => {
  it('reports one retry for the outage, not one per call, and converges', async () => {
    await h.provider.createFilters(h.zone.id, filterBodies(3));
    // How many calls one read of this zone makes: the migration status, then all the others at once.
    const before = h.provider.stats.requests;
    await h.provider.readZone(h.zone.id);
    const reads = h.provider.stats.requests - before;
    expect(reads).toBeGreaterThan(3);
    h.retries.length = 0;

    let failed = 0;
    nock(h.origin, { allowUnmocked: true })
      .get((uri) => uri.includes(h.zone.id) && !uri.includes('waf_migration')).times(reads - 1)
      .reply(async () => {
        failed++;
        throw Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });
      });
    const retriesBefore = h.provider.stats.retries ?? 0;
    const live = await h.provider.readZone(h.zone.id);
    expect(live.filters.map((f) => f.ref).sort()).toEqual(['f-0', 'f-1', 'f-2']);
    expect(failed).toBe(reads - 1);
    expect((h.provider.stats.retries ?? 0) - retriesBefore).toBe(reads - 1);
    // The first wave of concurrent reads shares one line; reads that start only after it (the previous
    // WAF's groups and rules, once its packages are read) may meet the rest of the faults in a second wave.
    expect(failed).toBeGreaterThanOrEqual(6);
    expect(h.retries.length).toBeLessThanOrEqual(2);
    expect(h.retries.map((r) => [r.method, r.reason])).toEqual(h.retries.map(() => ['GET', 'network']));
  });
});
