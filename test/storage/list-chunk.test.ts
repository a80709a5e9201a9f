/**
 * Taking a `list()` chunk apart: value sizes parsed from their decimal list, keys split at 0xFF and
 * decoded (ASCII and UTF-8), and the checks that send a chunk to the row-by-row path: keys out of
 * order (either direction) or a key count that does not match the values.
 */
import { describe, expect, it } from 'vitest';
import { parseSizes, splitKeys } from '../../src/storage/list-chunk.js';

const joined = (keys: string[]): Buffer => Buffer.concat(keys.flatMap((k, i) => (i === 0 ? [Buffer.from(k)] : [Buffer.of(0xff), Buffer.from(k)])));

describe('list chunk', () => {
  it('parses value sizes', () => {
    expect(parseSizes('7')).toEqual([7]);
    expect(parseSizes('12,0,131106')).toEqual([12, 0, 131106]);
  });

  it('splits and decodes keys, the empty key and UTF-8 keys included, and locates the last one', () => {
    const keys = ['', 'a', 'a\u0000b', 'caf\u00e9', '\u4e2d', '\u{1d655}'];
    const split = splitKeys(joined(keys), keys.length, false);
    expect(split?.keys).toEqual(keys);
    expect(joined(keys).subarray(split?.lastAt, split?.lastEnd).toString()).toBe('\u{1d655}');
    expect(splitKeys(joined([...keys].reverse()), keys.length, true)?.keys).toEqual([...keys].reverse());
  });

  it('refuses keys out of order, repeated keys, and a count that does not match', () => {
    expect(splitKeys(joined(['b', 'a']), 2, false)).toBeNull();
    expect(splitKeys(joined(['a', 'b']), 2, true)).toBeNull();
    expect(splitKeys(joined(['a', 'a']), 2, false)).toBeNull();
    expect(splitKeys(joined(['\uff3a', '\u{1d655}']), 2, false)?.keys).toEqual(['\uff3a', '\u{1d655}']); // UTF-8 order, not UTF-16
    expect(splitKeys(joined(['a', 'b', 'c']), 2, false)).toBeNull();
    expect(splitKeys(joined(['a', 'b']), 3, false)).toBeNull();
  });
});
