/**
 * Scalars for the fast YAML reader: resolving plain scalars with the `yaml` package's own YAML 1.2
 * core schema tags (so `true`, `0x1F`, `.inf`, `~` mean exactly what they mean to `yaml`), and
 * single-line quoted scalars. Anything unusual throws `Bail`, and the caller falls back to `yaml`.
 */
import { Schema, isScalar } from 'yaml';

/** Thrown when the fast reader meets something it does not handle; `yaml` then reads the text. */
export class Bail extends Error {}

/** Gives up on the fast path. */
export function bail(): never {
  throw new Bail('fast reader: unsupported construct');
}

interface TestedTag {
  test: RegExp;
  resolve(value: string, onError: (message: string) => void, options: object): unknown;
}

const coreTags: TestedTag[] = new Schema({}).tags
  .filter((t) => t.default === true && 'test' in t && t.test instanceof RegExp)
  .map((t) => t as unknown as TestedTag);
const resolveOptions = { intAsBigInt: false };

/** `[A-Za-z]`. */
function isLetterCode(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/** The value of a plain scalar, as the `yaml` package's core schema resolves it. */
export function resolvePlain(source: string): unknown {
  const c = source.charCodeAt(0);
  // Every core tag starts with ~ . + - a digit or n N t T f F: other letters are strings (fast).
  // And what starts with a letter can only be null, true or false: five letters at most, the last
  // a letter too (so refs such as `f12` are strings without trying every tag's pattern).
  if (isLetterCode(c) && (source.length > 5 || !'nNtTfF'.includes(source[0]) || !isLetterCode(source.charCodeAt(source.length - 1)))) {
    return source;
  }
  for (const tag of coreTags) {
    if (!tag.test.test(source)) continue;
    const value = tag.resolve(source, bail, resolveOptions);
    return isScalar(value) ? value.value : value;
  }
  return source;
}

const simpleEscapes: Record<string, string> = {
  '\\': '\\', '"': '"', '/': '/', n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '0': '\0', a: '\x07', e: '\x1b',
  v: '\v', ' ': ' ', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};

/**
 * Where the last quoted scalar read ended (the offset after its closing quote), set by
 * `readDoubleQuoted` and `readSingleQuoted`: reading one allocates its value alone, not a result
 * object beside it (a manifest quotes thousands of expressions).
 */
export const quoted = { end: 0 };

/** A double-quoted scalar that ends on its line; returns its value (and sets `quoted.end`). */
export function readDoubleQuoted(text: string, open: number, lineEnd: number): string {
  let out = '';
  let i = open + 1;
  let from = i;
  while (i < lineEnd) {
    const ch = text.charCodeAt(i);
    if (ch === 34) {
      quoted.end = i + 1;
      return out + text.slice(from, i);
    }
    if (ch !== 92) { i++; continue; }
    out += text.slice(from, i);
    const esc = text[i + 1];
    if (esc === 'x' || esc === 'u') {
      const n = esc === 'x' ? 2 : 4;
      const hex = text.slice(i + 2, i + 2 + n);
      if (hex.length !== n || !/^[0-9a-fA-F]+$/.test(hex)) bail();
      out += String.fromCharCode(parseInt(hex, 16));
      i += 2 + n;
    } else {
      const simple = esc === undefined ? undefined : simpleEscapes[esc];
      if (simple === undefined) bail();
      out += simple;
      i += 2;
    }
    from = i;
  }
  return bail(); // no closing quote on this line: a multi-line scalar
}

/** A single-quoted scalar that ends on its line (`''` is a quote); returns its value (and sets `quoted.end`). */
export function readSingleQuoted(text: string, open: number, lineEnd: number): string {
  let out = '';
  let from = open + 1;
  for (let i = from; i < lineEnd; i++) {
    if (text.charCodeAt(i) !== 39) continue;
    if (text.charCodeAt(i + 1) === 39) {
      out += text.slice(from, i + 1);
      from = i + 2;
      i++;
      continue;
    }
    quoted.end = i + 1;
    return out + text.slice(from, i);
  }
  return bail();
}

/** Offset of the first non-space character at or after `i` (within the line). */
export function skipSpaces(text: string, i: number, lineEnd: number): number {
  while (i < lineEnd && text.charCodeAt(i) === 32) i++;
  return i;
}

/** Requires that only spaces or a comment follow `i` on the line. */
export function expectLineEnd(text: string, i: number, lineEnd: number): void {
  const j = skipSpaces(text, i, lineEnd);
  if (j < lineEnd && !(text[j] === '#' && j > i)) bail();
}
