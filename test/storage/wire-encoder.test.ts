/**
 * The in-JS encoder of V8's serialization format that `put()` uses: for every value it accepts it
 * must write the very bytes `v8.Serializer` writes, and it must refuse every value outside its
 * subset (so the caller falls back to `v8.Serializer`, which also raises DataCloneError).
 */
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { UNSUPPORTED_VALUE, WireEncoder } from '../../src/storage/wire-encoder.js';

function reference(value: unknown): Buffer {
  const s = new v8.Serializer();
  s.writeHeader();
  s.writeValue(value);
  return s.releaseBuffer();
}

const supported: Array<[string, unknown]> = [
  ['undefined', undefined], ['null', null], ['true', true], ['false', false],
  ['small ints', [0, 1, -1, 63, 64, -65, 1000000]], ['int32 extremes', [2 ** 31 - 1, -(2 ** 31)]],
  ['doubles', [3.25, -0, NaN, Infinity, -Infinity, 2 ** 31, 2 ** 53 - 1, 1e-300]],
  ['empty string', ''], ['latin1 string', 'caf\u00e9 \u00ff'], ['1 KiB string', 'v'.repeat(1024)],
  ['long string (varint length)', 'w'.repeat(200_000)],
  ['two-byte strings (padding both ways)', ['\u4e2d', 'a\u4e2d', 'ab\u4e2d', '\ud83d\ude00', 'z\u00fc\u0301rich']],
  ['lone surrogate', 'a\ud800b'],
  ['object', { id: 1, name: 'item 1', enabled: true, tags: ['a', 'b'], nested: { deep: [null, { x: undefined }] } }],
  ['index keys', { b: 1, 2: 'two', a: 3, 1: 'one', 4294967294: 'largest index', 4294967295: 'not an index', '01': 'not an index', '-1': 'neg' }],
  ['empty object and array', [{}, []]],
  ['two-byte keys', { 'cl\u00e9': 1, '\u4e2d': 2 }],
  ['an object met twice in siblings is fine when not the same object', [{ a: 1 }, { a: 1 }]],
];

const unsupported: Array<[string, unknown]> = [
  ['Date', new Date(0)], ['RegExp', /x/], ['Map', new Map()], ['Set', new Set()], ['BigInt', 1n],
  ['Uint8Array', new Uint8Array(2)], ['ArrayBuffer', new ArrayBuffer(2)], ['boxed', Object(1)], ['Error', new Error('x')],
  ['class instance', new (class Point { x = 1; })()], ['null prototype', Object.create(null) as object],
  ['proxy', new Proxy({}, {})], ['function', () => 1], ['symbol', Symbol('s')],
  ['shared object', (() => { const a = { x: 1 }; return { a, b: a }; })()],
  ['circular', (() => { const a: Record<string, unknown> = {}; a.self = a; return a; })()],
  ['holey array', [1, , 3]], // eslint-disable-line no-sparse-arrays
  ['array with a property', Object.assign([1], { p: 1 })],
  ['arguments object', (function () { return arguments; })()],
  ['toStringTag', { [Symbol.toStringTag]: 'Custom', a: 1 }],
  ['nested too deep', (() => { let v: unknown = 1; for (let i = 0; i < 300; i++) v = [v]; return v; })()],
];

describe('WireEncoder', () => {
  const encoder = new WireEncoder();

  it.each(supported)('writes %s exactly as v8.Serializer does', (_name, value) => {
    const bytes = encoder.encode(value);
    expect(bytes).not.toBe(UNSUPPORTED_VALUE);
    expect((bytes as Buffer).toString('hex')).toBe(reference(value).toString('hex'));
  });

  it.each(unsupported)('refuses %s (the caller falls back)', (_name, value) => {
    expect(encoder.encode(value)).toBe(UNSUPPORTED_VALUE);
  });

  it('stays usable after refusing a value halfway, and returns independent buffers', () => {
    expect(encoder.encode({ a: 1, b: new Date(0) })).toBe(UNSUPPORTED_VALUE);
    const first = encoder.encode({ a: 1 }) as Buffer;
    const second = encoder.encode({ a: 2 }) as Buffer;
    expect(first.toString('hex')).toBe(reference({ a: 1 }).toString('hex'));
    expect(second.toString('hex')).toBe(reference({ a: 2 }).toString('hex'));
  });
});

describe('serialize() with the encoder', () => {
  it('a getter that serializes while its object is being encoded gets its own buffer', async () => {
    const { serialize } = await import('../../src/storage/serialize.js');
    let inner: Buffer | undefined;
    const value = { a: 1, get b() { inner = serialize({ nested: 'x' }); return 2; }, c: 'z' };
    expect(serialize(value).toString('hex')).toBe(reference({ a: 1, b: 2, c: 'z' }).toString('hex'));
    expect(inner?.toString('hex')).toBe(reference({ nested: 'x' }).toString('hex'));
  });
});
