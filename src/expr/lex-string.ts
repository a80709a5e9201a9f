/**
 * Lexers of the Rules language's string-like literals, after wirefilter's `rhs_types/bytes.rs` and
 * `rhs_types/regex.rs`: quoted strings with their escapes, raw strings, hex bytes, the Bytes
 * literal that is any of the three, and regex literals. Values are bytes (one character per byte),
 * except raw strings and regex patterns, which keep their text. Failures are `lex.ts`'s: the real
 * engine's kinds, messages and spans.
 */
import { textToBytes } from './ast.js';
import { fail } from './errors.js';
import type { Lexed } from './lex.js';

function takeChars(src: string, pos: number, count: number): number {
  let p = pos;
  for (let i = 0; i < count; i++) {
    if (p >= src.length) fail('CountMismatch', `expected ${count} characters, but found ${i}`, pos, src.length);
    p += src.codePointAt(p)! > 0xffff ? 2 : 1;
  }
  return p;
}

function fixedByte(src: string, pos: number, digits: number, radix: 8 | 16): Lexed<number> {
  const end = takeChars(src, pos, digits);
  const text = src.slice(pos, end);
  const valid = radix === 16 ? /^[0-9a-fA-F]+$/ : /^[0-7]+$/;
  if (!valid.test(text)) fail('ParseInt', `invalid digit found in string while parsing with radix ${radix}`, pos, end);
  const value = parseInt(text, radix);
  if (value > 255) fail('ParseInt', `number too large to fit in target type while parsing with radix ${radix}`, pos, end);
  return { value, end };
}

/** A quoted string starting at the `"`: escapes `\"` `\\` `\xHH` `\OOO` only. Value: bytes. */
export function lexQuotedString(src: string, pos: number): Lexed<string> {
  const body = pos + 1;
  let out = '';
  let p = body;
  for (;;) {
    if (p >= src.length) fail('MissingEndingQuote', 'could not find an ending quote', body, src.length);
    const c = src[p]!;
    if (c === '"') return { value: out, end: p + 1 };
    if (c !== '\\') {
      const cp = src.codePointAt(p)!;
      const ch = String.fromCodePoint(cp);
      out += cp < 0x80 ? ch : textToBytes(ch);
      p += ch.length;
      continue;
    }
    const e = src[p + 1];
    if (e === undefined) fail('MissingEndingQuote', 'could not find an ending quote', body, src.length);
    if (e === '"' || e === '\\') { out += e; p += 2; continue; }
    if (e === 'x') {
      const b = fixedByte(src, p + 2, 2, 16);
      out += String.fromCharCode(b.value);
      p = b.end;
      continue;
    }
    if (e >= '0' && e <= '7') {
      const b = fixedByte(src, p + 1, 3, 8);
      out += String.fromCharCode(b.value);
      p = b.end;
      continue;
    }
    const width = src.codePointAt(p + 1)! > 0xffff ? 2 : 1;
    fail('InvalidCharacterEscape', 'expected ", xHH or OOO after \\', p + 1, p + 1 + width);
  }
}

/** A raw string starting at the `r`: `r"..."`, `r#"..."#` ... (up to 255 `#`). Value: the text. */
export function lexRawString(src: string, pos: number): Lexed<string> {
  const afterR = pos + 1;
  let p = afterR;
  while (src[p] === '#') p++;
  const hashes = p - afterR;
  if (hashes > 255) {
    fail('InvalidRawStringHashCount', "invalid raw string hash count, there can't be more than 255 #s", afterR, src.length);
  }
  if (src[p] !== '"') fail('ExpectedName', 'expected " or #', p, src.length);
  const body = p + 1;
  for (let q = body; q < src.length; q++) {
    if (src[q] !== '"') continue;
    let h = 0;
    while (src[q + 1 + h] === '#') h++;
    if (h >= hashes) return { value: src.slice(body, q), end: q + 1 + hashes };
    q += h;
  }
  return fail('MissingEndingQuote', 'could not find an ending quote', afterR, src.length);
}

function lexByteSeparator(src: string, pos: number): number {
  const end = takeChars(src, pos, 1);
  if (!':-.'.includes(src[pos]!)) fail('ExpectedName', 'expected byte separator', pos, end);
  return end;
}

/** Hex bytes `6F:72:67` (separators `:` `-` `.`, at least two bytes). Value: bytes. */
export function lexHexBytes(src: string, pos: number): Lexed<string> {
  let b = fixedByte(src, pos, 2, 16);
  let out = String.fromCharCode(b.value);
  let p = lexByteSeparator(src, b.end);
  for (;;) {
    b = fixedByte(src, p, 2, 16);
    out += String.fromCharCode(b.value);
    p = b.end;
    if (p < src.length && ':-.'.includes(src[p]!)) p++;
    else return { value: out, end: p };
  }
}

/** A Bytes literal: quoted, raw or hex. Value: bytes. */
export function lexBytes(src: string, pos: number): Lexed<string> {
  if (pos >= src.length) fail('UnrecognisedInput', 'unrecognised input', pos, pos);
  if (src[pos] === '"') return lexQuotedString(src, pos);
  if (src[pos] === 'r') {
    const raw = lexRawString(src, pos);
    return { value: textToBytes(raw.value), end: raw.end };
  }
  return lexHexBytes(src, pos);
}

/** A quoted or raw string only (wildcards). Value: bytes. */
export function lexQuotedOrRaw(src: string, pos: number): Lexed<string> {
  if (pos >= src.length) fail('UnrecognisedInput', 'unrecognised input', pos, pos);
  if (src[pos] !== '"' && src[pos] !== 'r') fail('ExpectedName', 'expected " or r', pos, src.length);
  return lexBytes(src, pos);
}

/**
 * A regex literal: raw (verbatim), or quoted where `\"` outside a class becomes `"`, every other
 * escape is passed to the regex engine unchanged, and a `"` inside `[...]` does not end it.
 * Value: the pattern text; `contentStart`/`contentEnd` locate it for error spans.
 */
export function lexRegexLiteral(src: string, pos: number): Lexed<string> & { contentStart: number; contentEnd: number } {
  if (pos >= src.length) fail('UnrecognisedInput', 'unrecognised input', pos, pos);
  if (src[pos] === 'r') {
    const raw = lexRawString(src, pos);
    const hashes = src.slice(pos + 1).search(/[^#]/);
    return { ...raw, contentStart: pos + 2 + hashes, contentEnd: raw.end - 1 - hashes };
  }
  if (src[pos] !== '"') fail('ExpectedName', 'expected " or r', pos, src.length);
  const body = pos + 1;
  let out = '';
  let inClass = false;
  for (let p = body; ; ) {
    if (p >= src.length) fail('MissingEndingQuote', 'could not find an ending quote', body, src.length);
    const c = src[p]!;
    if (c === '\\') {
      const e = src[p + 1];
      if (e === undefined) { p++; continue; }
      out += inClass || e !== '"' ? `\\${e}` : e;
      p += 2;
    } else if (c === '"' && !inClass) {
      return { value: out, end: p + 1, contentStart: body, contentEnd: p };
    } else {
      if (c === '[' && !inClass) inClass = true;
      else if (c === ']' && inClass) inClass = false;
      out += c;
      p++;
    }
  }
}
