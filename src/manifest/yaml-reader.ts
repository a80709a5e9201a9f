/**
 * Reads a manifest's YAML with the `yaml` package (YAML 1.2 core schema) into a `ParsedDocument`:
 * plain data plus the position of every map entry and list item. Duplicate keys are reported (the
 * first occurrence is kept), keys are taken as written (`00123` stays "00123", not 123), aliases are
 * expanded within a budget, and a stream of several documents is refused: one manifest, one zone.
 */
import { Composer, isAlias, isMap, isScalar, isSeq, type Document } from 'yaml';
import { ManifestLimits } from './limits.js';
import { nestingMessage, tooDeep, yamlTokens } from './yaml-depth.js';
import { MapInfo, PositionStore, SeqInfo, styleCode } from './positions.js';
import { LineIndex, setEntry, type ParsedDocument, type ScalarStyle, type Span } from './source.js';

const styles: Record<string, ScalarStyle> = {
  PLAIN: 'plain',
  QUOTE_SINGLE: 'single',
  QUOTE_DOUBLE: 'double',
  BLOCK_LITERAL: 'literal',
  BLOCK_FOLDED: 'folded',
};

/** Reads YAML text with the `yaml` package. Never throws on bad input: problems are returned. */
export function readYaml(text: string, lines = new LineIndex(text)): ParsedDocument {
  const parsed: ParsedDocument = {
    text, data: undefined, root: { start: 0, end: 0 }, containers: new Map(), problems: [], fatal: false,
  };
  const tokens = yamlTokens(text);
  // Refused before composing: the composer recurses, and thousands of levels exhaust the call stack.
  const deep = tooDeep(tokens, ManifestLimits.maxDepth);
  if (deep !== undefined) {
    parsed.problems.push({ offset: deep, length: 1, message: nestingMessage() });
    parsed.fatal = true;
    return parsed;
  }
  const docs = Array.from(new Composer({ uniqueKeys: false, prettyErrors: false }).compose(tokens));
  for (const doc of docs) {
    for (const err of doc.errors) {
      parsed.problems.push({ offset: err.pos[0], length: Math.max(1, err.pos[1] - err.pos[0]), message: err.message });
      parsed.fatal = true;
    }
  }
  if (docs.length > 1) {
    const at = docs[1].range[0];
    parsed.problems.push({
      offset: at, length: 1,
      message: 'a manifest holds one zone, but this file has a second YAML document: put each zone in its own file',
    });
  }
  if (docs.length === 0 || parsed.fatal) return parsed;
  const doc = docs[0];
  const converter = new Converter(doc, parsed, lines);
  parsed.data = converter.convert(doc.contents, [], 0);
  parsed.root = converter.span(doc.contents, doc.range[0]);
  return parsed;
}

/** Converts `yaml` nodes to plain data, recording positions as it goes. */
class Converter {
  private aliasNodes = 0;
  private insideAlias = 0;
  private readonly active = new Set<unknown>();
  private readonly store: PositionStore;

  constructor(
    private readonly doc: Document.Parsed,
    private readonly out: ParsedDocument,
    private readonly lines: LineIndex,
  ) {
    this.store = new PositionStore(lines.starts.length);
  }

  /** The span of a node; `fallback` is used for a missing node (an empty value). */
  span(node: unknown, fallback: number): Span {
    const range = (node as { range?: [number, number, number] } | null)?.range;
    if (!range) return { start: fallback, end: fallback };
    const style = isScalar(node) && node.type ? styles[node.type] : undefined;
    return style ? { start: range[0], end: range[1], style } : { start: range[0], end: range[1] };
  }

  convert(node: unknown, path: (string | number)[], depth: number): unknown {
    if (node === null || node === undefined) return null;
    if (depth > ManifestLimits.maxDepth) {
      this.problem(node, nestingMessage(), path);
      return null;
    }
    if (this.insideAlias > 0 && ++this.aliasNodes > ManifestLimits.maxAliasNodes) {
      if (this.aliasNodes === ManifestLimits.maxAliasNodes + 1) {
        this.problem(node, `aliases expand to more than ${ManifestLimits.maxAliasNodes} nodes`, path);
        this.out.fatal = true;
      }
      return null;
    }
    if (isAlias(node)) return this.alias(node, path, depth);
    if (isScalar(node)) return scalarValue(node.value, node.source);
    if (isMap(node)) return this.map(node, node.items, path, depth);
    if (isSeq(node)) return this.seq(node, node.items, path, depth);
    return null;
  }

  /** The real node behind an alias (for positions: the anchored node's text). */
  target(node: unknown): unknown {
    return isAlias(node) ? node.resolve(this.doc) : node;
  }

  private alias(node: { resolve(doc: Document): unknown }, path: (string | number)[], depth: number): unknown {
    const target = node.resolve(this.doc);
    // Alias problems are fatal: the data behind them is missing, so schema errors would only add noise.
    if (target === undefined) {
      const name = (node as { source?: string }).source ?? '';
      this.problem(node, `unknown alias *${name}: no anchor &${name} is defined before it`, path);
      this.out.fatal = true;
      return null;
    }
    if (this.active.has(target)) {
      this.problem(node, 'an alias may not refer to a node that contains it', path);
      this.out.fatal = true;
      return null;
    }
    this.insideAlias++;
    try {
      return this.convert(target, path, depth);
    } finally {
      this.insideAlias--;
    }
  }

  private map(node: unknown, items: { key: unknown; value: unknown }[], path: (string | number)[], depth: number): unknown {
    const obj: Record<string, unknown> = {};
    const info = new MapInfo(this.store);
    this.active.add(node);
    for (const pair of items) {
      const key = this.keyOf(pair.key, pair.value, path);
      if (key === undefined) continue;
      // A key that is an alias (`*name:`) is where the entry is written: its issues point at the alias.
      const keySpan = this.span(isAlias(pair.key) ? pair.key : this.target(pair.key), 0);
      const first = info.find(key);
      if (first >= 0) {
        const line = this.lines.position(info.keyStart(first)).line;
        this.problem(pair.key, `duplicate key "${key}": already defined at line ${line}; remove or rename one`, [...path, key]);
        continue;
      }
      const valueNode = this.target(pair.value);
      const valueSpan = this.span(valueNode, keySpan.end);
      const value = this.convert(pair.value, [...path, key], depth + 1);
      if (isAlias(pair.value)) this.aliasUse(obj, key, pair.value);
      const child = typeof value === 'object' && value !== null ? this.out.containers.get(value) : undefined;
      info.add(key, keySpan.start, keySpan.end, styleCode(keySpan.style), valueSpan.start, valueSpan.end, styleCode(valueSpan.style), child);
      setEntry(obj, key, value);
    }
    this.active.delete(node);
    this.out.containers.set(obj, info);
    return obj;
  }

  private seq(node: unknown, items: unknown[], path: (string | number)[], depth: number): unknown {
    const arr: unknown[] = [];
    const info = new SeqInfo();
    this.active.add(node);
    items.forEach((item, i) => {
      const span = this.span(this.target(item), 0);
      info.add(span.start, span.end, styleCode(span.style));
      arr.push(this.convert(item, [...path, i], depth + 1));
      if (isAlias(item)) this.aliasUse(arr, i, item);
    });
    this.active.delete(node);
    this.out.containers.set(arr, info);
    return arr;
  }

  /** Records that entry `key` of `parent` is the alias `node` (see `ParsedDocument.aliases`). */
  private aliasUse(parent: object, key: string | number, node: unknown): void {
    const aliases = (this.out.aliases ??= new Map());
    let entries = aliases.get(parent);
    if (entries === undefined) aliases.set(parent, entries = new Map());
    entries.set(key, this.span(node, 0));
  }

  /** A key as written; undefined (with a problem) for empty or non-scalar keys. */
  private keyOf(keyNode: unknown, valueNode: unknown, path: (string | number)[]): string | undefined {
    const node = this.target(keyNode);
    if (isScalar(node)) {
      if (typeof node.source === 'string') return node.source;
      if (node.value !== null && node.value !== undefined) return String(node.value);
    }
    this.problem(keyNode ?? valueNode, node == null ? 'a key is missing before ":"' : 'keys must be plain strings, not lists or maps', path);
    return undefined;
  }

  private problem(node: unknown, message: string, path: (string | number)[]): void {
    const span = this.span(node, 0);
    this.out.problems.push({ offset: span.start, length: Math.max(1, span.end - span.start), message, path });
  }
}

/** Scalars the core schema cannot produce (tags it does not define) are kept as their source text. */
function scalarValue(value: unknown, source: unknown): unknown {
  if (value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return Number(value);
  return typeof source === 'string' ? source : String(value);
}
