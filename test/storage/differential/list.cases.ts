/** Differential cases of `list()`: ranges, prefix, reverse, limit, and how options are checked and coerced. */
import type { ListOptions, ObjectStorage } from '../../../src/storage/index.js';
import { defineCases } from './case.js';
import { settle } from './observe.js';

const SECTIONS = { section1key1: 1, section1key2: 2, section2key1: 3, section2key2: 4, section3key1: 5, section3key2: 6 };

/** The keys `list(options)` returns over the six section keys, or its error. */
async function keysOf(s: ObjectStorage, options: unknown): Promise<unknown> {
  await s.put(SECTIONS);
  return settle(async () => [...(await s.list(options as ListOptions)).keys()]);
}

export const listCases = defineCases('list', {
  'no options lists everything with values': async (s) => {
    await s.put({ b: 2, a: 1 });
    return [...(await s.list())];
  },
  'start, end, startAfter, reverse, limit': async (s) => ({
    range: await keysOf(s, { start: 'section2', end: 'section3' }),
    after: await keysOf(s, { startAfter: 'section2key1', limit: 2 }),
    afterPrefix: await keysOf(s, { startAfter: 'section2', limit: 2 }),
    reverse: await keysOf(s, { reverse: true, limit: 3 }),
    prefixed: await keysOf(s, { start: 'section2', prefix: 'section', limit: 2, reverse: true }),
    empty: await keysOf(s, { start: 'section3', end: 'section1' }),
    prefix: await keysOf(s, { prefix: 'section3' }),
    endBeforePrefix: await keysOf(s, { prefix: 'section2', end: 'section1' }),
  }),
  'start with startAfter, and limits of 0 or below, are TypeErrors': async (s) => ({
    both: await keysOf(s, { start: 'a', startAfter: 'b' }),
    zero: await keysOf(s, { limit: 0 }),
    negative: await keysOf(s, { limit: -1 }),
  }),
  'option values are coerced': async (s) => ({
    limitString: await keysOf(s, { limit: '2' }),
    prefixNumber: await keysOf(s, { prefix: 1 }),
    startNumber: await keysOf(s, { start: 2 }),
    reverseString: await keysOf(s, { reverse: 'yes', limit: 1 }),
  }),
  'limit Infinity is a TypeError': (s) => keysOf(s, { limit: Infinity }),
  'more than 128 keys list at once': async (s) => {
    for (let i = 0; i < 3; i++) {
      await s.put(Object.fromEntries(Array.from({ length: 100 }, (_, j) => [`k${String(i * 100 + j).padStart(3, '0')}`, j])));
    }
    const all = await s.list();
    return { size: all.size, last: [...all.keys()].at(-1) };
  },
});
