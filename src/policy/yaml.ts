/**
 * Reads a cases file's YAML with positions: plain data for validation and a locator that turns a
 * document path (`cases[3].expect.action`) into `file:line:col` with the line's text, so every
 * problem reads `file:line:col: path: message` like the manifest's. The `yaml` package's own
 * document nodes carry the ranges; duplicate keys, syntax errors and several documents in one
 * file are reported as located problems, never thrown.
 */
import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, type Document } from 'yaml';
import { formatPath, type DocPath, type ManifestIssue } from '../manifest/index.js';

/** Aliases may expand to at most this many nodes (a "billion laughs" file is refused). */
const MaxAliasCount = 1000;

/** A parsed cases file. */
export interface PositionedYaml {
  data: unknown;
  /** Syntax problems; when any, `data` is undefined. */
  problems: ManifestIssue[];
  /** An issue about `path`; `anchor: 'key'` points at the key that introduces it. */
  issue(path: DocPath, message: string, anchor?: 'key' | 'node'): ManifestIssue;
}

/** Parses `text` (the contents of `file`). */
export function readPositionedYaml(text: string, file: string): PositionedYaml {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const lineTexts = text.split(/\r?\n/);
  const at = (offset: number, length: number, path: string, message: string): ManifestIssue => {
    const pos = lines.linePos(offset);
    const excerpt = lineTexts[pos.line - 1] ?? '';
    const room = Math.max(1, excerpt.length - pos.col + 1);
    return { file, line: pos.line, column: pos.col, path, message, length: Math.min(Math.max(1, length), room), excerpt };
  };
  const problems = [...doc.errors, ...doc.warnings].map((e) => at(e.pos[0], e.pos[1] - e.pos[0], '', e.message.split('\n')[0]!));
  let data: unknown;
  if (problems.length === 0) {
    try {
      data = doc.toJS({ maxAliasCount: MaxAliasCount });
    } catch (err) {
      problems.push(at(0, 1, '', err instanceof Error ? err.message : String(err)));
    }
  }
  return {
    data,
    problems,
    issue(path, message, anchor = 'node') {
      const { start, end } = locate(doc, path, anchor);
      return at(start, end - start, formatPath(path), message);
    },
  };
}

type Range = { start: number; end: number };

/** The range of the deepest node of `path` that exists (a container is shown by its key). */
function locate(doc: Document, path: DocPath, anchor: 'key' | 'node'): Range {
  let node: unknown = doc.contents;
  let keyRange: Range | undefined;
  for (const seg of path) {
    node = isAlias(node) ? node.resolve(doc) : node;
    let next: unknown;
    let nextKey: Range | undefined;
    if (isMap(node) && typeof seg === 'string') {
      const pair = node.items.find((p) => isScalar(p.key) && String(p.key.value) === seg);
      if (pair === undefined) break;
      next = pair.value ?? pair.key;
      nextKey = rangeOf(pair.key);
    } else if (isSeq(node) && typeof seg === 'number' && seg < node.items.length) {
      next = node.items[seg];
    } else {
      break;
    }
    node = next;
    keyRange = nextKey;
  }
  const own = rangeOf(node);
  const container = isMap(node) || isSeq(node);
  if (keyRange !== undefined && (anchor === 'key' || container)) return keyRange;
  return own ?? keyRange ?? { start: 0, end: 1 };
}

function rangeOf(node: unknown): Range | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range === undefined ? undefined : { start: range[0], end: Math.max(range[0] + 1, range[1]) };
}
