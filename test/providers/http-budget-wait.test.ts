/**
 * Waiting for the request budget is never silent: the run's one limiter tells a listener when
 * requests wait (the budget, or a 429's Retry-After that pauses every request) and when they flow
 * again, and the CLI's progress line renders it in place on a terminal, one line per wait otherwise.
 */
import { describe, expect, it } from 'vitest';
import { budgetProgress, budgetWaitText } from '../../src/cli/views/budget-progress.js';
import { RateLimiter, type BudgetWait } from '../../src/providers/http/rate-limiter.js';
import { FakeClock } from './fake-clock.js';

function recording(limiter: RateLimiter): string[] {
  const events: string[] = [];
  limiter.listener = { waiting: (w) => events.push(`wait ${w.reason} ${w.ms}`), resumed: () => events.push('resumed') };
  return events;
}

describe('budget waits', () => {
  it('reports a wait for the full window, once, then that requests flow again', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requests: 3, seconds: 10 }, clock);
    const events = recording(limiter);
    for (let i = 0; i < 3; i++) await limiter.acquire();
    expect(events).toEqual([]);
    await limiter.acquire();
    expect(events).toEqual(['wait budget 10000', 'resumed']);
  });

  it('a Retry-After pause holds every caller of the run, and says so', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requests: 100, seconds: 10 }, clock);
    const events = recording(limiter);
    limiter.pause(5000);
    // Two zones' requests: both wait for the pause, through the same limiter.
    await Promise.all([limiter.acquire(), limiter.acquire()]);
    expect(clock.sleeps).toEqual([5000]);
    expect(events).toEqual(['wait retry-after 5000', 'resumed']);
  });

  it('does not report waits under a second (the window freeing one slot at a time)', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requests: 2, seconds: 0.5 }, clock);
    const events = recording(limiter);
    for (let i = 0; i < 5; i++) await limiter.acquire();
    expect(clock.sleeps.length).toBeGreaterThan(0);
    expect(events).toEqual([]);
  });
});

describe('the progress line', () => {
  const wait: BudgetWait = { ms: 298_400, reason: 'budget', limit: { requests: 1200, seconds: 300 } };

  it('says what it waits for and how long', () => {
    expect(budgetWaitText(wait)).toBe('zonewall: waiting 299 s for the API request budget (1,200/300 s)');
    expect(budgetWaitText({ ...wait, ms: 30_000, reason: 'retry-after' })).toBe('zonewall: the API asked to slow down (429); all requests wait 30 s');
  });

  it('prints one line per wait when stderr is not a terminal', () => {
    let out = '';
    const p = budgetProgress({ write: (s: string) => ((out += s), true), isTTY: false });
    p.waiting(wait);
    p.resumed();
    p.waiting(wait);
    expect(out).toBe(`${budgetWaitText(wait)}\n${budgetWaitText(wait)}\n`);
  });

  it('rewrites one line in place on a terminal and clears it when requests flow again', () => {
    let out = '';
    const p = budgetProgress({ write: (s: string) => ((out += s), true), isTTY: true });
    p.waiting(wait);
    p.resumed();
    expect(out).toBe(`\r\x1b[K${budgetWaitText(wait)}…\r\x1b[K`);
    expect(out).not.toContain('\n');
  });
});
