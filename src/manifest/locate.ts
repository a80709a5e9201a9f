/**
 * Turns document paths into file positions. Every error of validation is built here, so all of them
 * read the same way (`file:line:col: path: message`) and point at the same kind of place: a scalar
 * error at its value, a map or list error at the key that introduces it, an unknown field at its key.
 */
import { aliasNote, type SourceLocation } from './source-location.js';
import { formatPath, type DocPath, type ManifestIssue } from './errors.js';
import type { MapInfo, SeqInfo } from './positions.js';
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
  /** The outermost alias above each map or list reached through one (`aliasAbove`), made on first use. */
  private covered: Map<object, Span> | undefined;

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
      const info = this.containerOf(data);
      const i = info?.kind === 'map' && typeof seg === 'string' ? info.find(seg) : -1;
      const item = info?.kind === 'seq' && typeof seg === 'number' ? info.itemSpan(seg) : undefined;
      if (i >= 0) {
        key = (info as MapInfo).keySpan(i);
        value = (info as MapInfo).valueSpan(i);
      } else if (item !== undefined) {
        key = undefined;
        value = item;
      } else {
        return { value, key, data, exact: false };
      }
      data = (data as Record<string | number, unknown>)[seg];
    }
    return { value, key, data, exact: true };
  }

  /** The span an issue about `path` should point at. */
  spanOf(path: DocPath, anchor: Anchor = 'node'): Span {
    return this.pick(this.resolve(path), anchor);
  }

  /** The span of `r` an issue points at, per `anchor` (see `spanOf`). */
  private pick(r: Resolved, anchor: Anchor): Span {
    if (anchor === 'key' && r.key) return r.key;
    if (anchor === 'value') return r.value;
    const container = typeof r.data === 'object' && r.data !== null;
    return container && r.key ? r.key : r.value;
  }

  /** The recorded positions of a map or list of the document's data. */
  containerOf(data: unknown): MapInfo | SeqInfo | undefined {
    return typeof data === 'object' && data !== null ? this.doc.containers.get(data) : undefined;
  }

  /**
   * Where an issue about `parent[key]` would point (`spanOf`'s 'node' anchor: the key of a map or
   * list value, else the value), from `parent`'s own positions: normalisation asks this for every
   * object, so it must not walk from the root. Undefined when `parent` has no such entry.
   */
  childStart(parent: unknown, key: string): number | undefined {
    const info = this.containerOf(parent);
    const i = info?.kind === 'map' ? info.find(key) : -1;
    return i < 0 ? undefined : (info as MapInfo).nodeStart(i, (parent as Record<string, unknown>)[key]);
  }

  /** The file location of an offset. */
  locationAt(offset: number): SourceLocation {
    const line = this.lines.lineAt(offset);
    return { file: this.file, line: line + 1, column: this.lines.columnAt(offset, line) };
  }

  /**
   * The file location of `path`, placed as `issue` places an issue about it (per `anchor`):
   * through an alias, at the alias, saying where the value is (`SourceLocation.alias`).
   */
  location(path: DocPath, anchor: Anchor = 'node'): SourceLocation {
    const r = this.resolve(path);
    const span = this.pick(r, anchor);
    const at = this.locationAt(span.start);
    if (this.doc.aliases === undefined) return at;
    const alias = this.aliasOn(span === r.key ? path.slice(0, -1) : path);
    return alias === undefined ? at : this.atAlias(alias, at);
  }

  /**
   * The file location of `offset`, a position of `parent[key]` as `MapInfo.nodeStart` gives it (the
   * key of a map or list value, else a place in the value), moved to the alias it is reached
   * through, as `location` would: normalisation asks this for every field, so it needs no path.
   */
  childAt(parent: object, key: string | number, offset: number): SourceLocation {
    const at = this.locationAt(offset);
    const aliases = this.doc.aliases;
    if (aliases === undefined) return at;
    const value = (parent as Record<string | number, unknown>)[key];
    // At the entry's own key, the place is in the parent's text: only aliases above the parent move it.
    const alias = this.aliasAbove(parent) ?? (typeof value === 'object' && value !== null ? undefined : aliases.get(parent)?.get(key));
    return alias === undefined ? at : this.atAlias(alias, at);
  }

  /** The location of the alias `alias`, for a value at `value` (`SourceLocation.alias`). */
  private atAlias(alias: Span, value: SourceLocation): SourceLocation {
    const name = this.doc.text.slice(alias.start, alias.end).trim();
    return { ...this.locationAt(alias.start), alias: { name, line: value.line, column: value.column } };
  }

  /** The outermost alias on the path from the root to the map or list `data` (`aliasOn` of its path), if any. */
  private aliasAbove(data: object): Span | undefined {
    const aliases = this.doc.aliases;
    if (aliases === undefined) return undefined;
    if (this.covered === undefined) {
      this.covered = new Map();
      coverAliases(this.doc.data, undefined, aliases, this.covered);
    }
    return this.covered.get(data);
  }

  /** An issue at `path` (positioned per `anchor`; through an alias, at the alias: see `viaAlias`). */
  issue(path: DocPath, message: string, anchor: Anchor = 'node'): ManifestIssue {
    const r = this.resolve(path);
    const span = this.pick(r, anchor);
    // At the entry's own key, the issue is in the file where the entry is: only aliases above it move it.
    return this.viaAlias(this.issueAt(span.start, Math.max(1, span.end - span.start), formatPath(path), message), span === r.key ? path.slice(0, -1) : path);
  }

  /**
   * The alias (`*name`) `path` goes through before it ends inside what the alias repeats, or
   * undefined: the span of the first such alias in the file's text.
   */
  aliasOn(path: DocPath): Span | undefined {
    const aliases = this.doc.aliases;
    if (aliases === undefined) return undefined;
    let data = this.doc.data;
    for (const seg of path) {
      if (typeof data !== 'object' || data === null) return undefined;
      const use = aliases.get(data)?.get(seg);
      if (use !== undefined) return use;
      data = (data as Record<string | number, unknown>)[seg];
    }
    return undefined;
  }

  /**
   * `issue` (about `path`) moved to the alias `path` goes through, when it does: an anchored value
   * repeated by several aliases is wrong at each use, and the use is what the reader looks for. The
   * message says where the value itself is (the anchor's content), so both places are given.
   */
  viaAlias(issue: ManifestIssue, path: DocPath): ManifestIssue {
    const alias = this.aliasOn(path);
    if (alias === undefined) return issue;
    const name = this.doc.text.slice(alias.start, alias.end).trim();
    return this.issueAt(alias.start, alias.end - alias.start, issue.path, `${issue.message}${aliasNote({ name, line: issue.line, column: issue.column })}`);
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

/**
 * Records in `out`, for every map and list below `data` reached through an alias, the outermost
 * alias above it (`above`, else the alias of its own entry). Aliases copy what they repeat, so
 * each map or list has one path.
 */
function coverAliases(data: unknown, above: Span | undefined, aliases: Map<object, Map<string | number, Span>>, out: Map<object, Span>): void {
  if (typeof data !== 'object' || data === null) return;
  const own = aliases.get(data);
  const visit = (key: string | number, child: unknown): void => {
    if (typeof child !== 'object' || child === null) return;
    const alias = above ?? own?.get(key);
    if (alias !== undefined) out.set(child, alias);
    coverAliases(child, alias, aliases, out);
  };
  if (Array.isArray(data)) data.forEach((child, i) => visit(i, child));
  else for (const key of Object.keys(data)) visit(key, (data as Record<string, unknown>)[key]);
}
