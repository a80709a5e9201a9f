/**
 * Rewrite functions: `regex_replace(src, regex, replacement)` (first match only; `${1}` for a group,
 * `$$` for a dollar), `wildcard_replace(src, wildcard, replacement[, "s"])` (the whole value must
 * match; `${n}` is the text matched by the n-th star; case-insensitive unless flag `s`), and
 * `remove_query_args(query, name...)`. Without a match the source comes back unchanged.
 */
import type { Value } from '../context.js';
import { compileRegex, type CompiledRegex } from '../regex.js';
import { parseWildcard } from '../wildcard.js';

type Args = readonly (Value | undefined)[];

function expand(replacement: string, groups: readonly (string | undefined)[]): string {
  return replacement.replace(/\$\$|\$\{(\d+)\}|\$(\d+)/g, (whole, braced: string | undefined, bare: string | undefined) => {
    if (whole === '$$') return '$';
    return groups[Number(braced ?? bare)] ?? '';
  });
}

/** `regex_replace` with its pattern compiled once. */
export function regexReplace(pattern: string, replacement: string): (args: Args) => Value | undefined {
  const re = compileRegex(pattern);
  return (args) => {
    const s = args[0] as string | undefined;
    if (s === undefined) return undefined;
    const m = re.exec(s);
    if (!m) return s;
    return s.slice(0, m.start) + expand(replacement, m.groups) + s.slice(m.end);
  };
}

/** `wildcard_replace` with its pattern compiled once (as an anchored lazy regex). */
export function wildcardReplace(pattern: string, replacement: string, flags: string): (args: Args) => Value | undefined {
  const { pieces } = parseWildcard(pattern);
  const source = pieces.map(quoteBytes).join('(.*?)');
  const re: CompiledRegex = compileRegex(`(?s${flags.includes('s') ? '' : 'i'})^${source}$`);
  return (args) => {
    const s = args[0] as string | undefined;
    if (s === undefined) return undefined;
    const m = re.exec(s);
    return m ? expand(replacement, m.groups) : s;
  };
}

// Escapes a byte string for the byte-mode regex: bytes >= 0x80 as `\x{..}`, metacharacters quoted.
function quoteBytes(bytes: string): string {
  let out = '';
  for (const c of bytes) {
    const code = c.charCodeAt(0);
    if (code >= 0x80 || code < 0x20) out += `\\x{${code.toString(16)}}`;
    else out += /[\\.+*?()|[\]{}^$#&\-~]/.test(c) ? `\\${c}` : c;
  }
  return out;
}

/** `remove_query_args(query, name...)`: drops every `name=value` pair with one of the names. */
export function removeQueryArgs(args: Args): Value | undefined {
  const q = args[0] as string | undefined;
  if (q === undefined) return undefined;
  const names = new Set(args.slice(1) as string[]);
  return q
    .split('&')
    .filter((pair) => !names.has(pair.split('=', 1)[0]!))
    .join('&');
}
