/**
 * The parts of a `list()` chunk that `kv.ts` reads as one aggregate row: the values' sizes as
 * comma-separated decimals, and the keys' UTF-8 bytes joined by 0xFF, a byte valid UTF-8 never
 * holds. Both are taken apart here in single passes, without `split()` or a native call per key,
 * and the keys are checked to come in order (SQLite's `group_concat` does not promise one).
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

/**
 * The keys of a chunk, separated by 0xFF bytes, decoded in one pass that also checks they strictly
 * ascend (or descend) and that there are `count` of them; null when not (the caller reads the
 * chunk row by row). ASCII keys, the usual case, take the cheaper Latin-1 decoder.
 */
export function splitKeys(bytes: Buffer, count: number, reverse: boolean): SplitKeys | null {
  const text = bytes as unknown as { latin1Slice(s: number, e: number): string; utf8Slice(s: number, e: number): string };
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
    keys.push(ascii ? text.latin1Slice(at, i) : text.utf8Slice(at, i));
    prevAt = at;
    prevEnd = i;
    at = i + 1;
    ascii = true;
  }
  return keys.length === count ? { keys, lastAt: prevAt, lastEnd: prevEnd } : null;
}
