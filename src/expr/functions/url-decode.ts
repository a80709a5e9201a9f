/**
 * `url_decode(src[, options])`: `%XX` and `+` become bytes and spaces. Options: `r` decodes
 * repeatedly until nothing changes, `u` also decodes `%uXXXX` into the UTF-8 bytes of that code unit.
 * Malformed escapes are kept as they are.
 */
import type { Value } from '../context.js';
import { textToBytes } from '../ast.js';

/** Builds the decoder for the given literal options. */
export function urlDecode(options: string): (args: readonly (Value | undefined)[]) => Value | undefined {
  const recursive = options.includes('r');
  const unicode = options.includes('u');
  return (args) => {
    const s = args[0] as string | undefined;
    if (s === undefined) return undefined;
    let out = decodeOnce(s, unicode);
    // Each pass shortens the string, so this terminates.
    while (recursive && out.includes('%')) {
      const next = decodeOnce(out, unicode);
      if (next === out) break;
      out = next;
    }
    return out;
  };
}

function decodeOnce(s: string, unicode: boolean): string {
  if (!s.includes('%') && !s.includes('+')) return s;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '+') { out += ' '; continue; }
    if (c === '%') {
      if (unicode && (s[i + 1] === 'u' || s[i + 1] === 'U') && /^[0-9a-fA-F]{4}$/.test(s.slice(i + 2, i + 6))) {
        out += textToBytes(String.fromCharCode(parseInt(s.slice(i + 2, i + 6), 16)));
        i += 5;
        continue;
      }
      const hex = s.slice(i + 1, i + 3);
      if (/^[0-9a-fA-F]{2}$/.test(hex)) {
        out += String.fromCharCode(parseInt(hex, 16));
        i += 2;
        continue;
      }
    }
    out += c;
  }
  return out;
}
