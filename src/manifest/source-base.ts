/**
 * The lowest layer of a read manifest, below the position store and the parsed document: how a
 * node's place in the text is written (`Span`, `ScalarStyle`) and the list allocator that the YAML
 * readers and the position store share. It imports nothing, so `positions.ts` and `source.ts` can
 * both build on it (`source.ts` re-exports it, so readers keep importing from there).
 */

/** How a scalar was written; expression positions depend on it (quotes, escapes, block indentation). */
export type ScalarStyle = 'plain' | 'single' | 'double' | 'literal' | 'folded';

/** Where a node was written, as offsets into the file text (`end` is the end of the value). */
export interface Span {
  start: number;
  end: number;
  /** Set for scalars. */
  style?: ScalarStyle;
}

/**
 * A list of `length` undefined slots, made with the elements kind it ends with (any value): a fresh
 * `[]` or `new Array(n)` holds small integers until its first string is stored, so code optimised
 * while one manifest was read (its lists had changed kind by then) was thrown away ("wrong map") at
 * the next manifest's fresh lists, and compiled again.
 */
export function anyList<T>(length = 0): T[] {
  const list = new Array<T>(length + 1).fill(undefined as T);
  list.length = length;
  return list;
}
