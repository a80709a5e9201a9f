/**
 * Cases files written as JSON (JSON is YAML: `zonewall test` takes both), read without the `yaml`
 * package: a burst's `vary` lists of thousands of values in JSON cost the `yaml` package's composer
 * about thirty times what the manifests' fast reader takes for the same values in plain YAML. Strict
 * JSON only, and nothing the `yaml` package would read differently or report on: a duplicate key, a
 * `__proto__` key, a tab, a lone carriage return, a control character, a byte order mark, or nesting
 * deeper than a cases file goes makes it give up (undefined), and the caller composes the text with
 * the `yaml` package, as before. The data is the `yaml` package's (strings, numbers by the YAML core
 * schema, which reads every JSON number as `Number` does, booleans, null), and the positions of its
 * issues are the composed document's (a test holds the two readers to the same issues and cases).
 */
import type { DocPath, ManifestIssue } from '../manifest/index.js';
import { formatPath } from '../manifest/index.js';

/** What the caller's locator takes: the data, and the range of a path's node (as `yaml.ts` `locate`). */
export interface JsonDocument {
  data: unknown;
  /** The start and end offsets of `path`'s node, or its key's (containers, and `anchor: 'key'`). */
  locate(path: DocPath, anchor: 'key' | 'node'): { start: number; end: number };
}

/** Deeper than any cases file: such a text is left to the `yaml` package (and its nesting check). */
const MaxDepth = 32;
/** Characters the `yaml` package reads or reports on otherwise than JSON does. */
const NotPlain = /[\t\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u2028\u2029\ufeff]|\r(?!\n)/;

class GiveUp extends Error {}
const giveUp = new GiveUp();

interface MapEntry { value: unknown; keyStart: number; keyEnd: number; start: number; end: number }
type Info = { kind: 'map'; entries: Map<string, MapEntry> } | { kind: 'seq'; starts: number[]; ends: number[] };

/**
 * The JSON document of `text` with its positions, or undefined when it is not plain JSON.
 * @example const doc = readJsonDocument('{"cases": []}');
 */
export function readJsonDocument(text: string): JsonDocument | undefined {
  const first = skip(text, 0);
  if (text[first] !== '{' && text[first] !== '[') return undefined;
  if (NotPlain.test(text)) return undefined;
  const reader = new JsonReader(text);
  try {
    const data = reader.value(first, 0);
    const rootStart = first;
    const rootEnd = reader.at;
    if (skip(text, reader.at) !== text.length) return undefined;
    return { data, locate: (path, anchor) => reader.locate(data, { start: rootStart, end: rootEnd }, path, anchor) };
  } catch (err) {
    if (err instanceof GiveUp) return undefined;
    throw err;
  }
}

/** The offset after JSON white space from `i`. */
function skip(text: string, i: number): number {
  for (;;) {
    const c = text.charCodeAt(i);
    if (c === 32 || c === 10 || c === 13 || c === 9) i++;
    else return i;
  }
}

const NumberSyntax = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?/y;

class JsonReader {
  /** The offset after the last value read. */
  at = 0;
  /** The first backslash at or after the string being read (searched once, not once per string). */
  private nextSlash = -1;
  private readonly containers = new Map<object, Info>();

  constructor(private readonly text: string) {}

  value(i: number, depth: number): unknown {
    const t = this.text;
    const c = t[i];
    if (c === '{') return this.map(i, depth + 1);
    if (c === '[') return this.seq(i, depth + 1);
    if (c === '"') return this.string(i);
    if (t.startsWith('true', i)) return this.word(i + 4, true);
    if (t.startsWith('false', i)) return this.word(i + 5, false);
    if (t.startsWith('null', i)) return this.word(i + 4, null);
    NumberSyntax.lastIndex = i;
    const m = NumberSyntax.exec(t);
    if (m === null) throw giveUp;
    return this.word(i + m[0].length, Number(m[0]));
  }

  private word<T>(end: number, value: T): T {
    const c = this.text.charCodeAt(end);
    // `truex`, `1a`: not JSON.
    if (end < this.text.length && !(c === 32 || c === 10 || c === 13 || c === 44 || c === 93 || c === 125)) throw giveUp;
    this.at = end;
    return value;
  }

  private string(open: number): string {
    const t = this.text;
    const close = t.indexOf('"', open + 1);
    if (close < 0) throw giveUp;
    if (this.nextSlash <= open) {
      this.nextSlash = t.indexOf('\\', open + 1);
      if (this.nextSlash < 0) this.nextSlash = t.length;
    }
    if (this.nextSlash > close) {
      this.at = close + 1;
      return t.slice(open + 1, close);
    }
    // Escapes: the string's end is the first quote not escaped; JSON.parse decodes it.
    let i = open + 1;
    for (;;) {
      const c = t.charCodeAt(i);
      if (Number.isNaN(c)) throw giveUp;
      if (c === 92) i += 2;
      else if (c === 34) break;
      else i++;
    }
    this.at = i + 1;
    try {
      return JSON.parse(t.slice(open, i + 1)) as string;
    } catch {
      throw giveUp;
    }
  }

  private map(open: number, depth: number): Record<string, unknown> {
    if (depth > MaxDepth) throw giveUp;
    const t = this.text;
    const out: Record<string, unknown> = {};
    const entries = new Map<string, MapEntry>();
    let i = skip(t, open + 1);
    if (t[i] !== '}') {
      for (;;) {
        if (t[i] !== '"') throw giveUp;
        const key = this.string(i);
        // A repeated key is a `yaml` error, and `__proto__` is set otherwise: both left to the `yaml` package.
        if (entries.has(key) || key === '__proto__') throw giveUp;
        const keyStart = i;
        const keyEnd = this.at;
        i = skip(t, keyEnd);
        if (t[i] !== ':') throw giveUp;
        const start = skip(t, i + 1);
        const value = this.value(start, depth);
        out[key] = value;
        entries.set(key, { value, keyStart, keyEnd, start, end: this.at });
        i = skip(t, this.at);
        if (t[i] === '}') break;
        if (t[i] !== ',') throw giveUp;
        i = skip(t, i + 1);
      }
    }
    this.at = i + 1;
    this.containers.set(out, { kind: 'map', entries });
    return out;
  }

  private seq(open: number, depth: number): unknown[] {
    if (depth > MaxDepth) throw giveUp;
    const t = this.text;
    const out: unknown[] = [];
    const starts: number[] = [];
    const ends: number[] = [];
    let i = skip(t, open + 1);
    if (t[i] !== ']') {
      for (;;) {
        out.push(this.value(i, depth));
        starts.push(i);
        ends.push(this.at);
        i = skip(t, this.at);
        if (t[i] === ']') break;
        if (t[i] !== ',') throw giveUp;
        i = skip(t, i + 1);
      }
    }
    this.at = i + 1;
    this.containers.set(out, { kind: 'seq', starts, ends });
    return out;
  }

  /** As `yaml.ts` `locate` walks the composed document: the deepest node of `path` that exists, a container shown by its key. */
  locate(root: unknown, rootRange: { start: number; end: number }, path: DocPath, anchor: 'key' | 'node'): { start: number; end: number } {
    let node = root;
    let range = rootRange;
    let keyRange: { start: number; end: number } | undefined;
    for (const seg of path) {
      const info = typeof node === 'object' && node !== null ? this.containers.get(node) : undefined;
      if (info?.kind === 'map' && typeof seg === 'string') {
        const entry = info.entries.get(seg);
        if (entry === undefined) break;
        [node, range, keyRange] = [entry.value, { start: entry.start, end: entry.end }, { start: entry.keyStart, end: entry.keyEnd }];
      } else if (info?.kind === 'seq' && typeof seg === 'number' && seg < info.starts.length) {
        [node, range, keyRange] = [(node as unknown[])[seg], { start: info.starts[seg]!, end: info.ends[seg]! }, undefined];
      } else {
        break;
      }
    }
    const container = typeof node === 'object' && node !== null && this.containers.has(node);
    if (keyRange !== undefined && (anchor === 'key' || container)) return keyRange;
    return { start: range.start, end: Math.max(range.start + 1, range.end) };
  }
}

/**
 * The issue maker of a JSON document: `file:line:col` with the line's text, as `yaml.ts` makes them.
 * @example const issue = jsonIssues(text, file, doc); issue(['cases', 0, 'name'], 'duplicate');
 */
export function jsonIssues(text: string, file: string, doc: JsonDocument): (path: DocPath, message: string, anchor?: 'key' | 'node') => ManifestIssue {
  let lineStarts: number[] | undefined;
  let lineTexts: string[] | undefined;
  return (path, message, anchor = 'node') => {
    if (lineStarts === undefined) {
      lineStarts = [0];
      for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lineStarts.push(i + 1);
      lineTexts = text.split(/\r?\n/);
    }
    const { start, end } = doc.locate(path, anchor);
    // The last line starting at or before `start` (binary search).
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= start) lo = mid;
      else hi = mid - 1;
    }
    const line = lo + 1;
    const column = start - lineStarts[lo]! + 1;
    const excerpt = lineTexts![line - 1] ?? '';
    const room = Math.max(1, excerpt.length - column + 1);
    return { file, line, column, path: formatPath(path), message, length: Math.min(Math.max(1, end - start), room), excerpt };
  };
}
