/**
 * Token-level lexers of the Rules language, after wirefilter's `lex.rs` and `rhs_types/*.rs`: spaces,
 * keywords, identifiers, integers and ranges, and list names; the string-like literals (quoted, raw
 * and hex strings, regex and wildcard patterns) are in `lex-string.ts`, IP addresses, CIDRs and
 * ranges in `lex-ip.ts`. Each lexer takes the source
 * and a position and returns the value and the position after it, or throws a `LexFailure` whose
 * kind, message and span are the real engine's (a span is usually "the rest of the input from
 * here", which the error renderer clips to the line).
 *
 * One deliberate divergence (zonewall's choice 4): English keywords and operators need a word
 * boundary after them, so `notssl` is the unknown identifier `notssl`, not `not ssl`.
 */
import { fail } from './errors.js';

/** A lexed value and the position after it. */
export interface Lexed<V> {
  readonly value: V;
  readonly end: number;
}

const I64_MAX = 9223372036854775807n;
const I64_MIN = -9223372036854775808n;

/** Skips spaces, `\r` and `\n` (not tabs: wirefilter `SPACE_CHARS`). */
export function skipSpace(src: string, pos: number): number {
  let p = pos;
  while (p < src.length) {
    const c = src.charCodeAt(p);
    if (c !== 32 && c !== 13 && c !== 10) break;
    p++;
  }
  return p;
}

/** `[A-Za-z0-9_]` (NaN, past the end, is none). */
function isWordCode(code: number): boolean {
  return (code >= 97 && code <= 122) || (code >= 65 && code <= 90) || (code >= 48 && code <= 57) || code === 95;
}

/** Whether `word` is at `pos`; English words (starting with a letter) also need a word boundary. */
export function keywordAt(src: string, pos: number, word: string): boolean {
  if (!src.startsWith(word, pos)) return false;
  const first = word.charCodeAt(0);
  return !(first >= 97 && first <= 122) || !isWordCode(src.charCodeAt(pos + word.length));
}

/** One spelling of a `KeywordTable`. */
export interface Keyword<V> {
  readonly text: string;
  readonly value: V;
}

/**
 * Spellings looked up at a position (operators), tried in the given order as `keywordAt` would,
 * but only those starting with the character there: the parser asks at every comparison and after
 * every operand, and a scan of the whole list was most of the lexing of a short expression.
 */
export class KeywordTable<V> {
  private readonly byFirst: Keyword<V>[][] = [];

  constructor(spellings: ReadonlyArray<readonly [string, V]>) {
    for (const [text, value] of spellings) (this.byFirst[text.charCodeAt(0)] ??= []).push({ text, value });
  }

  /** The first spelling at `pos` (with a word boundary after an English one), or undefined. */
  at(src: string, pos: number): Keyword<V> | undefined {
    const candidates = this.byFirst[src.charCodeAt(pos)];
    if (candidates === undefined) return undefined;
    for (let i = 0; i < candidates.length; i++) {
      if (keywordAt(src, pos, candidates[i].text)) return candidates[i];
    }
    return undefined;
  }
}

/** Fails with `expected literal "<s>"` unless `s` is at `pos`; returns the position after it. */
export function expectLiteral(src: string, pos: number, s: string): number {
  if (!src.startsWith(s, pos)) fail('ExpectedLiteral', `expected literal ${JSON.stringify(s)}`, pos, src.length);
  return pos + s.length;
}

/** A dotted identifier (`seg(.seg)*`, `seg` = `[A-Za-z0-9_]+`). */
export function lexIdentifier(src: string, pos: number): Lexed<string> {
  let p = pos;
  for (;;) {
    const start = p;
    while (p < src.length && isWordCode(src.charCodeAt(p))) p++;
    if (p === start) fail('ExpectedName', 'expected identifier character', p, src.length);
    if (src[p] !== '.') break;
    p++;
  }
  return { value: src.slice(pos, p), end: p };
}

/** `[0-9a-fA-F]`. */
export function isHexCode(code: number): boolean {
  return (code >= 48 && code <= 57) || (code >= 97 && code <= 102) || (code >= 65 && code <= 70);
}

/** Advances over characters (UTF-16 units) passing `test`; fails with `expected <name>` when there is none. */
export function takeWhile(src: string, pos: number, test: (code: number) => boolean, name: string): number {
  let p = pos;
  while (p < src.length && test(src.charCodeAt(p))) p++;
  if (p === pos) fail('ExpectedName', `expected ${name}`, pos, src.length);
  return p;
}

function checkI64(value: bigint, radix: number, start: number, end: number): bigint {
  if (value > I64_MAX) fail('ParseInt', `number too large to fit in target type while parsing with radix ${radix}`, start, end);
  if (value < I64_MIN) fail('ParseInt', `number too small to fit in target type while parsing with radix ${radix}`, start, end);
  return value;
}

/** An i64: decimal (optional `-`), `0x` hex, or octal when it starts with `0` (wirefilter quirk). */
export function lexInt(src: string, pos: number): Lexed<bigint> {
  if (src.startsWith('0x', pos)) {
    const end = takeWhile(src, pos + 2, isHexCode, 'digit');
    return { value: checkI64(BigInt(`0x${src.slice(pos + 2, end)}`), 16, pos + 2, end), end };
  }
  if (src[pos] === '0') {
    const end = takeWhile(src, pos, isHexCode, 'digit');
    const digits = src.slice(pos, end);
    if (!/^[0-7]+$/.test(digits)) fail('ParseInt', 'invalid digit found in string while parsing with radix 8', pos, end);
    return { value: checkI64(BigInt(`0o${digits}`), 8, pos, end), end };
  }
  const digitsStart = src[pos] === '-' ? pos + 1 : pos;
  const end = takeWhile(src, digitsStart, isHexCode, 'digit');
  const text = src.slice(pos, end);
  if (!/^-?[0-9]+$/.test(text)) fail('ParseInt', 'invalid digit found in string while parsing with radix 10', pos, end);
  return { value: checkI64(BigInt(text), 10, pos, end), end };
}

/** An Int set item: `a` or `a..b` (b >= a). */
export function lexIntRange(src: string, pos: number): Lexed<{ start: bigint; end: bigint }> {
  const first = lexInt(src, pos);
  let last = first;
  if (src.startsWith('..', first.end)) last = lexInt(src, first.end + 2);
  if (last.value < first.value) fail('IncompatibleRangeBounds', 'incompatible range bounds', pos, last.end);
  return { value: { start: first.value, end: last.value }, end: last.end };
}

/** A list reference `$name`: `[a-z0-9_.]`, not starting or ending with `.`. */
export function lexListName(src: string, pos: number): Lexed<string> {
  const start = pos + 1;
  let p = start;
  while (p < src.length && /[A-Za-z0-9_.]/.test(src[p]!)) p++;
  const name = src.slice(start, p);
  const bad = /[^a-z0-9_.]/.exec(name);
  if (bad) fail('InvalidListName', `invalid list name ${JSON.stringify(bad[0])}`, start + bad.index, start + bad.index + 1);
  if (name === '' || name.startsWith('.') || name.endsWith('.')) {
    fail('InvalidListName', `invalid list name ${JSON.stringify(name)}`, start, Math.max(p, start + 1));
  }
  return { value: name, end: p };
}
