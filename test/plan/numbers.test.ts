/**
 * Counts are written with thousands separators as `toLocaleString('en-US')` writes them, without
 * calling it (its first call loads ICU's number formatting: ~10 ms and ~7 MiB of a run).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderCalls, renderRunCalls, thousands } from '../../src/plan/index.js';
import { budgetWaitText } from '../../src/cli/views/budget-progress.js';

afterEach(() => vi.restoreAllMocks());

describe('thousands', () => {
  it('writes whole numbers as en-US does', () => {
    const samples = [0, 1, 9, 10, 999, 1000, 1001, 9999, 12345, 100000, 999999, 1000000, 1234567, 2 ** 31, Number.MAX_SAFE_INTEGER, -1, -999, -1000, -1234567];
    for (const n of samples) expect(thousands(n), String(n)).toBe(n.toLocaleString('en-US'));
  });

  it('the call lines and the budget wait line never call toLocaleString', () => {
    const spy = vi.spyOn(Number.prototype, 'toLocaleString');
    const budget = { requests: 1200, windowSeconds: 300 };
    expect(renderRunCalls({ reads: 1440, writes: 10, requests: 1450, budget, waitSeconds: 313 }))
      .toBe('API calls for this run: 1,450 requests (1,440 reads, 10 writes), about 5 min of waiting at 1,200/300 s.');
    expect(renderCalls({ requests: 1001, phases: [], batchSize: 100, budget, waitSeconds: 0 })).toBe('API calls: 1,001 write requests.');
    expect(budgetWaitText({ ms: 2000, limit: { requests: 1200, seconds: 300 }, reason: 'budget' }))
      .toBe('zonewall: waiting 2 s for the API request budget (1,200/300 s)');
    expect(spy).not.toHaveBeenCalled();
  });
});
