/**
 * A decoder of the common subset of V8's serialization format, for `list()`, which turns
 * thousands of stored values into objects at once. Node's `v8.Deserializer` costs an object, a
 * native call and a copy per value; this reads the plain data most values are made of (strings,
 * numbers, booleans, null, undefined, plain objects, dense arrays) straight from the page's bytes
 * and gives up on anything else - a tag it does not know, a back-reference (shared or circular
 * objects), a `__proto__` key - so the caller decodes that value with `v8.Deserializer` instead.
 * Giving up is always safe: each stored value is a complete serialization of its own. Objects
 * whose property names repeat in order are built by a compiled literal (`wire-shapes.ts`), short
 * strings in JS (`wire-strings.ts`): the two largest costs of decoding small records; other
 * property names come from a cache (`wire-names.ts`).
 *
 * Tags (V8 `src/objects/value-serializer.cc`, wire format version 15, as written by
 * `v8.Serializer` with `writeHeader()`): header `0xFF <version>`; `\0` padding; `_` undefined, `0`
 * null, `T` true, `F` false; `I` zigzag int32, `U` uint32, `N` double (little-endian); `"` one-byte
 * (Latin-1) string, `c` two-byte (UTF-16LE) string, `S` UTF-8 string, each with a varint byte
 * length; `o` ... `{ <count>` object; `A <length>` ... `$ <count> <length>` dense array, `-` a hole;
 * `a <length>` key/value pairs `@ <count> <length>` sparse (holey) array, up to `MAX_SPARSE_LENGTH`.
 */
import { type Shape, ShapeTrie } from './wire-shapes.js';
import { NameCache } from './wire-names.js';
import { MAX_SHORT, shortLatin1, type BufferSlices } from './wire-strings.js';

/** Thrown (as a value, never escaping this module's caller) when a value needs the full deserializer. */
export const UNSUPPORTED: unique symbol = Symbol('unsupported');

const WIRE_VERSION = 15;

/** Longest sparse array decoded here; longer ones (mostly holes) go to the full deserializer. */
const MAX_SPARSE_LENGTH = 65_536;

/** Reads one value per call from a buffer; `decode` returns UNSUPPORTED instead of throwing. */
export class WireDecoder {
  #buf: Buffer = Buffer.alloc(0);
  #pos = 0;
  #end = 0;
  /** The property names seen before, one string per name (`wire-names.ts`). */
  readonly #names = new NameCache();
  readonly #shapes = new ShapeTrie();
  /** The keys and values of the objects being decoded (nested ones above their parents). */
  readonly #keys: Array<string | number> = [];
  readonly #values: unknown[] = [];
  #sp = 0;
  /** The name #step read when it returned no shape. */
  #lastName = '';

  /** Decodes the serialized value in `buf[start, end)`, or returns UNSUPPORTED. */
  decode(buf: Buffer, start: number, end: number): unknown {
    const value = this.decodeNext(buf, start, end);
    return this.#pos === end ? value : UNSUPPORTED;
  }

  /**
   * Decodes the serialized value that begins at `buf[start]` and ends at or before `limit`, or
   * returns UNSUPPORTED; after a value, `next` is where it ends (its bytes say where).
   */
  decodeNext(buf: Buffer, start: number, limit: number): unknown {
    this.#buf = buf;
    this.#pos = start;
    this.#end = limit;
    this.#sp = 0;
    try {
      if (buf[start] !== 0xff || this.#byte() !== 0xff || this.#varint() !== WIRE_VERSION) return UNSUPPORTED;
      return this.#value();
    } catch (err) {
      // A value given up on leaves what it decoded so far on the stack.
      this.#values.fill(undefined);
      if (err === UNSUPPORTED) return UNSUPPORTED;
      throw err;
    }
  }

  /** Where the value of the last successful `decodeNext` ends. */
  get next(): number {
    return this.#pos;
  }

  #byte(): number {
    if (this.#pos >= this.#end) throw UNSUPPORTED;
    return this.#buf[this.#pos++] as number;
  }

  #varint(): number {
    const pos = this.#pos;
    const first = this.#buf[pos] as number;
    // One byte (below 128) is the usual case; the loop stays out of this method so it inlines.
    if (first < 0x80 && pos < this.#end) {
      this.#pos = pos + 1;
      return first;
    }
    return this.#longVarint();
  }

  /** A varint of several bytes (V8 writes at most 8 for the lengths and integers read here). */
  #longVarint(): number {
    const buf = this.#buf;
    const end = this.#end;
    let pos = this.#pos;
    let result = 0;
    let scale = 1;
    for (;;) {
      if (pos >= end) throw UNSUPPORTED;
      const b = buf[pos++] as number;
      result += (b & 0x7f) * scale;
      if (b < 0x80) {
        this.#pos = pos;
        return result;
      }
      scale *= 128;
      if (scale > 2 ** 49) throw UNSUPPORTED;
    }
  }

  #tag(): number {
    let tag = this.#byte();
    while (tag === 0x00) tag = this.#byte(); // padding
    return tag;
  }

  #value(): unknown {
    return this.#valueOf(this.#tag());
  }

  #valueOf(tag: number): unknown {
    switch (tag) {
      case 0x22: return this.#latin1(); // "
      case 0x63: return this.#string('utf16le'); // c
      case 0x53: return this.#string('utf8'); // S
      case 0x49: { // I: zigzag int32
        const z = this.#varint();
        return z % 2 === 0 ? z / 2 : -(z + 1) / 2;
      }
      case 0x55: return this.#varint(); // U
      case 0x4e: { // N
        if (this.#pos + 8 > this.#end) throw UNSUPPORTED;
        const n = this.#buf.readDoubleLE(this.#pos);
        this.#pos += 8;
        return n;
      }
      case 0x54: return true; // T
      case 0x46: return false; // F
      case 0x30: return null; // 0
      case 0x5f: return undefined; // _
      case 0x6f: return this.#object(); // o
      case 0x41: return this.#denseArray(); // A
      case 0x61: return this.#sparseArray(); // a
      default: throw UNSUPPORTED;
    }
  }

  /** Reads a byte length and steps over that many bytes; returns where they start (#pos is their end). */
  #span(): number {
    const length = this.#varint();
    const start = this.#pos;
    if (start + length > this.#end) throw UNSUPPORTED;
    this.#pos = start + length;
    return start;
  }

  /** A one-byte (Latin-1) string: the common case, with one-character strings shared. */
  #latin1(): string {
    const start = this.#span();
    const end = this.#pos;
    if (end - start <= MAX_SHORT) return shortLatin1(this.#buf, start, end - start);
    return (this.#buf as unknown as BufferSlices).latin1Slice(start, end);
  }

  /** A UTF-16LE or UTF-8 string. */
  #string(encoding: 'utf16le' | 'utf8'): string {
    const start = this.#span();
    const buf = this.#buf as unknown as BufferSlices;
    return encoding === 'utf16le' ? buf.ucs2Slice(start, this.#pos) : buf.utf8Slice(start, this.#pos);
  }

  /** A Latin-1 property name, from the name cache when the same bytes were seen before (`wire-names.ts`). */
  #name(): string {
    const start = this.#span();
    return this.#names.name(this.#buf, start, this.#pos);
  }

  /** A property key: a string or a number (array-index keys are written as numbers). */
  #key(tag: number): string | number {
    const key = tag === 0x22 ? this.#name() : this.#valueOf(tag);
    if (typeof key === 'string') {
      // Assignment would set the prototype, where the deserializer defines an own property.
      if (key === '__proto__') throw UNSUPPORTED;
      return key;
    }
    if (typeof key === 'number') return key;
    throw UNSUPPORTED;
  }

  /**
   * A plain object. Its property names walk the shape trie; when the walk ends on a shape seen
   * often enough, the object is built by that shape's compiled literal, else by assignment.
   */
  #object(): Record<string | number, unknown> {
    const base = this.#sp;
    let shape: Shape | null = this.#shapes.root;
    let count = 0;
    for (;;) {
      const tag = this.#tag();
      if (tag === 0x7b) { // {
        if (this.#varint() !== count) throw UNSUPPORTED;
        return this.#assemble(shape, base, count);
      }
      const at = base + count;
      if (tag === 0x22 && shape !== null) {
        shape = this.#step(shape);
        this.#keys[at] = shape === null ? this.#lastName : shape.name;
      } else {
        shape = null;
        this.#keys[at] = this.#key(tag);
      }
      this.#sp = at + 1;
      this.#values[at] = this.#value();
      count++;
    }
  }

  /** The object whose keys and values sit on the stack at `[base, base + count)`; pops them. */
  #assemble(shape: Shape | null, base: number, count: number): Record<string | number, unknown> {
    const values = this.#values;
    let object: Record<string | number, unknown>;
    const build = shape === null ? null : this.#shapes.builder(shape);
    if (build !== null) {
      object = build(values, base);
    } else {
      object = {};
      const keys = this.#keys;
      for (let i = base; i < base + count; i++) object[keys[i] as string | number] = values[i];
    }
    // Drop the references, so the decoder does not keep the last values alive.
    for (let i = base; i < base + count; i++) values[i] = undefined;
    this.#sp = base;
    return object;
  }

  /**
   * Reads a one-byte property name after `shape`: the successor seen last is compared byte for
   * byte first (objects of one list mostly share their names in order), then the other
   * successors by name. Null when the trie is full or too deep (the name is left in #lastName).
   */
  #step(shape: Shape): Shape | null {
    const next = shape.next;
    const buf = this.#buf;
    if (next !== null) {
      const bytes = next.bytes;
      const length = bytes.length;
      const start = this.#pos + 1;
      // The varint of a name shorter than 128 bytes is its one length byte.
      if (length < 0x80 && buf[this.#pos] === length && start + length <= this.#end) {
        let i = 0;
        while (i < length && bytes[i] === buf[start + i]) i++;
        if (i === length) {
          this.#pos = start + length;
          return next;
        }
      }
    }
    const name = this.#name();
    if (name === '__proto__') throw UNSUPPORTED;
    this.#lastName = name;
    return this.#shapes.child(shape, name);
  }

  #sparseArray(): unknown[] {
    const length = this.#varint();
    if (length > MAX_SPARSE_LENGTH) throw UNSUPPORTED;
    const array: unknown[] = new Array(length);
    let count = 0;
    for (;;) {
      const tag = this.#tag();
      if (tag === 0x40) { // @
        if (this.#varint() !== count || this.#varint() !== length) throw UNSUPPORTED;
        return array;
      }
      const key = this.#key(tag);
      (array as unknown as Record<string | number, unknown>)[key] = this.#value();
      count++;
    }
  }

  #denseArray(): unknown[] {
    const length = this.#varint();
    if (length > this.#end - this.#pos) throw UNSUPPORTED;
    const array: unknown[] = new Array(length);
    for (let i = 0; i < length; i++) {
      const tag = this.#tag();
      if (tag === 0x2d) continue; // - : a hole
      array[i] = this.#valueOf(tag);
    }
    let count = 0;
    for (;;) {
      const tag = this.#tag();
      if (tag === 0x24) { // $
        if (this.#varint() !== count || this.#varint() !== length) throw UNSUPPORTED;
        return array;
      }
      const key = this.#key(tag);
      (array as unknown as Record<string | number, unknown>)[key] = this.#value();
      count++;
    }
  }
}
