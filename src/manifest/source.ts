/**
 * A parsed manifest document: plain data (what JSON Schema validates) plus, beside it, where each
 * map entry and list item was written. Both YAML readers (`yaml-reader.ts`, `fast-reader.ts`) produce
 * this shape, so positions, schema checks and normalisation never depend on which reader ran.
 */
import type { MapInfo, SeqInfo } from './positions.js';
import type { Span } from './source-base.js';

export type { MapInfo, SeqInfo } from './positions.js';
export { anyList, type ScalarStyle, type Span } from './source-base.js';

/** A problem found while reading YAML, at an offset of the text. */
export interface ReadProblem {
  offset: number;
  length: number;
  message: string;
  /** The document path of the node concerned, when known (duplicate keys). */
  path?: (string | number)[];
}

/** The result of reading one manifest file's text. */
export interface ParsedDocument {
  text: string;
  /** The document's data; `undefined` when the text holds no document at all. */
  data: unknown;
  root: Span;
  /**
   * Positions of every map and list in `data` (keyed by the object itself). A strong map: it lives
   * as long as the document, and a weak one with thousands of keys costs the garbage collector
   * far more (each entry is an ephemeron it must trace).
   */
  containers: Map<object, MapInfo | SeqInfo>;
  problems: ReadProblem[];
  /**
   * True when the text is not valid YAML: the data may be partial, so only `problems` should be
   * reported. Duplicate keys are problems but not fatal (the first occurrence is kept).
   */
  fatal: boolean;
  /**
   * Where an entry's value is an alias (`*name`), the alias's span, by the entry's parent map or
   * list and the entry's key or index: positions of the value itself are the anchor's (it is written
   * there), and an issue about it points at the alias instead (`Locator.viaAlias`). Absent: none.
   */
  aliases?: Map<object, Map<string | number, Span>>;
}

/** Shortest string V8 makes as a slice of a longer one (`SlicedString::kMinLength`); shorter ones are copies. */
export const ShortestSlice = 13;

/**
 * `text` as a string of its own. A string cut from the document (13 characters or more) is, in V8,
 * a view into the whole document text, which stays alive as long as it does: a zone's name, kept
 * for a run's closing lines, kept its whole manifest (about 90 KB for 2,000 objects) to the end of
 * the run. What outlives the zone's plan is copied with this.
 */
export function ownText(text: string): string {
  return text.length < ShortestSlice ? text : (JSON.parse(JSON.stringify(text)) as string);
}

/** Sets `obj[key] = value` without letting a `__proto__` key reach the prototype. */
export function setEntry(obj: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
  } else {
    obj[key] = value;
  }
}

/** Maps offsets of a text to 1-based line and column (binary search over line starts). */
export class LineIndex {
  /**
   * Offset of each line's first character (one more entry after a final line break); typed, and
   * sized from the text's length (a line per 16 characters: manifests' lines are longer), so a long
   * file's index is one allocation and one scan (counting the lines first was a second scan).
   */
  readonly starts: Int32Array;
  /** The 0-based line of the last lookup. */
  private last = 0;

  constructor(private readonly text: string) {
    let starts = new Int32Array((text.length >> 4) + 16);
    let n = 1;
    for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) {
      if (n === starts.length) {
        const grown = new Int32Array(starts.length * 2);
        grown.set(starts);
        starts = grown;
      }
      starts[n++] = i + 1;
    }
    this.starts = starts.subarray(0, n);
  }

  /** The 1-based line and column of `offset` (clamped into the text). */
  position(offset: number): { line: number; column: number } {
    const line = this.lineAt(offset);
    return { line: line + 1, column: this.columnAt(offset, line) };
  }

  /** The 0-based line of `offset` (clamped into the text). */
  lineAt(offset: number): number {
    const at = Math.max(0, Math.min(offset, this.text.length));
    const s = this.starts;
    // The line of the last lookup or one of the next few: normalisation asks in file order.
    if (s[this.last] <= at) {
      for (let line = this.last, stop = Math.min(line + 4, s.length); line < stop; line++) {
        if (line + 1 === s.length || s[line + 1] > at) {
          this.last = line;
          return line;
        }
      }
    }
    let lo = 0;
    let hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= at) lo = mid;
      else hi = mid - 1;
    }
    this.last = lo;
    return lo;
  }

  /** The 1-based column of `offset` (clamped into the text) on its 0-based `line`. */
  columnAt(offset: number, line: number): number {
    return Math.max(0, Math.min(offset, this.text.length)) - this.starts[line] + 1;
  }

  /** The text of a 1-based line, without its line break. */
  lineText(line: number): string {
    const start = this.starts[line - 1] ?? this.text.length;
    const next = this.starts[line];
    const end = next === undefined ? this.text.length : next - 1;
    return this.text.slice(start, end).replace(/\r$/, '');
  }
}
