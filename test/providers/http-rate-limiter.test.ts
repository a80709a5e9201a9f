import { describe, it, expect } from 'vitest';
import { RateLimiter, parseRateLimit } from '../../src/providers/http/rate-limiter.js';
import { HttpDefaults } from '../../src/providers/http/defaults.js';
import { backoffMs, retryAfterMs } from '../../src/providers/http/clock.js';
import { FakeClock } from './fake-clock.js';

describe('RateLimiter', () => {
  it('lets `requests` through per window and holds the next until the oldest leaves the window', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requests: 3, seconds: 10 }, clock);
    const start = clock.now();
    for (let i = 0; i < 3; i++) await limiter.acquire();
    expect(clock.sleeps).toEqual([]);
    await limiter.acquire();
    expect(clock.now() - start).toBe(10_000);
  });

  it('never allows more than the budget in any window, even with concurrent callers', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requests: 5, seconds: 60 }, clock);
    const times: number[] = [];
    await Promise.all(Array.from({ length: 23 }, () => limiter.acquire().then(() => times.push(clock.now()))));
    times.sort((a, b) => a - b);
    for (let i = 5; i < times.length; i++) expect(times[i] - times[i - 5]).toBeGreaterThanOrEqual(60_000);
  });

  it('estimates how long a number of requests takes against the budget', async () => {
    const limiter = new RateLimiter(HttpDefaults.rateLimit, new FakeClock());
    expect(limiter.estimateSeconds(0)).toBe(0);
    expect(limiter.estimateSeconds(1200)).toBe(0);
    expect(limiter.estimateSeconds(1201)).toBe(300);
    expect(limiter.estimateSeconds(2400)).toBe(300);
    expect(limiter.estimateSeconds(2401)).toBe(600);
  });

  it('counts requests already sent in the estimate', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requests: 2, seconds: 100 }, clock);
    await limiter.acquire();
    clock.t += 40_000;
    expect(limiter.estimateSeconds(1)).toBe(0);
    expect(limiter.estimateSeconds(2)).toBe(60);
  });

  it('holds every request during a pause (after a 429)', async () => {
    const clock = new FakeClock();
    const limiter = new RateLimiter({ requests: 100, seconds: 1 }, clock);
    limiter.pause(2_500);
    await limiter.acquire();
    expect(clock.sleeps).toEqual([2_500]);
  });

  it('refuses a budget of zero requests', () => {
    expect(() => new RateLimiter({ requests: 0, seconds: 1 }, new FakeClock())).toThrow(/at least 1 request/);
  });
});

describe('parseRateLimit', () => {
  it.each([
    ['1200/300s', 1200, 300],
    ['1200/300', 1200, 300],
    ['1200/5m', 1200, 300],
    [' 10 / 1s ', 10, 1],
  ])('reads %j', (text, requests, seconds) => {
    expect(parseRateLimit(text)).toEqual({ requests, seconds });
  });

  it.each(['', '1200', '0/300s', '1200/0s', 'abc/1s', '12/3h'])('refuses %j naming the accepted form', (text) => {
    expect(() => parseRateLimit(text)).toThrow(/expected <requests>\/<seconds>s such as 1200\/300s/);
  });
});

describe('backoff and Retry-After', () => {
  it('draws full jitter under an exponential ceiling capped at the maximum', () => {
    const policy = { backoffBaseMs: 100, backoffMaxMs: 1_000 };
    expect(backoffMs(1, policy, () => 0.999)).toBe(99);
    expect(backoffMs(3, policy, () => 0.5)).toBe(200);
    expect(backoffMs(10, policy, () => 0.999)).toBe(999);
    expect(backoffMs(4, policy, () => 0)).toBe(0);
  });

  it('reads delta-seconds and HTTP dates', () => {
    const now = Date.parse('2025-01-01T00:00:00Z');
    expect(retryAfterMs('2', now)).toBe(2_000);
    expect(retryAfterMs('0.5', now)).toBe(500);
    expect(retryAfterMs('Wed, 01 Jan 2025 00:00:03 GMT', now)).toBe(3_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });
});
