/**
 * URL patterns of URI-based WAF overrides: `host/path` with `*` matching any run of characters
 * (`shop.example.com/*`, `*.example.com/admin*`); a pattern without a `/` names a host only and
 * covers every path. Hosts compare case-insensitively, paths case-sensitively; a backslash escapes
 * the next character (`\*` is a literal star), as the real API escapes wildcards.
 */

/** Whether the pattern covers the request's host and path. */
export function urlMatches(pattern: string, host: string, path: string): boolean {
  const trimmed = pattern.replace(/^[a-z]+:\/\//i, '');
  const slash = trimmed.indexOf('/');
  const hostPattern = slash < 0 ? trimmed : trimmed.slice(0, slash);
  const pathPattern = slash < 0 ? '/*' : trimmed.slice(slash);
  return wildcard(hostPattern.toLowerCase(), host.toLowerCase()) && wildcard(pathPattern, path);
}

/**
 * Whole-string wildcard match (`*` any run, `\` escapes). The classic two-pointer algorithm with
 * one backtrack point: O(pattern x text) at worst, never exponential like a backtracking regex.
 */
export function wildcard(pattern: string, text: string): boolean {
  const tokens: (string | null)[] = []; // null = star
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\' && i + 1 < pattern.length) tokens.push(pattern[++i]!);
    else tokens.push(pattern[i] === '*' ? null : pattern[i]!);
  }
  let p = 0;
  let t = 0;
  let star = -1;
  let mark = 0;
  while (t < text.length) {
    if (p < tokens.length && tokens[p] !== null && tokens[p] === text[t]) { p++; t++; }
    else if (p < tokens.length && tokens[p] === null) { star = p++; mark = t; }
    else if (star >= 0) { p = star + 1; t = ++mark; }
    else return false;
  }
  while (p < tokens.length && tokens[p] === null) p++;
  return p === tokens.length;
}
