/**
 * One broken link, many calls. The 25 "network error; retrying" lines for 6 requests came
 * from a server that stopped answering while a zone's reads ran concurrently: each read retried and
 * reported on its own, with its own backoff (30 lines here before the fix). Now calls that meet a
 * connection fault share one wait and one line per round, and nothing is sent while it lasts.
 */
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
    h.faults
      .on('GET', (uri) => uri.includes(h.zone.id) && !uri.includes('waf_migration'), () => {
        failed++;
        throw new Error('other side closed'); // the proxy drops the connection
      }, reads - 1);
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

describe('HTTP faults: the server goes down under concurrent reads', () => {
  it('one retry line per round of the shared wait, not one per call and round', async () => {
    const outage = await openFaultHarness('down.example', { realClock: { backoffBaseMs: 50 } });
    try {
      // The migration status answers; then nothing listens any more (connection refused).
      outage.faults
        .on('GET', (uri) => uri.includes('waf_migration'), () => {
          outage.faults.goDownAfterAnswer();
          return [200, { success: true, errors: [], messages: [], result: { version: 0, waf_state: 'previous_only' } }];
        });
      const err = await outage.provider.readZone(outage.zone.id).catch((e: unknown) => e);
      expect((err as Error).message).toMatch(/failed after 6 attempts: .*ECONNREFUSED/);
      // Before: every concurrent read retried and reported on its own (28 lines for 5 retries).
      expect(outage.retries.length).toBeGreaterThan(0);
      expect(outage.retries.length).toBeLessThanOrEqual(5);
    } finally {
      await outage.close();
    }
  });
});
