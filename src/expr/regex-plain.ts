/**
 * A quick "certainly valid" answer for the patterns rules actually write (`(?i)scanner-1/[0-9]+`,
 * `^/api/v[12]/.*\.php$`), so that parsing a manifest does not compile each of them with re2js just to
 * learn that they are fine: compiling one costs 0.1–0.3 ms, and a zone holds hundreds.
 *
 * It accepts only a conservative ASCII subset: literals, `.`, `^`, `$`, escaped punctuation, the Perl
 * classes `\d \w \s \b` (and their negations), bracket classes of literals and ascending ranges,
 * groups `( )` and `(?: )`, alternation, the quantifiers `* + ?` (each optionally lazy), and one
 * leading flag group of `i m s`. No counted repetition, so the compiled program stays a few
 * instructions per character, far below the size limit. Every pattern it accepts, `compileRegex`
 * accepts (a property test holds it to that); anything else goes to `compileRegex` for the real
 * verdict and its message.
 */

// Metacharacters that are never literal outside a class.
const META = new Set('\\.+*?()|[]{}^$');
// Escapes valid outside and inside a class, in RE2 and in Rust's regex.
const PUNCT_ESCAPE = new Set('\\.+*?()|[]{}^$-/');
const PERL_CLASS = new Set('dDwWsS');
const MAX_DEPTH = 100;

/** True when `pattern` is certainly a valid, small pattern; false means "ask the compiler". */
export function isPlainRegex(pattern: string): boolean {
  if (pattern.length > 4096) return false;
  let i = 0;
  const n = pattern.length;
  const flags = /^\(\?([ims]{1,3})\)/.exec(pattern);
  if (flags !== null) {
    if (new Set(flags[1]).size !== flags[1]!.length) return false;
    i = flags[0].length;
  }
  let depth = 0;
  // Whether the last thing read can take a quantifier.
  let quantifiable = false;
  while (i < n) {
    const c = pattern.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
    const ch = pattern[i]!;
    if (ch === '*' || ch === '+' || ch === '?') {
      if (!quantifiable) return false;
      i++;
      if (pattern[i] === '?') i++;
      quantifiable = false;
      continue;
    }
    if (ch === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) return false;
      if (next === 'b' || next === 'B') {
        quantifiable = false;
      } else if (PERL_CLASS.has(next) || PUNCT_ESCAPE.has(next)) {
        quantifiable = true;
      } else {
        return false;
      }
      i += 2;
      continue;
    }
    if (ch === '[') {
      const end = classEnd(pattern, i);
      if (end < 0) return false;
      i = end;
      quantifiable = true;
      continue;
    }
    if (ch === '(') {
      if (pattern[i + 1] === '?') {
        if (pattern[i + 2] !== ':') return false;
        i += 3;
      } else {
        i++;
      }
      if (++depth > MAX_DEPTH) return false;
      quantifiable = false;
      continue;
    }
    if (ch === ')') {
      if (depth === 0) return false;
      depth--;
      i++;
      quantifiable = true;
      continue;
    }
    if (ch === '|' || ch === '^' || ch === '$') {
      i++;
      quantifiable = false;
      continue;
    }
    if (ch === '.') {
      i++;
      quantifiable = true;
      continue;
    }
    if (META.has(ch)) return false;
    i++;
    quantifiable = true;
  }
  return depth === 0;
}

/** The index after a bracket class that starts at `start`, or -1 when it is outside the subset. */
function classEnd(pattern: string, start: number): number {
  let i = start + 1;
  if (pattern[i] === '^') i++;
  let items = 0;
  while (i < pattern.length) {
    const ch = pattern[i]!;
    const c = pattern.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return -1;
    if (ch === ']') return items > 0 ? i + 1 : -1;
    if (ch === '[' || ch === '^') return -1;
    if (ch === '\\') {
      const next = pattern[i + 1];
      if (next === undefined || !(PERL_CLASS.has(next) || PUNCT_ESCAPE.has(next))) return -1;
      i += 2;
      items++;
      continue;
    }
    if (ch === '-') {
      // Only as the last item (`[a-]`) is a bare `-` certainly literal.
      if (pattern[i + 1] !== ']' || items === 0) return -1;
      i++;
      items++;
      continue;
    }
    if (pattern[i + 1] === '-' && pattern[i + 2] !== ']' && pattern[i + 2] !== undefined) {
      const hi = pattern[i + 2]!;
      if (!isAlnum(ch) || !isAlnum(hi) || hi.charCodeAt(0) < c) return -1;
      i += 3;
      items++;
      continue;
    }
    i++;
    items++;
  }
  return -1;
}

function isAlnum(ch: string): boolean {
  return /^[0-9A-Za-z]$/.test(ch);
}
