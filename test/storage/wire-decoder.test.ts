/**
 * The in-JS decoder of V8's serialization format that `list()` uses: for every value it accepts it
 * must give exactly what `v8.Deserializer` gives (same values, same own keys in the same order,
 * same holes), and it must refuse (UNSUPPORTED) every value outside its subset, so the caller
 * falls back to the full deserializer.
 */
import v8 from 'node:v8';
import { describe, expect, it } from 'vitest';
import { UNSUPPORTED, WireDecoder } from '../../src/storage/wire-decoder.js';

function serialize(value: unknown): Buffer {
  const s = new v8.Serializer();
  s.writeHeader();
  s.writeValue(value);
  return s.releaseBuffer();
}

function reference(bytes: Buffer): unknown {
  const d = new v8.Deserializer(bytes);
  d.readHeader();
  return d.readValue();
}

/** A structural description that tells holes from undefined and records key order. */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) {
    return { array: Object.keys(value).map((k) => [k, shape((value as unknown as Record<string, unknown>)[k])]), length: value.length };
  }
  if (typeof value === 'object' && value !== null) {
    return { proto: Object.getPrototypeOf(value) === Object.prototype, keys: Object.keys(value).map((k) => [k, shape((value as Record<string, unknown>)[k])]) };
  }
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : Number.isNaN(value) ? 'NaN' : value;
  return value;
}

const supported: Array<[string, unknown]> = [
  ['undefined', undefined], ['null', null], ['true', true], ['false', false],
  ['small int', 42], ['negative int', -7], ['int32 extremes', [2 ** 31 - 1, -(2 ** 31)]], ['double', 3.25],
  ['-0, NaN, Infinity', [-0, NaN, Infinity, -Infinity]], ['large integer', 2 ** 53 - 1],
  ['empty string', ''], ['single characters', ['a', '\u00e9', '\u00ff', '\u0000']], ['latin1 string', 'caf\u00e9 \u00ff'], ['two-byte string', 'z\u00fc\u0301rich \u4e2d \ud83d\ude00'],
  ['lone surrogate', 'a\ud800b'], ['1 KiB string', 'v'.repeat(1024)],
  ['object', { id: 1, name: 'item 1', tags: ['a', 'b'], nested: { deep: [null, { x: true }] } }],
  ['index keys first', { b: 1, 2: 'two', a: 3, 1: 'one', 4294967294: 'big index', '-1': 'neg' }],
  ['empty object and array', [{}, []]],
  ['holey array', [1, , 3, , undefined]], // eslint-disable-line no-sparse-arrays
  ['sparse array with properties', Object.assign((() => { const a: unknown[] = []; a[1000] = 1; return a; })(), { p: 2 })],
  ['array with properties', Object.assign([1, 2], { extra: 'x' })],
  ['two-byte keys', { 'cl\u00e9': 1, '\u4e2d': 2 }],
];

const unsupported: Array<[string, unknown]> = [
  ['Date', new Date(0)], ['RegExp', /x/g], ['Map', new Map([[1, 2]])], ['Set', new Set([1])],
  ['BigInt', 10n], ['ArrayBuffer', new ArrayBuffer(4)], ['Uint8Array', new Uint8Array([1, 2])],
  ['boxed string', Object('s')], ['Error', new Error('e')],
  ['shared object (back-reference)', (() => { const a = { x: 1 }; return { a, b: a }; })()],
  ['circular', (() => { const a: Record<string, unknown> = {}; a.self = a; return a; })()],
  ['__proto__ key', JSON.parse('{"__proto__": {"polluted": true}}')],
  ['very sparse array', (() => { const a: unknown[] = []; a[100_000] = 1; return a; })()],
  ['object inside Date-bearing array', [1, new Date(5)]],
];

describe('WireDecoder', () => {
  const decoder = new WireDecoder();

  it.each(supported)('decodes %s exactly as v8.Deserializer does', (_name, value) => {
    const bytes = serialize(value);
    const decoded = decoder.decode(bytes, 0, bytes.length);
    expect(decoded).not.toBe(UNSUPPORTED);
    expect(shape(decoded)).toEqual(shape(reference(bytes)));
  });

  it.each(unsupported)('refuses %s (the caller falls back)', (_name, value) => {
    const bytes = serialize(value);
    expect(decoder.decode(bytes, 0, bytes.length)).toBe(UNSUPPORTED);
  });

  it('decodes a value in the middle of a larger buffer, and refuses truncated or corrupt bytes', () => {
    const parts = [serialize('first'), serialize({ k: [1, 2] }), serialize(3)];
    const all = Buffer.concat(parts);
    const at = (parts[0] as Buffer).length;
    expect(decoder.decode(all, at, at + (parts[1] as Buffer).length)).toEqual({ k: [1, 2] });
    const object = serialize({ k: 'value' });
    expect(decoder.decode(object, 0, object.length - 3)).toBe(UNSUPPORTED);
    expect(decoder.decode(Buffer.from([1, 2, 3]), 0, 3)).toBe(UNSUPPORTED);
    expect(decoder.decode(all, 0, at + 1)).toBe(UNSUPPORTED); // trailing bytes
  });

  /** Decodes every value with one decoder, as a list does, and compares each with the reference. */
  function expectSameAsReference(values: unknown[], fresh = new WireDecoder()): void {
    for (const value of values) {
      const bytes = serialize(value);
      const decoded = fresh.decode(bytes, 0, bytes.length);
      expect(decoded).not.toBe(UNSUPPORTED);
      expect(shape(decoded)).toEqual(shape(reference(bytes)));
    }
  }

  it('builds repeated shapes (compiled literals) exactly as assignment does', () => {
    const record = (i: number): unknown => ({ id: i, name: `item ${i}`, tags: ['a'], inner: { x: i, y: { z: [i] } } });
    expectSameAsReference([
      ...Array.from({ length: 20 }, (_, i) => record(i)),
      // Shapes that share a prefix with the compiled one, extend it, or stop short of it.
      { id: 1, name: 'n' }, { id: 1, name: 'n', tags: [], inner: {}, more: true }, { id: 1 }, {},
      { id: 1, 7: 'index key in the middle', name: 'n' }, { 'caf\u00e9': 1, id: 2 }, { '\u4e2d': 1, id: 2 },
      { ['k'.repeat(200)]: 1, id: 2 }, { ['k'.repeat(200)]: 1, id: 2 }, { ['k'.repeat(200)]: 1, id: 2 },
      { ['k'.repeat(200)]: 1, id: 2 }, { ['k'.repeat(200)]: 1, id: 2 },
      { '': 'empty name' }, { '': 'empty name' }, { '': 'empty name' }, { '': 'empty name' }, { '': 'empty name' },
      { 'quote"and\\backslash': 1 }, { 'quote"and\\backslash': 1 }, { 'quote"and\\backslash': 1 },
      { 'quote"and\\backslash': 1 }, { 'quote"and\\backslash': 1 }, { 'quote"and\\backslash': 1 },
      ...Array.from({ length: 6 }, () => ({ constructor: 1, toString: 2, valueOf: 3, hasOwnProperty: 4 })),
    ]);
  });

  it('decodes past the shape limits: more shapes than the trie holds, objects of more properties', () => {
    const wide = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`p${i}`, i]));
    const many = Array.from({ length: 1500 }, (_, i) => ({ [`key${i}`]: i, shared: i }));
    const decoder = new WireDecoder();
    expectSameAsReference([...many, ...many, wide, wide, wide, wide, wide, wide], decoder);
    expectSameAsReference(Array.from({ length: 10 }, (_, i) => ({ id: i, after: 'the trie is full' })), decoder);
  });

  it('gives up on a value halfway through an object and then decodes the next one whole', () => {
    const decoder = new WireDecoder();
    const record = (i: number): unknown => ({ id: i, nested: { when: i, label: 'x' } });
    expectSameAsReference([record(1), record(2), record(3), record(4), record(5)], decoder);
    const bad = serialize({ id: 6, nested: { when: new Date(6), label: 'x' } });
    expect(decoder.decode(bad, 0, bad.length)).toBe(UNSUPPORTED);
    const proto = serialize(JSON.parse('{"id": 7, "__proto__": 1}'));
    expect(decoder.decode(proto, 0, proto.length)).toBe(UNSUPPORTED);
    expectSameAsReference([record(7), record(8)], decoder);
  });

  it('reads one-byte strings of every short length (built in JS up to 12 bytes) and longer', () => {
    const latin1 = 'a\u00e9\u00ff\u0000 Z\u0080~xyz\u00a0q9';
    expectSameAsReference(Array.from({ length: latin1.length + 1 }, (_, n) => ({ s: latin1.slice(0, n), n })));
  });

  it('decodes values one after the other, each saying where it ends, and stops at one it does not read', () => {
    const parts = [serialize({ a: 1, s: 'x' }), serialize('two'), serialize([3, { b: null }]), serialize(new Date(4)), serialize(5)];
    const all = Buffer.concat(parts);
    const decoder = new WireDecoder();
    let at = 0;
    for (const [i, part] of parts.slice(0, 3).entries()) {
      expect(decoder.decodeNext(all, at, all.length)).toEqual(reference(part));
      at += part.length;
      expect(decoder.next, `value ${i}`).toBe(at);
    }
    expect(decoder.decodeNext(all, at, all.length)).toBe(UNSUPPORTED);
    expect(decoder.decodeNext(all, all.length - 1, all.length)).toBe(UNSUPPORTED); // not at a value's start
  });

  it('reads integers of every varint width', () => {
    expectSameAsReference([0, 63, 64, 127, 128, 8191, 8192, 2 ** 20, -(2 ** 20), 2 ** 31 - 1, -(2 ** 31), 2 ** 32 - 1, ['x'.repeat(300)]]);
  });
});
