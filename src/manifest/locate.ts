/**
 * Turns document paths into file positions. Every error of validation is built here, so all of them
 * read the same way (`file:line:col: path: message`) and point at the same kind of place: a scalar
 * error at its value, a map or list error at the key that introduces it, an unknown field at its key.
 */
import { formatPath, type DocPath, type ManifestIssue } from './errors.js';
import type { LineIndex, ParsedDocument, Span } from './source.js';

/** Which part of an entry an issue points at. */
export type Anchor = 'node' | 'key' | 'value';

/** The resolved position of a path: the deepest part of it that exists in the document. */
export interface Resolved {
  /** The value's span. */
  value: Span;
  /** The span of the key that introduces the value, when its parent is a map. */
  key?: Span;
  /** The data found at the path (or at its deepest existing ancestor). */
  data: unknown;
  /** False when the path went beyond the document and an ancestor was used. */
  exact: boolean;
}

/** Builds located issues for one parsed file. */
export class Locator {
  constructor(
    readonly file: string,
    readonly doc: ParsedDocument,
    readonly lines: LineIndex,
  ) {}

  /** Walks `path` through the data and its recorded positions, in O(depth). */
  resolve(path: DocPath): Resolved {
    let data = this.doc.data;
    let value = this.doc.root;
    let key: Span | undefined;
    for (const seg of path) {
      const info = typeof data === 'object' && data !== null ? this.doc.containers.get(data) : undefined;
      const entry = info?.kind === 'map' && typeof seg === 'string' ? info.entries.get(seg)
        : info?.kind === 'seq' && typeof seg === 'number' && info.items[seg] !== undefined ? { key: undefined, value: info.items[seg] }
          : undefined;
      if (entry === undefined) return { value, key, data, exact: false };
      data = (data as Record<string | number, unknown>)[seg];
      value = entry.value;
      key = entry.key;
    }
    return { value, key, data, exact: true };
  }

  /** The span an issue about `path` should point at. */
  spanOf(path: DocPath, anchor: Anchor = 'node'): Span {
    const r = this.resolve(path);
    if (anchor === 'key' && r.key) return r.key;
    if (anchor === 'value') return r.value;
    const container = typeof r.data === 'object' && r.data !== null;
    return container && r.key ? r.key : r.value;
  }

  /**
   * Calls `visit` with where each of `fields` of the map at `path` was written (present fields only,
   * in the order of `fields`), resolving the map once: normalisation asks this for every object, so
   * it must not walk from the root per field, nor build a map per object.
   */
  fieldSpans(path: DocPath, fields: readonly string[], visit: (field: string, span: Span) => void): void {
    const { data } = this.resolve(path);
    const info = typeof data === 'object' && data !== null ? this.doc.containers.get(data) : undefined;
    if (info?.kind !== 'map') return;
    for (const f of fields) {
      const e = info.entries.get(f);
      if (e === undefined) continue;
      const v = (data as Record<string, unknown>)[f];
      visit(f, typeof v === 'object' && v !== null ? e.key : e.value);
    }
  }

  /** An issue at `path` (positioned per `anchor`). */
  issue(path: DocPath, message: string, anchor: Anchor = 'node'): ManifestIssue {
    const span = this.spanOf(path, anchor);
    return this.issueAt(span.start, Math.max(1, span.end - span.start), formatPath(path), message);
  }

  /** An issue at a file offset. */
  issueAt(offset: number, length: number, path: string, message: string): ManifestIssue {
    // "At the end of the file" reads better at the end of the last line than on a line after it.
    const text = this.doc.text;
    const at = offset >= text.length && text.endsWith('\n') ? text.length - 1 : offset;
    const { line, column } = this.lines.position(at);
    const excerpt = this.lines.lineText(line);
    // Underline at most to the end of the line: a multi-line node shows its first line.
    const room = Math.max(1, excerpt.length - column + 1);
    return { file: this.file, line, column, path, message, length: Math.min(Math.max(1, length), room), excerpt };
  }
}
