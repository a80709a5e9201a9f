/**
 * The run's call estimate: every zone's reads (pages of each list, one call per section read) and
 * writes, against the budget all zones share, and the wait a sliding window implies.
 */
import { describe, expect, it } from 'vitest';
import { budgetWaitSeconds, diffZone, estimateReads, estimateRun, renderRunCalls, zoneLookups } from '../../src/plan/index.js';
import { dFilter, desired, lFilter, live } from './fixtures.js';

const budget = { requests: 1200, windowSeconds: 300 };

describe('run call estimate', () => {
  it('counts a page per 100 objects of each list and one call per section read', () => {
    const filters = Array.from({ length: 1000 }, (_, i) => lFilter(`f${i}`, `ip.src eq 10.0.0.${i % 250}`));
    expect(estimateReads(live({ filters, sections: [] }))).toBe(10 + 1);
    expect(estimateReads(live({ filters, sections: ['migration', 'entrypoint'] }))).toBe(13);
    expect(estimateReads(live({ filters, sections: ['custom_rules'] }))).toBe(10 + 1 + 1);
    // Every section read (custom and rate limiting entry points and Page Rules included); a previous
    // WAF that answered nothing still cost its package list.
    expect(estimateReads(live({ filters }))).toBe(10 + 1 + 1 + 1 + 1 + 1 + 1 + 1);
    // The migration proposal only when named, and only before the zone finished migrating.
    expect(estimateReads(live({ filters, sections: ['migration', 'migration_config'] }))).toBe(10 + 1 + 1 + 1);
  });

  it('adds the reads and writes of every zone, and waits a window per 1,200 past the first', () => {
    const plan = diffZone(desired({ filters: [dFilter('a', 'ip.src eq 192.0.2.1')] }), live({ sections: [] }));
    const plans = Array.from({ length: 50 }, () => plan);
    const run = estimateRun(plans, zoneLookups(50), { budgetRequests: 1200, budgetWindowSeconds: 300 });
    expect(run).toMatchObject({ reads: 1 + 50 * 2, writes: 50, requests: 151, waitSeconds: 0 });
    expect(budgetWaitSeconds(1450, budget)).toBe(300);
    expect(budgetWaitSeconds(1200, budget)).toBe(0);
    expect(budgetWaitSeconds(2401, budget)).toBe(600);
  });

  it('says the run total and the wait in words', () => {
    expect(renderRunCalls({ reads: 1440, writes: 10, requests: 1450, budget, waitSeconds: 300 }))
      .toBe('API calls for this run: 1,450 requests (1,440 reads, 10 writes), about 5 min of waiting at 1,200/300 s.');
    expect(renderRunCalls({ reads: 1, writes: 0, requests: 1, budget, waitSeconds: 0 }))
      .toBe('API calls for this run: 1 request (1 read, 0 writes), within the budget of 1,200/300 s, no wait.');
  });

  it('finds many zones with one zones list of 50 a page, one zone with a lookup', () => {
    expect(zoneLookups(1)).toBe(1);
    expect(zoneLookups(50)).toBe(1);
    expect(zoneLookups(51)).toBe(2);
  });
});
