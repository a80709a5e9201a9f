/**
 * `matches` patterns on re2js (a linear-time RE2 port), never on the JS RegExp engine, so a hostile
 * pattern cannot stall evaluation. The real engine uses Rust's `regex` crate with Unicode off and
 * UTF-8 off (byte-oriented: `.` is one byte, `\w \d \s` and `(?i)` are ASCII). re2js has no such mode,
 * so zonewall gets byte semantics by matching on byte strings (one char per byte) and rewriting the
 * pattern's non-ASCII characters into their UTF-8 bytes. A pattern that turns Unicode on with a
 * `(?u)` / `(?u:...)` flag runs in re2js' text mode instead, on the UTF-8-decoded value.
 *
 * Differences from Rust that remain (documented, rare in firewall rules): `(?x)` verbose mode and
 * `\u` escapes are not supported; repetitions above 1,000 are refused (RE2's limit); `(?i)` in byte
 * mode also folds Latin-1 letters (bytes 0xC0-0xFE).
 */
import { RE2JS } from 're2js';
import { bytesToText, textToBytes } from './ast.js';
import { ExpressionLimits } from './limits.js';
import { requiredLiteral, type Prefilter } from './regex-prefilter.js';


/** A compiled pattern: `test` takes a byte string and searches it (unanchored). */
export interface CompiledRegex {
  readonly pattern: string;
  readonly unicode: boolean;
  test(bytes: string): boolean;
  /**
   * A literal every match contains (lower-case when compared case-insensitively), when the pattern
   * has one: `test` looks for it first. An evaluator that lower-cases a value once for many patterns
   * looks for it itself and then calls `testMatch`.
   */
  readonly required: Prefilter | undefined;
  /** `test` without the look for `required` (only correct once the literal is known to be there). */
  testMatch(bytes: string): boolean;
  /** The first match: its byte offsets and groups (undefined for groups that did not take part). */
  exec(bytes: string): { start: number; end: number; groups: (string | undefined)[] } | undefined;
}

/** Thrown by `compileRegex` with a message in the style of the real engine. */
export class RegexSyntaxError extends Error {}

// `(?flags)` or `(?flags:` with a `u` somewhere: Rust's Unicode switch, unknown to RE2.
const FLAG_GROUP = /\(\?([a-zA-Z]*)(?:-([a-zA-Z]*))?([:)])/g;

// Compiled patterns by source: the same filters are parsed (validated) and compiled again and again
// (planner, engine, `zonewall test`), and an RE2 program is immutable, so sharing is safe. Bounded.
const CACHE_SIZE = 512;
const cache = new Map<string, CompiledRegex>();

/** Empties the compiled-pattern cache (benchmarks measure cold compiles with it). */
export function clearRegexCache(): void {
  cache.clear();
}

/** Compiles a Rust-syntax pattern; throws `RegexSyntaxError` when invalid or too large. */
export function compileRegex(pattern: string): CompiledRegex {
  const cached = cache.get(pattern);
  if (cached) return cached;
  const compiled = compileUncached(pattern);
  if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value!);
  cache.set(pattern, compiled);
  return compiled;
}

function compileUncached(pattern: string): CompiledRegex {
  let unicode = false;
  const rewritten = pattern.replace(FLAG_GROUP, (whole: string, on: string, off: string | undefined, end: string) => {
    if (!on.includes('u') && !(off ?? '').includes('u')) return whole;
    if (on.includes('u')) unicode = true;
    const keepOn = on.replace(/u/g, '');
    const keepOff = (off ?? '').replace(/u/g, '');
    const flags = keepOn + (keepOff ? `-${keepOff}` : '');
    if (flags === '') return end === ':' ? '(?:' : '';
    return `(?${flags}${end}`;
  });
  const source = unicode ? rewritten : toBytePattern(rewritten);
  let re: RE2JS;
  try {
    re = RE2JS.compile(source);
  } catch (err) {
    throw new RegexSyntaxError(err instanceof Error ? err.message : String(err));
  }
  const size = programSize(re);
  if (size > ExpressionLimits.maxRegexInstructions) {
    throw new RegexSyntaxError(
      `Compiled regex exceeds size limit of ${ExpressionLimits.maxRegexInstructions} instructions (${size}).`,
    );
  }
  if (unicode) {
    const testText = (bytes: string): boolean => re.test(bytesToText(bytes));
    return {
      pattern, unicode, required: undefined, testMatch: testText,
      test: testText,
      exec: (bytes) => {
        const text = bytesToText(bytes);
        const m = firstMatch(re, text);
        if (!m) return undefined;
        // Back to byte offsets and byte strings.
        const start = textToBytes(text.slice(0, m.start)).length;
        const end = start + textToBytes(text.slice(m.start, m.end)).length;
        return { start, end, groups: m.groups.map((g) => (g === undefined ? g : textToBytes(g))) };
      },
    };
  }
  const prefilter = requiredLiteral(rewritten);
  let test = (bytes: string): boolean => re.test(bytes);
  if (prefilter) {
    const { literal } = prefilter;
    test = prefilter.foldCase
      ? (bytes) => bytes.toLowerCase().includes(literal) && re.test(bytes)
      : (bytes) => bytes.includes(literal) && re.test(bytes);
  }
  return { pattern, unicode, test, required: prefilter, testMatch: (bytes) => re.test(bytes), exec: (bytes) => firstMatch(re, bytes) };
}

function firstMatch(re: RE2JS, input: string): { start: number; end: number; groups: (string | undefined)[] } | undefined {
  const m = re.matcher(input);
  if (!m.find()) return undefined;
  const groups: (string | undefined)[] = [];
  for (let i = 0; i <= m.groupCount(); i++) groups.push(m.group(i) ?? undefined);
  return { start: m.start(), end: m.end(), groups };
}

// Non-ASCII pattern characters become `\x{HH}` escapes of their UTF-8 bytes, so that they match the
// byte strings the evaluator works on.
function toBytePattern(pattern: string): string {
  // eslint-disable-next-line no-control-regex
  if (/^[\x00-\x7f]*$/.test(pattern)) return pattern;
  let out = '';
  for (const ch of pattern) {
    if (ch.charCodeAt(0) < 0x80) { out += ch; continue; }
    for (const byte of textToBytes(ch)) out += `\\x{${byte.charCodeAt(0).toString(16)}}`;
  }
  return out;
}

function programSize(re: RE2JS): number {
  const internal = re as unknown as { re2Input?: { prog?: { inst?: unknown[] } } };
  return internal.re2Input?.prog?.inst?.length ?? 0;
}
