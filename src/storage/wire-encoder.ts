/**
 * An encoder of the common subset of V8's serialization format, the mirror of `wire-decoder.ts`,
 * for `put()`: Node's `v8.Serializer` costs an object, a native call and a growing buffer per
 * value, and was most of the time of a batch of puts. This writes plain data (strings, numbers,
 * booleans, null, undefined, plain objects, arrays without holes) into one reused buffer and
 * gives up on anything else - a class instance, a Date, a Map, a proxy, an object met twice
 * (shared or circular), a holey or very long array, deep nesting - so the caller serializes that
 * value with `v8.Serializer`, which also raises the `DataCloneError`s. Giving up is always safe.
 *
 * The bytes are those `v8.Serializer` writes for the same value (`test/storage/wire-encoder.test.ts`
 * checks it value by value), with two representation-level exceptions that decode to the same
 * value: an integral number V8 holds as a heap double is written here as an integer, and an
 * array V8 holds with holey elements (though it has no holes) is written dense, not sparse.
 */
import { types } from 'node:util';

/** Returned when a value needs `v8.Serializer`. */
export const UNSUPPORTED_VALUE: unique symbol = Symbol('unsupported value');

const WIRE_VERSION = 15;
const MAX_DEPTH = 256;
/** Longest array written here: checking a longer one for extra properties costs more than it saves. */
const MAX_ARRAY = 4096;
const INT32_MIN = -(2 ** 31);
const INT32_MAX = 2 ** 31 - 1;
const MAX_INDEX = 2 ** 32 - 2;
const NOT_LATIN1 = /[^\u0000-\u00ff]/;
/** Strings up to this length are checked and written by a JS loop (its varint length is one byte). */
const SHORT_STRING = 64;
const INDEX = /^(?:0|[1-9][0-9]*)$/;

/** Serializes values into a reused buffer; `encode` returns a fresh Buffer or UNSUPPORTED_VALUE. */
export class WireEncoder {
  #buf = Buffer.allocUnsafe(64 * 1024);
  #pos = 0;
  readonly #seen = new Set<object>();
  #busy = false;

  /** The serialization of `value` (header included), or UNSUPPORTED_VALUE. */
  encode(value: unknown): Buffer | typeof UNSUPPORTED_VALUE {
    // A getter of the value being encoded may itself put(): the nested call must not reuse the buffer.
    if (this.#busy) return UNSUPPORTED_VALUE;
    this.#busy = true;
    this.#pos = 0;
    try {
      this.#byte(0xff);
      this.#byte(WIRE_VERSION);
      if (!this.#value(value, 0)) return UNSUPPORTED_VALUE;
      const out = Buffer.allocUnsafe(this.#pos);
      this.#buf.copy(out, 0, 0, this.#pos);
      return out;
    } finally {
      this.#seen.clear();
      this.#busy = false;
    }
  }

  #room(n: number): void {
    if (this.#pos + n <= this.#buf.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.#buf.length * 2, this.#pos + n));
    this.#buf.copy(bigger, 0, 0, this.#pos);
    this.#buf = bigger;
  }

  #byte(b: number): void {
    this.#room(1);
    this.#buf[this.#pos++] = b;
  }

  #varint(n: number): void {
    this.#room(10);
    while (n >= 0x80) {
      this.#buf[this.#pos++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.#buf[this.#pos++] = n;
  }

  #value(value: unknown, depth: number): boolean {
    switch (typeof value) {
      case 'string': this.#string(value); return true;
      case 'number': this.#number(value); return true;
      case 'boolean': this.#byte(value ? 0x54 : 0x46); return true;
      case 'undefined': this.#byte(0x5f); return true;
      case 'object':
        if (value === null) {
          this.#byte(0x30);
          return true;
        }
        if (depth >= MAX_DEPTH || this.#seen.has(value) || types.isProxy(value)) return false;
        this.#seen.add(value);
        if (Array.isArray(value)) return this.#array(value, depth);
        return this.#object(value as Record<string, unknown>, depth);
      default: return false; // bigint, symbol, function
    }
  }

  #number(n: number): void {
    if (Number.isInteger(n) && n >= INT32_MIN && n <= INT32_MAX && !Object.is(n, -0)) {
      this.#byte(0x49); // I: zigzag
      this.#varint(((n << 1) ^ (n >> 31)) >>> 0);
      return;
    }
    this.#room(9);
    this.#buf[this.#pos++] = 0x4e; // N
    this.#buf.writeDoubleLE(n, this.#pos);
    this.#pos += 8;
  }

  #string(s: string): void {
    if (s.length <= SHORT_STRING && this.#shortLatin1(s)) return;
    if (!NOT_LATIN1.test(s)) {
      this.#byte(0x22); // "
      this.#varint(s.length);
      this.#room(s.length);
      this.#pos += this.#buf.write(s, this.#pos, 'latin1');
      return;
    }
    const bytes = s.length * 2;
    // V8 aligns two-byte string data on an even offset with a padding byte.
    if ((this.#pos + 1 + varintSize(bytes)) & 1) this.#byte(0x00);
    this.#byte(0x63); // c
    this.#varint(bytes);
    this.#room(bytes);
    this.#pos += this.#buf.write(s, this.#pos, 'utf16le');
  }

  /**
   * Writes a short string as a one-byte string in one pass that also checks it is Latin-1 (a JS
   * loop beats a regular expression plus a native write at this size); false, with nothing
   * written, when it is not.
   */
  #shortLatin1(s: string): boolean {
    const length = s.length;
    this.#room(2 + length);
    const buf = this.#buf;
    const at = this.#pos + 2; // tag and a one-byte varint (length < 128)
    for (let i = 0; i < length; i++) {
      const c = s.charCodeAt(i);
      if (c > 0xff) return false;
      buf[at + i] = c;
    }
    buf[this.#pos] = 0x22; // "
    buf[this.#pos + 1] = length;
    this.#pos = at + length;
    return true;
  }

  /** A property key: array-index keys as numbers, as V8 writes them. */
  #key(key: string): void {
    if (key.length <= 10 && INDEX.test(key)) {
      const index = Number(key);
      if (index <= MAX_INDEX) return this.#number(index);
    }
    this.#string(key);
  }

  #object(object: Record<string, unknown>, depth: number): boolean {
    if (Object.getPrototypeOf(object) !== Object.prototype || Object.prototype.toString.call(object) !== '[object Object]') return false;
    this.#byte(0x6f); // o
    const keys = Object.keys(object);
    for (const key of keys) {
      this.#key(key);
      if (!this.#value(object[key], depth + 1)) return false;
    }
    this.#byte(0x7b); // {
    this.#varint(keys.length);
    return true;
  }

  #array(array: unknown[], depth: number): boolean {
    const { length } = array;
    if (length > MAX_ARRAY || Object.getPrototypeOf(array) !== Array.prototype) return false;
    // Holes or extra properties: V8 writes those as a sparse array or with trailing properties.
    if (Object.keys(array).length !== length) return false;
    this.#byte(0x41); // A
    this.#varint(length);
    for (let i = 0; i < length; i++) if (!this.#value(array[i], depth + 1)) return false;
    this.#byte(0x24); // $
    this.#varint(0);
    this.#varint(length);
    return true;
  }
}

function varintSize(n: number): number {
  let size = 1;
  while (n >= 0x80) {
    n = Math.floor(n / 0x80);
    size++;
  }
  return size;
}
