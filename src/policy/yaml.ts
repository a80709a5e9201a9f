/**
 * Reads a cases file's YAML with positions: plain data for validation and a locator that turns a
 * document path (`cases[3].expect.action`) into `file:line:col` with the line's text, so every
 * problem reads `file:line:col: path: message` like the manifest's. The `yaml` package's own
 * document nodes carry the ranges; duplicate keys, syntax errors and several documents in one
 * file are reported as located problems, never thrown.
 */
import { Composer, Document, isAlias, isCollection, isMap, isScalar, isSeq, LineCounter, visit, YAMLParseError, type CST } from 'yaml';
import { formatPath, nestingMessage, readPlainYaml, tooDeep, yamlTokens, type DocPath, type ManifestIssue } from '../manifest/index.js';
import { jsonIssues, readJsonDocument } from './yaml-json.js';

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
  // A cases file in JSON (a burst's long `vary` lists as JSON arrays) is read as JSON, with the same
  // data and positions (the fast reader below takes no flow collection at the top).
  const json = readJsonDocument(text);
  if (json !== undefined) return { data: json.data, problems: [], issue: jsonIssues(text, file, json) };
  // Plain YAML (most cases files) goes through the manifests' fast reader, about ten times faster
  // than composing it with the `yaml` package; anything else, errors included, is read below.
  const plain = readPlainYaml(text, file);
  if (plain !== undefined) return { data: plain.data, problems: [], issue: (path, message, anchor) => plain.locator.issue(path, message, anchor) };
  return readComposedYaml(text, file);
}

/** `text` composed by the `yaml` package: any YAML, and every YAML error's message. */
export function readComposedYaml(text: string, file: string): PositionedYaml {
  const lines = new LineCounter();
  const tokens = yamlTokens(text, lines.addNewLine);
  // Thousands of levels would exhaust the composer's call stack: refused at the first node too deep, before composing.
  const deep = tooDeep(tokens);
  const doc = deep === undefined ? firstDocument(tokens, text.length) : new Document(null);
  const lineTexts = text.split(/\r?\n/);
  const at = (offset: number, length: number, path: string, message: string): ManifestIssue => {
    const pos = lines.linePos(offset);
    const excerpt = lineTexts[pos.line - 1] ?? '';
    const room = Math.max(1, excerpt.length - pos.col + 1);
    return { file, line: pos.line, column: pos.col, path, message, length: Math.min(Math.max(1, length), room), excerpt };
  };
  const problems = deep !== undefined
    ? [at(deep, 1, '', nestingMessage())]
    : [...doc.errors, ...doc.warnings].map((e) => at(e.pos[0], e.pos[1] - e.pos[0], '', e.message.split('\n')[0]!));
  // A list or map as a key would become its text in `toJS` (and the yaml package would print a warning).
  if (problems.length === 0) for (const key of collectionKeys(doc)) problems.push(at(key.start, key.end - key.start, '', 'keys must be plain strings, not lists or maps'));
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
      const { range, alias } = locate(doc, path, anchor);
      const issue = at(range.start, range.end - range.start, formatPath(path), message);
      if (alias === undefined) return issue;
      // Reached through an alias: at the alias (each use is wrong), saying where the value is.
      const name = text.slice(alias.start, alias.end).trim();
      return at(alias.start, alias.end - alias.start, issue.path, `${message} (through the alias ${name}: the value is at line ${issue.line}, column ${issue.column})`);
    },
  };
}

/** The ranges of the keys of `doc` that are lists or maps, written or through an alias. */
function collectionKeys(doc: Document): Range[] {
  const out: Range[] = [];
  visit(doc, {
    Pair(_, pair) {
      const key = isAlias(pair.key) ? pair.key.resolve(doc) : pair.key;
      const range = rangeOf(pair.key);
      if (isCollection(key) && range !== undefined) out.push(range);
    },
  });
  return out;
}

/** The first document of the tokens, as `parseDocument` composes it: a second document is an error on the first. */
function firstDocument(tokens: readonly CST.Token[], length: number): Document.Parsed | Document {
  let doc: Document.Parsed | undefined;
  for (const next of new Composer({ prettyErrors: false, uniqueKeys: true }).compose(tokens, true, length)) {
    if (doc === undefined) {
      doc = next;
      continue;
    }
    doc.errors.push(new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'a cases file holds one YAML document, but this file has a second (after ---): put every case in one document'));
    break;
  }
  return doc ?? new Document(null);
}

type Range = { start: number; end: number };

/**
 * The range of the deepest node of `path` that exists (a container is shown by its key), and the
 * first alias (`*name`) the path goes through to reach it, when it does.
 */
function locate(doc: Document, path: DocPath, anchor: 'key' | 'node'): { range: Range; alias?: Range } {
  let node: unknown = doc.contents;
  let keyRange: Range | undefined;
  let alias: Range | undefined;
  for (const seg of path) {
    if (isAlias(node)) {
      alias ??= rangeOf(node);
      node = node.resolve(doc);
    }
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
  let last: Range | undefined;
  if (isAlias(node)) {
    last = rangeOf(node);
    node = node.resolve(doc);
  }
  const own = rangeOf(node);
  const container = isMap(node) || isSeq(node);
  // At the entry's own key, the issue is where the entry is: only aliases above it move it.
  if (keyRange !== undefined && (anchor === 'key' || container)) return { range: keyRange, ...(alias !== undefined ? { alias } : {}) };
  const at = alias ?? last;
  return { range: own ?? keyRange ?? { start: 0, end: 1 }, ...(at !== undefined ? { alias: at } : {}) };
}

function rangeOf(node: unknown): Range | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range === undefined ? undefined : { start: range[0], end: Math.max(range[0] + 1, range[1]) };
}
