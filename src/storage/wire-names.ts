/**
 * The property-name cache of `wire-decoder.ts`. Objects of one list mostly share their property
 * names: reusing one string per name saves a decode per property and lets V8 find the property
 * without interning a fresh string each time. A name is found by a hash of its bytes in a fixed
 * table of slots; a colliding name replaces the one before it.
 */
import type { BufferSlices } from './wire-strings.js';

/** Property names up to this many Latin-1 bytes are looked up in the name cache. */
const MAX_CACHED_NAME = 32;
const NAME_SLOTS = 512;

/** A cached property name: its bytes and the string (interned by V8 after its first use as a key). */
interface CachedName {
  bytes: Buffer;
  name: string;
}

/** One decoder's property names, by their Latin-1 bytes. */
export class NameCache {
  readonly #names: Array<CachedName | undefined> = new Array(NAME_SLOTS);

  /** The Latin-1 name in `buf[start, end)`, the cached string when the same bytes were seen before. */
  name(buf: Buffer, start: number, end: number): string {
    const length = end - start;
    if (length === 0 || length > MAX_CACHED_NAME) return (buf as unknown as BufferSlices).latin1Slice(start, end);
    let hash = length;
    for (let i = start; i < end; i++) hash = (hash * 31 + (buf[i] as number)) | 0;
    const slot = hash & (NAME_SLOTS - 1);
    const cached = this.#names[slot];
    if (cached !== undefined && cached.bytes.length === length) {
      let same = true;
      for (let i = 0; i < length; i++) {
        if (cached.bytes[i] !== buf[start + i]) {
          same = false;
          break;
        }
      }
      if (same) return cached.name;
    }
    const name = (buf as unknown as BufferSlices).latin1Slice(start, end);
    this.#names[slot] = { bytes: Buffer.from(buf.subarray(start, end)), name };
    return name;
  }
}
