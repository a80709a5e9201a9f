/**
 * A literal prefilter for `matches`: a string that every match must contain, found conservatively
 * in the pattern text, so that most evaluations are an `includes` instead of a regex run. re2js has
 * its own prefilter but skips case-insensitive patterns, and `(?i)` is the common case in firewall
 * rules (`(?i)googlebot/\d+`), where a re2js run costs ~20x a substring search.
 *
 * Conservative by construction: only the top-level concatenation is read (groups, classes and
 * escapes other than escaped punctuation end a literal run; a quantified last character is
 * dropped); any top-level `|`, or a flag change other than a leading `(?i)`, gives no prefilter.
 * Case-insensitive literals must be ASCII: on byte strings (one char per byte) the only case
 * variants of an ASCII letter are ASCII, so comparing lower-cased texts is exact.
 */

/** A required literal, and whether it is compared case-insensitively (then it is lower-case). */
export interface Prefilter {
  readonly literal: string;
  readonly foldCase: boolean;
}

const QUANTIFIER = /[?*+{]/;
const PLAIN = /[A-Za-z0-9 _\-/:;,'"=<>@%&!~`]/;
const ESCAPABLE = /[.\\+*?()|[\]{}^$#&\-~/]/;

/** The longest literal every match contains (at least 2 characters), or undefined. */
export function requiredLiteral(pattern: string): Prefilter | undefined {
  let body = pattern;
  let foldCase = false;
  if (body.startsWith('(?i)')) {
    foldCase = true;
    body = body.slice(4);
  }
  if (/\(\?[a-zA-Z-]*\)/.test(body)) return undefined;
  const runs = literalRuns(body);
  if (!runs) return undefined;
  const best = runs.reduce((a, b) => (b.length > a.length ? b : a), '');
  if (best.length < 2) return undefined;
  // eslint-disable-next-line no-control-regex
  if (foldCase && !/^[\x00-\x7f]*$/.test(best)) return undefined;
  return { literal: foldCase ? best.toLowerCase() : best, foldCase };
}

// The literal runs of the top-level concatenation, or undefined when it has a top-level `|` (or
// syntax this reader does not follow).
function literalRuns(body: string): string[] | undefined {
  const runs: string[] = [];
  let run = '';
  const end = (): void => { if (run) runs.push(run); run = ''; };
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c === '|') return undefined;
    if (c === '(' || c === '[') {
      end();
      const close = skipGroup(body, i);
      if (close < 0) return undefined;
      i = close;
      continue;
    }
    if (c === '{') {
      // A repetition `{n}`, `{n,}`, `{n,m}` is skipped whole (its digits are not literals).
      end();
      const rep = /^\{\d+(,\d*)?\}/.exec(body.slice(i));
      if (rep) i += rep[0].length - 1;
      continue;
    }
    let literal: string | undefined;
    let width = 1;
    if (c === '\\') {
      const e = body[i + 1];
      if (e !== undefined && ESCAPABLE.test(e)) {
        literal = e;
        width = 2;
      } else {
        end();
        const skip = escapeLength(body, i);
        if (skip < 0) return undefined;
        i += skip - 1;
        continue;
      }
    } else if (PLAIN.test(c)) {
      literal = c;
    }
    if (literal === undefined) {
      end();
      continue;
    }
    if (QUANTIFIER.test(body[i + width] ?? '')) end();
    else run += literal;
    i += width - 1;
  }
  end();
  return runs;
}

// The length of the escape sequence at `i` (`\d`, `\x41`, `\x{1F}`, `\pL`, `\p{Greek}`, `\123`),
// or -1 for `\Q...\E` quoting, which this reader does not follow.
function escapeLength(body: string, i: number): number {
  const e = body[i + 1];
  if (e === undefined) return 1;
  if (e === 'Q') return -1;
  if (e === 'x' || e === 'p' || e === 'P') {
    if (body[i + 2] === '{') {
      const close = body.indexOf('}', i + 3);
      return close < 0 ? -1 : close - i + 1;
    }
    return e === 'x' ? 4 : 3;
  }
  if (/[0-7]/.test(e)) return 2 + (/^[0-7]{0,2}/.exec(body.slice(i + 2))?.[0].length ?? 0);
  return 2;
}

// The index of the `)` or `]` closing the group or class opened at `open`, or -1. Inside a class,
// a `]` right after `[` or `[^` is a literal and `[:name:]` is a POSIX class (RE2 syntax).
function skipGroup(body: string, open: number): number {
  let depth = 0;
  let classStart = -1;
  for (let i = open; i < body.length; i++) {
    const c = body[i]!;
    if (c === '\\') { i++; continue; }
    if (classStart >= 0) {
      if (c === '[' && body[i + 1] === ':') {
        const close = body.indexOf(':]', i + 2);
        if (close < 0) return -1;
        i = close + 1;
        continue;
      }
      const first = classStart + (body[classStart + 1] === '^' ? 2 : 1);
      if (c === ']' && i > first) {
        classStart = -1;
        if (depth === 0) return i;
      }
      continue;
    }
    if (c === '[') classStart = i;
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}
