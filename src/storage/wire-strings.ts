/**
 * Short one-byte strings for `wire-decoder.ts`, built in JS: for a string of a few bytes, one
 * `String.fromCharCode` of its bytes is cheaper than a call into Node's native decoder; longer
 * ones go to that decoder directly (`BufferSlices`).
 */

/**
 * Node's own Buffer decoders, which `toString(encoding, start, end)` dispatches to: called
 * directly they skip the dispatch, a measurable share of a list of thousands of values.
 */
export interface BufferSlices {
  latin1Slice(start: number, end: number): string;
  ucs2Slice(start: number, end: number): string;
  utf8Slice(start: number, end: number): string;
}

/** The 256 one-character Latin-1 strings: a one-byte string of length 1 needs no decoding. */
const ONE_CHAR: readonly string[] = Array.from({ length: 256 }, (_, b) => String.fromCharCode(b));

/** One-byte strings up to this long are built in JS (see `shortLatin1`). */
export const MAX_SHORT = 12;

const fromCharCode = String.fromCharCode;

/**
 * The Latin-1 string of `n` (at most MAX_SHORT) bytes at `buf[s]`: one `String.fromCharCode` of
 * its bytes costs a third of a call into Node's native `latin1Slice` (most string values in
 * records, like names and ids, are this short).
 */
export function shortLatin1(b: Buffer, s: number, n: number): string {
  switch (n) {
    case 0: return '';
    case 1: return ONE_CHAR[b[s]!] as string;
    case 2: return fromCharCode(b[s]!, b[s + 1]!);
    case 3: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!);
    case 4: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!);
    case 5: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!);
    case 6: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!);
    case 7: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!);
    case 8: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!);
    case 9: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!);
    case 10: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!);
    case 11: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!);
    default: return fromCharCode(b[s]!, b[s + 1]!, b[s + 2]!, b[s + 3]!, b[s + 4]!, b[s + 5]!, b[s + 6]!, b[s + 7]!, b[s + 8]!, b[s + 9]!, b[s + 10]!, b[s + 11]!);
  }
}
