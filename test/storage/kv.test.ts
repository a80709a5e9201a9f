/**
 * The key-value API of seed 001 ("Key-value operations", "list options", "Resources": Key, Value),
 * run through `ObjectNamespace` as one contract suite on both backends.
 */
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, it, expect } from 'vitest';
import { ObjectId, StorageRangeError, StorageTypeError } from '../../src/storage/index.js';
import { BACKENDS, openNamespace, Probe, probe, rejected, tempDir } from './helpers.js';

describe.each(BACKENDS)('KV API (%s backend)', (backend) => {
  const open = (dir = tempDir()) => probe(openNamespace(Probe, { backend, dir }));

  it('get returns the value as last written, or undefined for a missing key', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      await storage.put('k', 1);
      await storage.put('k', 2);
      return { k: await storage.get('k'), missing: await storage.get('nope') };
    });
    expect(result).toEqual({ k: 2, missing: undefined });
  });

  it('get(keys) returns a Map in increasing UTF-8 key order, omitting missing keys', async () => {
    const run = open();
    const map = await run(async ({ storage }) => {
      await storage.put({ b: 2, a: 1, '\u{1D655}': 4, '\uFF3A': 3 });
      return storage.get(['\u{1D655}', 'missing', 'b', '\uFF3A', 'a', 'a']);
    });
    expect(map).toBeInstanceOf(Map);
    expect([...map.entries()]).toEqual([['a', 1], ['b', 2], ['\uFF3A', 3], ['\u{1D655}', 4]]);
  });

  it('put(entries) stores every pair, skipping undefined values', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      await storage.put({ x: 1, y: 'two', z: undefined });
      return storage.list();
    });
    expect([...result.entries()]).toEqual([['x', 1], ['y', 'two']]);
  });

  it('delete(key) resolves whether the key existed; delete(keys) the number deleted', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      await storage.put({ a: 1, b: 2, c: 3 });
      const single = [await storage.delete('a'), await storage.delete('a')];
      const multi = await storage.delete(['b', 'c', 'c', 'missing']);
      return { single, multi, left: (await storage.list()).size };
    });
    expect(result).toEqual({ single: [true, false], multi: 2, left: 0 });
  });

  it('keys are coerced to strings and the empty key is valid', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      await storage.put('', 'empty');
      await (storage.put as (k: unknown, v: unknown) => Promise<void>)(123, 'num');
      return { empty: await storage.get(''), num: await storage.get('123') };
    });
    expect(result).toEqual({ empty: 'empty', num: 'num' });
  });

  it('values round-trip through the structured clone algorithm, as fresh copies', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      const cyclic: Record<string, unknown> = { name: 'loop' };
      cyclic.self = cyclic;
      const value = {
        date: new Date(1_700_000_000_000), map: new Map([[1, 'one']]), set: new Set(['s']),
        bytes: new Uint8Array([1, 2, 3]), floats: new Float64Array([0.5]), big: 12345678901234567890n,
        nested: { deep: [1, { x: null, u: undefined }] }, regexp: /a+b/gi, negZero: -0, nan: NaN, cyclic,
      };
      await storage.put('v', value);
      value.bytes[0] = 99;
      const first = (await storage.get('v')) as typeof value;
      first.bytes[1] = 77;
      const second = (await storage.get('v')) as typeof value;
      return { second, cyclicOk: second.cyclic.self === second.cyclic };
    });
    const v = result.second;
    expect(v.date).toEqual(new Date(1_700_000_000_000));
    expect(v.map).toEqual(new Map([[1, 'one']]));
    expect(v.set).toEqual(new Set(['s']));
    expect(v.bytes).toEqual(new Uint8Array([1, 2, 3]));
    expect(v.floats).toEqual(new Float64Array([0.5]));
    expect(v.big).toBe(12345678901234567890n);
    expect(v.nested).toEqual({ deep: [1, { x: null, u: undefined }] });
    expect(v.regexp.source).toBe('a+b');
    expect(Object.is(v.negZero, -0)).toBe(true);
    expect(v.nan).toBeNaN();
    expect(result.cyclicOk).toBe(true);
  });

  it('functions and symbols are refused with a DataCloneError', async () => {
    const run = open();
    const errors = await run(async ({ storage }) => {
      const names: string[] = [];
      for (const value of [() => 1, Symbol('s'), { nested: () => 2 }, new WeakMap()]) {
        await storage.put('bad', value).catch((err: DOMException) => names.push(`${err.name}:${err instanceof DOMException}`));
      }
      return { names, stored: await storage.get('bad') };
    });
    expect(errors.names).toEqual(Array(4).fill('DataCloneError:true'));
    expect(errors.stored).toBeUndefined();
  });

  it('ordering is by UTF-8 bytes, not UTF-16 code units', async () => {
    const run = open();
    const keys = await run(async ({ storage }) => {
      await storage.put({ Z: 1, '\uFF3A': 2, '\u{1D655}': 3, '!': 4, ', ': 5, 'a\u0000b': 6, a: 7 });
      return [...(await storage.list()).keys()];
    });
    expect(keys).toEqual(['!', ', ', 'Z', 'a', 'a\u0000b', '\uFF3A', '\u{1D655}']);
  });

  describe('limits', () => {
    it('refuses a key over 2,048 UTF-8 bytes with a RangeError naming the limit', async () => {
      const run = open();
      const key = 'é'.repeat(1025); // 2,050 bytes, 1,025 UTF-16 units
      for (const call of [
        (s: Probe['ctx']['storage']) => s.get(key),
        (s: Probe['ctx']['storage']) => s.put(key, 1),
        (s: Probe['ctx']['storage']) => s.delete(key),
        (s: Probe['ctx']['storage']) => s.get(['ok', key]),
        (s: Probe['ctx']['storage']) => s.put({ [key]: 1 }),
      ]) {
        const err = await run(({ storage }) => call(storage).then(() => null, (e: unknown) => e));
        expect(err).toBeInstanceOf(RangeError);
        expect(err).toBeInstanceOf(StorageRangeError);
        expect((err as Error).message).toMatch(/2048 bytes/);
        expect((err as StorageRangeError).code).toBe('ERR_STORAGE_LIMIT');
      }
      const ok = await run(async ({ storage }) => {
        await storage.put('k'.repeat(2048), 'max');
        return storage.get('k'.repeat(2048));
      });
      expect(ok).toBe('max');
    });

    it('refuses a value over 131,072 bytes and accepts a raw 128 KiB string', async () => {
      const run = open();
      const result = await run(async ({ storage }) => {
        await storage.put('max', 'x'.repeat(131_072));
        const single = await rejected(storage.put('big', 'x'.repeat(131_200)));
        const multi = await rejected(storage.put({ fine: 1, big: new Uint8Array(140_000) }));
        return { len: ((await storage.get('max')) as string).length, single, multi, fine: await storage.get('fine') };
      });
      expect(result.len).toBe(131_072);
      expect(result.single).toBeInstanceOf(RangeError);
      expect(result.single.message).toMatch(/131072 bytes/);
      expect(result.multi).toBeInstanceOf(RangeError);
      expect(result.multi.message).toMatch(/"big".*131072/);
      expect(result.fine).toBeUndefined(); // the whole multi-put is refused
    });

    it('draws the line at exactly 131,072 bytes for strings and buffers', async () => {
      const run = open();
      const result = await run(async ({ storage }) => {
        await storage.put('s', 'x'.repeat(131_072));
        await storage.put('b', new Uint8Array(131_072));
        const s = await rejected(storage.put('s1', 'x'.repeat(131_073)));
        const b = await rejected(storage.put('b1', new Uint8Array(131_073)));
        const utf8 = await rejected(storage.put('u', 'é'.repeat(65_537))); // 131,074 UTF-8 bytes
        return { s, b, utf8, kept: [(await storage.get('s') as string).length, (await storage.get('b') as Uint8Array).byteLength] };
      });
      expect(result.kept).toEqual([131_072, 131_072]);
      for (const err of [result.s, result.b, result.utf8]) {
        expect(err).toBeInstanceOf(RangeError);
        expect(err.message).toMatch(/cannot be larger than 131072 bytes\. A value of size 13107[34] was provided/);
      }
    });

    it('refuses more than 128 keys or pairs per call', async () => {
      const run = open();
      const keys = Array.from({ length: 129 }, (_, i) => `k${i}`);
      const result = await run(async ({ storage }) => ({
        get: await rejected(storage.get(keys)),
        del: await rejected(storage.delete(keys)),
        put: await rejected(storage.put(Object.fromEntries(keys.map((k) => [k, 1])))),
        ok: (await storage.put(Object.fromEntries(keys.slice(0, 128).map((k) => [k, 1])))) ?? (await storage.get(keys.slice(0, 128))).size,
      }));
      for (const err of [result.get, result.del, result.put]) {
        expect(err).toBeInstanceOf(RangeError);
        expect((err as Error).message).toMatch(/128/);
      }
      expect(result.put.message).toMatch(/pairs/);
      expect(result.ok).toBe(128);
    });

    it('refuses list() with both start and startAfter, and a limit below 1', async () => {
      const run = open();
      const result = await run(async ({ storage }) => ({
        both: await rejected(storage.list({ start: 'a', startAfter: 'b' })),
        zero: await rejected(storage.list({ limit: 0 })),
      }));
      expect(result.both).toBeInstanceOf(TypeError);
      expect(result.both).toBeInstanceOf(StorageTypeError);
      expect(result.both.message).toBe('list() cannot be called with both start and startAfter values.');
      expect(result.zero.message).toBe('List limit must be positive.');
    });

    it('refuses put() of undefined and malformed put(entries, options)', async () => {
      const run = open();
      const result = await run(async ({ storage }) => ({
        undef: await rejected(storage.put('k', undefined)),
        shape: await rejected((storage.put as (...a: unknown[]) => Promise<void>)({ a: 1 }, 'x')),
      }));
      expect(result.undef).toBeInstanceOf(TypeError);
      expect(result.undef.message).toBe('put() called with undefined value.');
      expect(result.shape).toBeInstanceOf(TypeError);
    });
  });

  describe('list options', () => {
    const fill = { bar: 1, baz: 2, foo: 3, qux: 4 };
    const cases: Array<[string, Record<string, unknown>, string[]]> = [
      ['no options', {}, ['bar', 'baz', 'foo', 'qux']],
      ['start (inclusive)', { start: 'baz' }, ['baz', 'foo', 'qux']],
      ['start between keys', { start: 'cat' }, ['foo', 'qux']],
      ['startAfter (exclusive)', { startAfter: 'baz' }, ['foo', 'qux']],
      ['end (exclusive)', { end: 'foo' }, ['bar', 'baz']],
      ['start and end', { start: 'baz', end: 'qux' }, ['baz', 'foo']],
      ['end before start', { start: 'qux', end: 'bar' }, []],
      ['prefix', { prefix: 'ba' }, ['bar', 'baz']],
      ['prefix with start inside', { prefix: 'ba', start: 'baz' }, ['baz']],
      ['prefix with start past it', { prefix: 'ba', start: 'bb' }, []],
      ['prefix with end outside', { prefix: 'ba', end: 'zzz' }, ['bar', 'baz']],
      ['prefix with end at the prefix', { prefix: 'ba', end: 'ba' }, []],
      ['limit', { start: 'baz', limit: 2 }, ['baz', 'foo']],
      ['reverse', { reverse: true }, ['qux', 'foo', 'baz', 'bar']],
      ['reverse with limit', { reverse: true, limit: 2 }, ['qux', 'foo']],
      ['reverse with end and limit (largest below end)', { end: 'foo', reverse: true, limit: 1 }, ['baz']],
      ['reverse keeps start inclusive, end exclusive', { start: 'baz', end: 'qux', reverse: true }, ['foo', 'baz']],
      ['reverse with prefix', { prefix: 'ba', reverse: true }, ['baz', 'bar']],
      ['reverse with startAfter', { startAfter: 'bar', reverse: true }, ['qux', 'foo', 'baz']],
    ];
    it.each(cases)('%s', async (_name, options, expected) => {
      const run = open();
      const keys = await run(async ({ storage }) => {
        await storage.put(fill);
        return [...(await storage.list(options)).keys()];
      });
      expect(keys).toEqual(expected);
    });

    it('matches the reference cases on section keys', async () => {
      const run = open();
      const result = await run(async ({ storage }) => {
        const all: Record<string, number> = {};
        for (const s of [1, 2, 3]) for (const k of [1, 2]) all[`section${s}key${k}`] = s * 10 + k;
        await storage.put(all);
        const keys = async (o: object) => [...(await storage.list(o)).keys()];
        return [
          await keys({ start: 'section2', prefix: 'section', limit: 2, reverse: true }),
          await keys({ startAfter: 'section2key1', limit: 2 }),
          await keys({ startAfter: 'section2', limit: 2 }),
          await keys({ start: 'section3', end: 'section1' }),
        ];
      });
      expect(result).toEqual([
        ['section3key2', 'section3key1'], ['section2key2', 'section3key1'], ['section2key1', 'section2key2'], [],
      ]);
    });

    it('prefix and ranges work on keys outside the BMP', async () => {
      const run = open();
      const keys = await run(async ({ storage }) => {
        await storage.put({ '\u{1F600}a': 1, '\u{1F600}b': 2, '\u{1F601}': 3, '\uFFFF': 4 });
        return [
          [...(await storage.list({ prefix: '\u{1F600}' })).keys()],
          [...(await storage.list({ startAfter: '\uFFFF' })).keys()],
        ];
      });
      expect(keys).toEqual([['\u{1F600}a', '\u{1F600}b'], ['\u{1F600}a', '\u{1F600}b', '\u{1F601}']]);
    });

    it('can list more than 128 keys and page through them with limit/startAfter', async () => {
      const run = open();
      const pages = await run(async ({ storage }) => {
        for (let i = 0; i < 300; i += 100) {
          await storage.put(Object.fromEntries(Array.from({ length: 100 }, (_, j) => [`k${String(i + j).padStart(4, '0')}`, i + j])));
        }
        const seen: number[] = [];
        let after: string | undefined;
        for (;;) {
          const page = await storage.list<number>({ limit: 64, ...(after ? { startAfter: after } : {}) });
          if (page.size === 0) break;
          seen.push(page.size);
          after = [...page.keys()].pop();
        }
        return { seen, all: (await storage.list()).size };
      });
      expect(pages).toEqual({ seen: [64, 64, 64, 64, 44], all: 300 });
    });
  });

  it('noCache never changes results', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      await storage.put('a', 1, { noCache: true });
      const first = await storage.get('a', { noCache: true });
      await storage.put('a', 2);
      const cached = await storage.get('a');
      const uncached = await storage.get('a', { noCache: true });
      await storage.delete('a', { noCache: true });
      return { first, cached, uncached, after: await storage.get('a'), list: (await storage.list({ noCache: true })).size };
    });
    expect(result).toEqual({ first: 1, cached: 2, uncached: 2, after: undefined, list: 0 });
  });

  it('deleteAll removes every pair', async () => {
    const run = open();
    const result = await run(async ({ storage }) => {
      for (let i = 0; i < 2500; i++) void storage.put(`k${i}`, i);
      await storage.deleteAll({ allowUnconfirmed: true, noCache: true });
      return { size: (await storage.list()).size, k: await storage.get('k1') };
    });
    expect(result).toEqual({ size: 0, k: undefined });
  });

  it(`deleteAll failing partway ${backend === 'kv' ? 'may leave some data (kv backend)' : 'leaves everything (sqlite backend: atomic)'}`, async () => {
    const dir = tempDir();
    const ns = openNamespace(Probe, { backend, dir });
    await probe(ns, 'd')(async ({ storage }) => {
      for (let i = 0; i < 2500; i++) void storage.put(`k${String(i).padStart(4, '0')}`, i);
    });
    await ns.close();
    // A storage fault: deleting one particular key fails (injected below the API, in the file).
    const raw = new Database(join(dir, 'objects', `${new ObjectId('d').toString()}.sqlite`));
    raw.exec("CREATE TRIGGER fault BEFORE DELETE ON _zw_kv WHEN old.key = 'k2000' BEGIN SELECT RAISE(ABORT, 'disk fault'); END");
    raw.close();
    const result = await probe(openNamespace(Probe, { backend, dir }), 'd')(async ({ storage }) => {
      const err = await rejected(storage.deleteAll());
      return { err, left: (await storage.list()).size };
    });
    expect(result.err.message).toMatch(/deleteAll\(\) failed: disk fault/);
    if (backend === 'kv') {
      expect(result.left).toBeGreaterThan(0);
      expect(result.left).toBeLessThan(2500);
    } else {
      expect(result.left).toBe(2500);
    }
  });

  it('reopening the namespace sees all confirmed data', async () => {
    const dir = tempDir();
    const ns = openNamespace(Probe, { backend, dir });
    await probe(ns, 'obj')(async ({ storage }) => {
      await storage.put({ a: 1, b: new Map([['x', 1]]) });
    });
    await ns.close();
    const reopened = probe(openNamespace(Probe, { backend, dir }), 'obj');
    const entries = await reopened(async ({ storage }) => [...(await storage.list()).entries()]);
    expect(entries).toEqual([['a', 1], ['b', new Map([['x', 1]])]]);
  });

  it('objects are private: one object never sees another one\'s data', async () => {
    const ns = openNamespace(Probe, { backend });
    await probe(ns, 'one')(({ storage }) => storage.put('secret', 1));
    const other = await probe(ns, 'two')(async ({ storage }) => ({ get: await storage.get('secret'), n: (await storage.list()).size }));
    expect(other).toEqual({ get: undefined, n: 0 });
  });
});
