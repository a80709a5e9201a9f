/**
 * The characters of a plain map key as the fast reader (`fast-reader.ts`) accepts them: a table by
 * character code and the two tests on it, for the first character and the others. Keys outside
 * this set are left to the `yaml` package (quoted keys excepted).
 */

/**
 * Plain key characters by code: 1 for `[A-Za-z0-9_$]` (may start a key), 2 for `[.\/+@-]` (only
 * after the first). A table rather than a chain of comparisons: the chain's branches that the first
 * keys of a run never reach have no type feedback, and the reader's optimised code was thrown away
 * at the first `_` or `.` in a key, then compiled again.
 */
const KeyChars = (() => {
  const table = new Uint8Array(128);
  for (const c of 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$') table[c.charCodeAt(0)] = 1;
  for (const c of './+@-') table[c.charCodeAt(0)] = 2;
  return table;
})();

/** `[A-Za-z0-9_$]`: the first character of a plain key. */
export function isKeyStart(c: number): boolean {
  return c < 128 && KeyChars[c] === 1;
}

/** `[A-Za-z0-9_.$/+@-]`: the other characters of a plain key. */
export function isKeyChar(c: number): boolean {
  return c < 128 && KeyChars[c] !== 0;
}
