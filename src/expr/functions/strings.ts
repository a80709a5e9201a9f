/**
 * Byte-string functions of the Rules language: `lower`, `upper`, `len`, `starts_with`, `ends_with`,
 * `concat`, `remove_bytes`, `substring`, `join`, `split`, `to_string`. Values are byte strings (one
 * char per byte), so lengths and indexes are byte counts, as in the real engine; case mapping is
 * ASCII-only. A missing source gives a missing result; `concat` treats missing arguments as empty.
 */
import { formatIp, type IpValue } from '../ip.js';
import type { Value } from '../context.js';
import type { Type } from '../types.js';
import { hasPrefix } from '../wildcard.js';

type Args = readonly (Value | undefined)[];

/** `lower(s)`: ASCII lower-case. */
export function lower(args: Args): Value | undefined {
  const s = args[0] as string | undefined;
  if (s === undefined) return undefined;
  // toLowerCase is ASCII-exact unless the byte string holds Latin-1 capitals (0xC0-0xDE).
  return /[\xc0-\xde]/.test(s) ? s.replace(/[A-Z]+/g, (m) => m.toLowerCase()) : s.toLowerCase();
}

/** `upper(s)`: ASCII upper-case. */
export function upper(args: Args): Value | undefined {
  const s = args[0] as string | undefined;
  if (s === undefined) return undefined;
  // toUpperCase is ASCII-exact unless the string holds bytes it would change (0xB5, 0xDF-0xFF).
  return /[\xb5\xdf-\xff]/.test(s) ? s.replace(/[a-z]+/g, (m) => m.toUpperCase()) : s.toUpperCase();
}

/** `len(x)`: byte length of a string, element count of an array or map. */
export function len(args: Args): Value | undefined {
  const x = args[0];
  if (x === undefined) return undefined;
  if (typeof x === 'string' || Array.isArray(x)) return x.length;
  return x instanceof Map ? x.size : undefined;
}

/** `starts_with(src, prefix)`. */
export function startsWith(args: Args): Value | undefined {
  const s = args[0] as string | undefined;
  const p = args[1] as string | undefined;
  return s === undefined || p === undefined ? undefined : hasPrefix(s, p);
}

/** `ends_with(src, suffix)`. */
export function endsWith(args: Args): Value | undefined {
  const s = args[0] as string | undefined;
  const p = args[1] as string | undefined;
  return s === undefined || p === undefined ? undefined : s.endsWith(p);
}

/** `concat(a, b, ...)`: strings or arrays; missing arguments count as empty. */
export function concat(args: Args): Value | undefined {
  const present = args.filter((a) => a !== undefined);
  if (present.length > 0 && Array.isArray(present[0])) return ([] as Value[]).concat(...(present as Value[][]));
  return (present as string[]).join('');
}

/** `remove_bytes(src, set)`: drops every byte that occurs in `set`. */
export function removeBytes(args: Args): Value | undefined {
  const s = args[0] as string | undefined;
  const set = args[1] as string;
  if (s === undefined) return undefined;
  let out = '';
  for (const c of s) if (!set.includes(c)) out += c;
  return out;
}

/** `substring(src, start[, end])`: byte offsets, end exclusive, negatives count from the end. */
export function substring(args: Args): Value | undefined {
  const s = args[0] as string | undefined;
  const start = args[1] as number;
  const end = args[2] as number | undefined;
  if (s === undefined) return undefined;
  const from = clampIndex(start, s.length);
  const to = end === undefined ? s.length : clampIndex(end, s.length);
  return to > from ? s.slice(from, to) : '';
}

function clampIndex(i: number, length: number): number {
  const v = i < 0 ? length + i : i;
  return Math.max(0, Math.min(length, v));
}

/** `join(array, separator)`. */
export function join(args: Args): Value | undefined {
  const [arr, sep] = args as [readonly string[] | undefined, string];
  return arr === undefined ? undefined : arr.join(sep);
}

/** `split(src, separator, limit)`: at most `limit` items, the last holding the rest (like `splitn`). */
export function split(args: Args): Value | undefined {
  const s = args[0] as string | undefined;
  const sep = args[1] as string;
  const limit = args[2] as number;
  if (s === undefined) return undefined;
  const out: string[] = [];
  let at = 0;
  while (out.length < limit - 1) {
    const found = s.indexOf(sep, at);
    if (found < 0) break;
    out.push(s.slice(at, found));
    at = found + sep.length;
  }
  out.push(s.slice(at));
  return out;
}

/** `to_string(v)` for Int, Bool and Ip; the type is known when the call is compiled. */
export function toStringOf(type: Type): (args: Args) => Value | undefined {
  return (args) => {
    const v = args[0];
    if (v === undefined) return undefined;
    if (type.kind === 'Ip') return formatIp(v as IpValue);
    return String(v);
  };
}
