/**
 * The parts of a `list()` chunk that `kv.ts` reads as one aggregate row: the values' sizes as
 * comma-separated decimals, and the keys' UTF-8 bytes joined by 0xFF, a byte valid UTF-8 never
 * holds. Both are taken apart here without `split()`, and the keys are checked to come in order
 * (SQLite's `group_concat` does not promise one).
 */

/** The comma-separated decimal value sizes of a chunk, parsed without split(). */
export function parseSizes(text: string): number[] {
  const sizes: number[] = [];
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 44) { // ,
      sizes.push(n);
      n = 0;
    } else {
      n = n * 10 + (c - 48);
    }
  }
  sizes.push(n);
  return sizes;
}

/** Compares bytes `buf[a, aEnd)` with `buf[b, bEnd)`: negative, zero or positive. */
function compareBytes(buf: Buffer, a: number, aEnd: number, b: number, bEnd: number): number {
  const n = Math.min(aEnd - a, bEnd - b);
  for (let i = 0; i < n; i++) {
    const d = (buf[a + i] as number) - (buf[b + i] as number);
    if (d !== 0) return d;
  }
  return (aEnd - a) - (bEnd - b);
}

/** The decoded keys of a chunk. */
export interface SplitKeys {
  keys: string[];
  /** Where the last key's bytes are. */
  lastAt: number;
  lastEnd: number;
}

interface BufferSlices {
  latin1Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

/** A character that is not ASCII (0xFF, the separator, aside). */
const NON_ASCII = /[\x80-\xfe]/;

/**
 * V8 makes a substring of this many characters or more a view of its parent string
 * (`SlicedString::kMinLength`), which would keep a whole chunk's keys alive for one retained key:
 * longer keys are decoded on their own.
 */
const SLICE_MIN = 13;

/**
 * The keys of a chunk, separated by 0xFF bytes, decoded and checked to strictly ascend (or
 * descend) and to number `count` (any number if negative); null when not (the caller reads the chunk row by row). A chunk
 * of ASCII keys, the usual case, is decoded with one native call and cut in JS; any other is
 * decoded key by key from UTF-8.
 */
export function splitKeys(bytes: Buffer, count: number, reverse: boolean): SplitKeys | null {
  const all = (bytes as unknown as BufferSlices).latin1Slice(0, bytes.length);
  return NON_ASCII.test(all) ? splitUtf8Keys(bytes, count, reverse) : splitAsciiKeys(bytes, all, count, reverse);
}

/**
 * `splitKeys` of ASCII keys, `all` being the chunk's bytes as Latin-1 text: its characters are
 * the bytes, so offsets are the same and comparing strings compares bytes.
 */
function splitAsciiKeys(bytes: Buffer, all: string, count: number, reverse: boolean): SplitKeys | null {
  const keys: string[] = count < 0 ? [] : new Array(count);
  let n = 0;
  let at = 0;
  let prev = '';
  for (;;) {
    let end = all.indexOf('\xff', at);
    if (end < 0) end = all.length;
    if (n === count) return null;
    const key = end - at < SLICE_MIN ? all.substring(at, end) : (bytes as unknown as BufferSlices).latin1Slice(at, end);
    if (n > 0 && (reverse ? key >= prev : key <= prev)) return null;
    keys[n++] = key;
    prev = key;
    if (end === all.length) return n === count || count < 0 ? { keys, lastAt: at, lastEnd: end } : null;
    at = end + 1;
  }
}

/** `splitKeys` of a chunk with non-ASCII keys: one pass over the bytes, comparing them. */
function splitUtf8Keys(bytes: Buffer, count: number, reverse: boolean): SplitKeys | null {
  const text = bytes as unknown as BufferSlices;
  const keys: string[] = [];
  let at = 0;
  let prevAt = -1;
  let prevEnd = -1;
  let ascii = true;
  for (let i = 0; i <= bytes.length; i++) {
    const b = i === bytes.length ? 0xff : (bytes[i] as number);
    if (b !== 0xff) {
      if (b >= 0x80) ascii = false;
      continue;
    }
    if (keys.length === count) return null;
    if (prevAt >= 0) {
      const cmp = compareBytes(bytes, at, i, prevAt, prevEnd);
      if (reverse ? cmp >= 0 : cmp <= 0) return null;
    }
    keys.push(ascii ? text.latin1Slice(at, i) : text.utf8Slice(at, i)); // an ASCII key decodes cheaper as Latin-1
    prevAt = at;
    prevEnd = i;
    at = i + 1;
    ascii = true;
  }
  return keys.length === count || count < 0 ? { keys, lastAt: prevAt, lastEnd: prevEnd } : null;
}
