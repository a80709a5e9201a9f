/**
 * The server's cache of split request targets agrees with splitting each target afresh: the same
 * path (verbatim, dots and escapes as data), the same query, and pairs that are exactly the query's,
 * for a repeat target, for targets that differ only in their query, and past the cache's bound.
 */
import { describe, expect, it } from 'vitest';
import { splitTarget, TargetCache } from '../../../src/engine/server/targets.js';

const Targets = [
  '/client/v4/zones/z/firewall/rules?per_page=100&page=1',
  '/client/v4/zones/z/firewall/rules?per_page=100&page=2',
  '/client/v4/zones/z/firewall/rules?page=2&per_page=100',
  '/client/v4/zones/z/firewall/rules',
  '/client/v4/zones/z/firewall/rules?',
  '/client/v4/zones/z/filters/%2e%2e?id=a&id=b&id=a',
  '/client/v4/zones/z/filters/..?q=%20x+y&empty=&=v',
  '/client/v4/zones/z/filters?a=1?b=2',
];

function expectAgrees(target: string, cache: TargetCache): void {
  const got = cache.split(target);
  const fresh = splitTarget(target);
  expect(got.pathname).toBe(fresh.pathname);
  expect(got.query.toString()).toBe(fresh.query.toString());
  expect(got.queryPairs).toEqual([...fresh.query]);
  expect(Object.isFrozen(got.queryPairs)).toBe(true);
  for (const pair of got.queryPairs) expect(Object.isFrozen(pair)).toBe(true);
}

describe('TargetCache', () => {
  it('splits a target as splitting it afresh does, first and repeat', () => {
    const cache = new TargetCache();
    for (let round = 0; round < 3; round++) for (const t of Targets) expectAgrees(t, cache);
  });

  it('hands on the same split for a repeat target, and a different one for another query', () => {
    const cache = new TargetCache();
    expect(cache.split(Targets[0]!)).toBe(cache.split(Targets[0]!));
    expect(cache.split(Targets[1]!).queryPairs).not.toEqual(cache.split(Targets[0]!).queryPairs);
  });

  it('stays right past its bound (many distinct targets)', () => {
    const cache = new TargetCache();
    for (let i = 0; i < 1_300; i++) expectAgrees(`/client/v4/zones/z/filters/f${i}?page=${i % 7}`, cache);
    for (const t of Targets) expectAgrees(t, cache);
  });
});
