/**
 * `list()` over ranges longer than one read chunk (256 rows): every pair once, in UTF-8 byte order
 * forward and backward, limits that end inside, at and past a chunk boundary, keys with NUL and
 * non-ASCII characters at the boundaries, and values the fast decoder hands to the full
 * deserializer (Date, Map, shared objects) mixed with plain ones.
 */
import { describe, expect, it } from 'vitest';
import { BACKENDS, openNamespace, Probe, probe } from './helpers.js';

const byUtf8 = (a: string, b: string): number => Buffer.compare(Buffer.from(a), Buffer.from(b));

function fixture(): Record<string, unknown> {
  const entries: Record<string, unknown> = {};
  for (let i = 0; i < 700; i++) {
    const key = i % 7 === 0 ? `k${String(i).padStart(4, '0')}\u0000nul` : i % 11 === 0 ? `k${String(i).padStart(4, '0')}\u00e9\u4e2d` : `k${String(i).padStart(4, '0')}`;
    const shared = { i };
    entries[key] = i % 5 === 0 ? new Date(i) : i % 13 === 0 ? { a: shared, b: shared } : i % 17 === 0 ? new Map([[i, 'm']]) : { i, s: 'x'.repeat(i % 50), list: [i, null, true] };
  }
  entries[''] = 'the empty key';
  entries['\u{1d655} astral'] = 'after every BMP key in UTF-8 order';
  return entries;
}

describe.each(BACKENDS)('list() across read chunks (%s backend)', (backend) => {
  const entries = fixture();
  const keys = Object.keys(entries).sort(byUtf8);

  it.each([
    ['everything', {}, keys],
    ['everything backwards', { reverse: true }, [...keys].reverse()],
    ['limit 255', { limit: 255 }, keys.slice(0, 255)],
    ['limit 256', { limit: 256 }, keys.slice(0, 256)],
    ['limit 257', { limit: 257 }, keys.slice(0, 257)],
    ['limit 513 backwards', { limit: 513, reverse: true }, [...keys].reverse().slice(0, 513)],
    ['startAfter a NUL key, limit 300', { startAfter: keys[7], limit: 300 }, keys.slice(8, 308)],
    ['end, backwards, limit 400', { end: keys[600], reverse: true, limit: 400 }, keys.slice(200, 600).reverse()],
    ['prefix', { prefix: 'k03' }, keys.filter((k) => k.startsWith('k03'))],
  ] as Array<[string, Record<string, unknown>, string[]]>)('%s', async (_name, options, expected) => {
    const run = probe(openNamespace(Probe, { backend }));
    await run(async ({ storage }) => {
      const names = Object.keys(entries);
      for (let i = 0; i < names.length; i += 100) await storage.put(Object.fromEntries(names.slice(i, i + 100).map((k) => [k, entries[k]])));
    });
    const listed = await run(async ({ storage }) => [...(await storage.list(options)).entries()]);
    expect(listed.map(([k]) => k)).toEqual(expected);
    for (const [key, value] of listed) expect(value).toEqual(entries[key]);
    const shared = listed.find(([key]) => key.startsWith('k0013'))?.[1] as { a: object; b: object };
    if (shared) expect(shared.a).toBe(shared.b);
  });
});

/**
 * Chunks grow after the first (up to 16,384 rows while values are small), the keys of an ASCII chunk
 * are cut from one decoded string, and objects of a repeated shape are built by a compiled literal:
 * a range of 6,000 small records spans chunks of each kind, with long keys (decoded on their own),
 * non-ASCII keys only in some chunks, and values for the full deserializer among them (first,
 * inside and last in a chunk: from there on the chunk is decoded by its values' sizes).
 */
describe('list() over grown chunks', () => {
  const entries: Record<string, unknown> = {};
  for (let i = 0; i < 6000; i++) {
    const n = String(i).padStart(5, '0');
    const key = i >= 5000 && i % 3 === 0 ? `r${n}-\u00e9\u4e2d` : i % 4 === 0 ? `r${n}-a-long-key-of-many-characters` : `r${n}`;
    entries[key] = i % 997 === 0 || i === 5999 ? new Date(i) : { id: i, name: `item ${i}`, enabled: i % 2 === 0, tags: ['a', 'b'], note: 'x'.repeat(i % 70) };
  }
  const keys = Object.keys(entries).sort(byUtf8);

  it.each([
    ['everything', {}, keys],
    ['everything backwards', { reverse: true }, [...keys].reverse()],
    ['limit 4500', { limit: 4500 }, keys.slice(0, 4500)],
    ['limit 4352 backwards', { limit: 4352, reverse: true }, [...keys].reverse().slice(0, 4352)],
    ['start and end', { start: keys[100], end: keys[5500] }, keys.slice(100, 5500)],
    ['startAfter, backwards', { startAfter: keys[10], reverse: true }, keys.slice(11).reverse()],
    ['prefix', { prefix: 'r05' }, keys.filter((k) => k.startsWith('r05'))],
    ['an empty range', { prefix: 'q' }, []],
  ] as Array<[string, Record<string, unknown>, string[]]>)('%s', async (_name, options, expected) => {
    const run = probe(openNamespace(Probe));
    await run(async ({ storage }) => {
      for (let i = 0; i < keys.length; i += 128) await storage.put(Object.fromEntries(keys.slice(i, i + 128).map((k) => [k, entries[k]])));
    });
    const listed = await run(async ({ storage }) => [...(await storage.list(options)).entries()]);
    expect(listed.map(([k]) => k)).toEqual(expected);
    for (const [key, value] of listed) expect(value).toEqual(entries[key]);
  });

  it('lists values near the 128 KiB limit across the first chunk boundary', async () => {
    const run = probe(openNamespace(Probe));
    const big = (i: number): unknown => ({ i, body: String.fromCharCode(97 + (i % 26)).repeat(131_000) });
    await run(async ({ storage }) => {
      for (let i = 0; i < 300; i++) void storage.put(`big${String(i).padStart(3, '0')}`, big(i));
    });
    const listed = await run(async ({ storage }) => [...(await storage.list()).entries()]);
    expect(listed.length).toBe(300);
    listed.forEach(([key, value], i) => {
      expect(key).toBe(`big${String(i).padStart(3, '0')}`);
      expect(value).toEqual(big(i));
    });
    expect((await run(async ({ storage }) => storage.list({ reverse: true, limit: 270 }))).size).toBe(270);
  });
});
