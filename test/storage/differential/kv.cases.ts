/** Differential cases of the key-value API: get, put, delete, deleteAll and their argument handling. */
import { defineCases } from './case.js';
import { settle } from './observe.js';

export const kvCases = defineCases('kv', {
  'put then get one key, missing key is undefined': async (s) => {
    await s.put('a', { n: 1, list: [1, 'two', null] });
    return { a: await s.get('a'), missing: await s.get('nope'), result: await s.put('b', 2) };
  },
  'values round-trip through structured clone': async (s) => {
    const values = {
      str: 'x', num: -0, nan: NaN, big: 12345678901234567890n, date: new Date(0), bytes: new Uint8Array([1, 2, 3]),
      buf: new Uint16Array([1, 65535]).buffer, map: new Map([['k', 1]]), set: new Set([1, 2]), nested: { u: undefined },
      re: /a+/gi, bool: new Boolean(false), arr: [1, , 3],
    };
    await s.put(values);
    const got = await s.get(Object.keys(values));
    return [...got].map(([k, v]) => [k, v instanceof RegExp ? `${v.source}/${v.flags}` : v]);
  },
  'get of many keys: only present keys, in key order': async (s) => {
    await s.put({ c: 3, a: 1, b: 2 });
    return [...(await s.get(['c', 'zz', 'a', 'a', 'b']))];
  },
  'put entries skips undefined values': async (s) => {
    await s.put({ a: 1, b: undefined });
    return [...(await s.list())];
  },
  'put with undefined value is a TypeError': async (s) => ({
    one: await settle(() => s.put('a', undefined)),
    bare: await settle(() => (s.put as unknown as (k: string) => Promise<void>)('a')),
  }),
  'put(entries, non-options) is a TypeError': (s) => settle(() => (s.put as (a: unknown, b: unknown) => Promise<void>)({ a: 1 }, 5)),
  'unclonable values are DataCloneError': async (s) => ({
    fn: await settle(() => s.put('f', () => 1)),
    sym: await settle(() => s.put('s', Symbol('x'))),
    weak: await settle(() => s.put('w', new WeakMap())),
  }),
  'non-string keys are coerced to strings': async (s) => {
    await s.put(123 as unknown as string, 'n');
    await s.put(null as unknown as string, 'null');
    await s.put({} as unknown as string, 'obj');
    return { keys: [...(await s.list()).keys()], got: await s.get(123 as unknown as string) };
  },
  'get() with no key is a TypeError': (s) => settle(() => (s.get as () => Promise<unknown>)()),
  'empty key is allowed': async (s) => {
    await s.put('', 'empty');
    return { got: await s.get(''), deleted: await s.delete('') };
  },
  'delete one key reports whether it existed; many keys the count': async (s) => {
    await s.put({ a: 1, b: 2, c: 3 });
    return {
      one: await s.delete('a'), again: await s.delete('a'), many: await s.delete(['b', 'c', 'c', 'zz']),
      left: [...(await s.list())],
    };
  },
  'deleteAll removes every key and resolves to undefined': async (s) => {
    await s.put({ a: 1, b: 2 });
    return { result: await s.deleteAll(), left: [...(await s.list())] };
  },
  'keys sort by UTF-8 bytes': async (s) => {
    await s.put({ Z: 1, '\uFF3A': 2, '\u{1D655}': 3, '!': 4, ', ': 5 });
    return [...(await s.list()).keys()];
  },
  'a key over 2,048 bytes': {
    run: async (s) => ({ put: await settle(() => s.put('k'.repeat(2049), 1)), get: await settle(() => s.get('k'.repeat(2049))) }),
    differs: {
      reason: "the seed's documented 2,048-byte key limit; local workerd (SQLite backend) enforces none",
      workerd: { put: { undefined: true }, get: 1 },
      zonewall: {
        put: { error: 'RangeError', message: 'Keys cannot be larger than 2048 bytes. A key of size 2049 was provided.' },
        get: { error: 'RangeError', message: 'Keys cannot be larger than 2048 bytes. A key of size 2049 was provided.' },
      },
    },
  },
  'a value over 128 KiB': {
    run: async (s) => ({ raw: await settle(() => s.put('raw', 'x'.repeat(131_072))), over: await settle(() => s.put('over', 'x'.repeat(131_073))) }),
    differs: {
      reason: "the seed's documented 131,072-byte value limit; local workerd (SQLite backend) enforces none",
      workerd: { raw: { undefined: true }, over: { undefined: true } },
      zonewall: {
        raw: { undefined: true },
        over: { error: 'RangeError', message: 'Values cannot be larger than 131072 bytes. A value of size 131073 was provided.' },
      },
    },
  },
  'more than 128 keys in one call': {
    run: async (s) => {
      const keys = Array.from({ length: 129 }, (_, i) => `k${i}`);
      return { get: await settle(async () => (await s.get(keys)).size), del: await settle(() => s.delete(keys)) };
    },
    differs: {
      reason: "the seed's documented 128 keys per call; workerd's SQLite backend has no count limit",
      workerd: { get: 0, del: 0 },
      zonewall: {
        get: { error: 'RangeError', message: 'Maximum number of keys is 128. 129 keys were provided; split the call into batches of at most 128.' },
        del: { error: 'RangeError', message: 'Maximum number of keys is 128. 129 keys were provided; split the call into batches of at most 128.' },
      },
    },
  },
  'more values: errors, boxed primitives, typed arrays, unicode, circular references': async (s) => {
    const circular: Record<string, unknown> = { name: 'loop' };
    circular.self = circular;
    const values = {
      error: new RangeError('bad range'), boxedString: new String('s'), boxedNumber: new Number(-0),
      floats: new Float64Array([1.5, -0, NaN, Infinity]), bigints: new BigInt64Array([-1n, 2n ** 62n]),
      view: new DataView(new Uint8Array([7, 8, 9]).buffer, 1, 2), unicode: 'a\u00e9\u{1F600}\uD800z',
      nestedMap: new Map<unknown, unknown>([[1, new Set(['x'])], ['k', { deep: [new Date(86_400_000)] }]]),
      big: -(2n ** 70n), sparse: Object.assign([1, , 3], { extra: 'prop' }), invalidDate: new Date(NaN),
    };
    await s.put(values);
    await s.put('circular', circular);
    const back = await s.get<Record<string, unknown>>('circular');
    const got = await s.get(Object.keys(values));
    const error = got.get('error') as Error;
    return {
      circular: back?.self === back, name: back?.name,
      errorKind: [error instanceof RangeError, error.message],
      boxed: [typeof got.get('boxedString'), String(got.get('boxedString')), Object.is(Number(got.get('boxedNumber')), -0)],
      rest: [...got].filter(([k]) => !['error', 'boxedString', 'boxedNumber'].includes(k)),
    };
  },
  'options are accepted and change nothing observable': async (s) => {
    await s.put('a', 1, { allowUnconfirmed: true, noCache: true });
    await s.put({ b: 2 }, { allowConcurrency: true });
    return {
      get: await s.get('a', { allowConcurrency: true, noCache: true }),
      list: [...(await s.list({ allowConcurrency: true, noCache: true }))],
      deleted: await s.delete('b', { allowUnconfirmed: true }),
    };
  },
  'reads see writes not yet committed; sync() resolves after them': async (s) => {
    const put = s.put('a', 1);
    const seen = await s.get('a');
    await put;
    return { seen, synced: await s.sync(), after: await s.get('a') };
  },
});
