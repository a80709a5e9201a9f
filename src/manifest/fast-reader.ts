/**
 * A fast reader for the YAML that manifests are made of: block maps and lists (including lists at
 * their key's indentation and `- key: value` items), single-line plain and quoted scalars, `|`/`>`
 * block scalars, single-line flow collections, comments and a leading `---`. It is about ten times
 * faster than the general parser, which matters for large manifests (1,000 filters + 1,000 rules).
 * On anything else (anchors, tags, tabs, multi-line flow or quoted scalars, syntax errors...) it
 * gives up and `read.ts` uses the `yaml` package, which also produces every YAML error message; a
 * differential test holds the two readers to the same data and positions.
 */
import { readFlowNode, type FlowSink } from './fast-flow.js';
import { Bail, bail, expectLineEnd, readDoubleQuoted, readSingleQuoted, resolvePlain, skipSpaces } from './fast-scalars.js';
import { ManifestLimits } from './limits.js';
import { setEntry, type LineIndex, type MapInfo, type ParsedDocument, type SeqInfo, type Span } from './source.js';

interface Line { start: number; indent: number; content: number; end: number; blank: boolean }
interface Node { value: unknown; span: Span }

const plainKey = /^[A-Za-z0-9_$][A-Za-z0-9_.$/+@-]*$/;
const badPlainStart = '&*!|>\'"%@`{[]},#?:-';

/** Reads `text` with the fast reader, or returns undefined when it holds something unsupported. */
export function readYamlFast(text: string, lines: LineIndex): ParsedDocument | undefined {
  if (text.includes('\t') || text.includes('\r') || text.charCodeAt(0) === 0xfeff) return undefined;
  try {
    return new FastReader(text, lines).read();
  } catch (err) {
    if (err instanceof Bail) return undefined;
    throw err;
  }
}

class FastReader implements FlowSink {
  readonly containers = new WeakMap<object, MapInfo | SeqInfo>();
  readonly maxDepth = ManifestLimits.maxDepth;
  private readonly out: ParsedDocument;
  private readonly ls: Line[] = [];
  private li = 0;

  constructor(private readonly text: string, private readonly lines: LineIndex) {
    this.out = { text, data: undefined, root: { start: 0, end: 0 }, containers: this.containers, problems: [], fatal: false };
    // One entry per line; no phantom empty line after a final line break.
    for (let start = 0; start < text.length;) {
      const nl = text.indexOf('\n', start);
      const end = nl === -1 ? text.length : nl;
      const content = skipSpaces(text, start, end);
      this.ls.push({ start, indent: content - start, content, end, blank: content === end || text[content] === '#' });
      start = end + 1;
    }
  }

  read(): ParsedDocument {
    let first = this.significant();
    if (first && this.text.startsWith('---', first.content)) {
      if (first.content !== first.start) bail();
      expectLineEnd(this.text, first.content + 3, first.end);
      this.li++;
      first = this.significant() ?? bail(); // an empty document after `---`: rare, leave it to `yaml`
    }
    if (first === undefined) return this.out; // no document
    if (this.text.startsWith('...', first.content) || this.text[first.content] === '%') bail();
    const root = this.blockNode(first, []);
    if (this.significant() !== undefined) bail();
    this.out.data = root.value;
    this.out.root = root.span;
    return this.out;
  }

  duplicate(key: string, keySpan: Span, first: Span, path: (string | number)[]): void {
    const line = this.lines.position(first.start).line;
    this.out.problems.push({
      offset: keySpan.start, length: Math.max(1, keySpan.end - keySpan.start),
      message: `duplicate key "${key}": already defined at line ${line}; remove or rename one`, path,
    });
  }

  problemCount(): number {
    return this.out.problems.length;
  }

  dropProblemsAfter(count: number): void {
    this.out.problems.length = count;
  }

  /** The next line that is not blank or a comment (not consumed). */
  private significant(): Line | undefined {
    while (this.li < this.ls.length && this.ls[this.li].blank) this.li++;
    return this.ls[this.li];
  }

  private isSeqItem(line: Line): boolean {
    return this.text[line.content] === '-' && (line.content + 1 === line.end || this.text[line.content + 1] === ' ');
  }

  private blockNode(line: Line, path: (string | number)[]): Node {
    if (path.length > this.maxDepth) bail();
    return this.isSeqItem(line) ? this.seq(line, path) : this.map(line.content, path);
  }

  /** A key at `at`: its name, span and the offset after the colon; undefined when there is none. */
  private key(at: number, end: number): { name: string; span: Span; after: number } | undefined {
    const t = this.text;
    let name: string;
    let stop: number;
    if (t[at] === '"' || t[at] === "'") {
      const q = t[at] === '"' ? readDoubleQuoted(t, at, end) : readSingleQuoted(t, at, end);
      name = q.value;
      stop = q.end;
    } else {
      stop = at;
      while (stop < end && t[stop] !== ':') stop++;
      if (stop === end) return undefined;
      name = t.slice(at, stop);
      if (!plainKey.test(name)) return undefined;
    }
    if (t[stop] !== ':' || (stop + 1 < end && t[stop + 1] !== ' ')) return undefined;
    const style = t[at] === '"' ? 'double' : t[at] === "'" ? 'single' : 'plain';
    return { name, span: { start: at, end: stop, style }, after: stop + 1 };
  }

  /** A block map whose first key is at offset `at` (its column is the map's indentation). */
  private map(at: number, path: (string | number)[]): Node {
    const obj: Record<string, unknown> = {};
    const info: MapInfo = { kind: 'map', entries: new Map() };
    const line0 = this.ls[this.li];
    const col = at - line0.start;
    let end = at;
    for (let pos = at; ;) {
      const line = this.ls[this.li];
      const key = this.key(pos, line.end) ?? bail();
      const problems = this.out.problems.length;
      const value = this.valueAfter(key.after, col, [...path, key.name]);
      const first = info.entries.get(key.name);
      if (first !== undefined) {
        // Like the `yaml` reader: a repeated key's value is dropped unread, problems included.
        this.dropProblemsAfter(problems);
        this.duplicate(key.name, key.span, first.key, [...path, key.name]);
      } else {
        info.entries.set(key.name, { key: key.span, value: value.span });
        setEntry(obj, key.name, value.value);
      }
      end = value.span.end;
      const next = this.significant();
      if (next === undefined || next.indent < col) break;
      if (next.indent > col || this.isSeqItem(next)) bail();
      pos = next.content;
    }
    this.containers.set(obj, info);
    return { value: obj, span: { start: at, end } };
  }

  /** A block list whose first `-` starts `first`. */
  private seq(first: Line, path: (string | number)[]): Node {
    const arr: unknown[] = [];
    const info: SeqInfo = { kind: 'seq', items: [] };
    const col = first.indent;
    let end = first.content;
    for (;;) {
      const line = this.ls[this.li];
      const at = skipSpaces(this.text, line.content + 1, line.end);
      if (at === line.end || this.text[at] === '#') bail(); // empty item, or its value on later lines
      const itemPath = [...path, arr.length];
      const item = this.text[at] === '-' || this.key(at, line.end) === undefined
        ? this.inlineValue(at, col, itemPath)
        : this.map(at, itemPath);
      arr.push(item.value);
      info.items.push(item.span);
      end = item.span.end;
      const next = this.significant();
      if (next === undefined || next.indent < col) break;
      if (next.indent > col) bail();
      if (!this.isSeqItem(next)) break; // the next key of a map at this list's indentation
    }
    this.containers.set(arr, info);
    return { value: arr, span: { start: first.content, end } };
  }

  /** The value after a key's colon: on the same line, or below it (a nested block or nothing). */
  private valueAfter(after: number, col: number, path: (string | number)[]): Node {
    const line = this.ls[this.li];
    const at = skipSpaces(this.text, after, line.end);
    if (at < line.end && this.text[at] !== '#') return this.inlineValue(at, col, path);
    this.li++;
    const next = this.significant();
    if (next !== undefined && (next.indent > col || (next.indent === col && this.isSeqItem(next)))) {
      return this.blockNode(next, path);
    }
    return { value: null, span: { start: at, end: at, style: 'plain' } };
  }

  /** A value that starts on the current line at `at`; `col` is its owner's indentation. */
  private inlineValue(at: number, col: number, path: (string | number)[]): Node {
    const t = this.text;
    const line = this.ls[this.li];
    const ch = t[at];
    if (ch === '|' || ch === '>') return this.blockScalar(at, col);
    let node: Node;
    let stop: number;
    if (ch === '[' || ch === '{' || ch === '"' || ch === "'") {
      const r = readFlowNode(t, at, line.end, this, path);
      node = r;
      stop = r.next;
    } else {
      if (badPlainStart.includes(ch)) bail();
      // The value ends at a comment (` #`) or at the end of the line; the search stays on this line.
      stop = at;
      while (stop < line.end && !(t.charCodeAt(stop) === 32 && t.charCodeAt(stop + 1) === 35)) stop++;
      let e = stop;
      while (t.charCodeAt(e - 1) === 32) e--;
      const source = t.slice(at, e);
      if (source.includes(': ') || source.endsWith(':')) bail();
      node = { value: resolvePlain(source), span: { start: at, end: e, style: 'plain' } };
    }
    expectLineEnd(t, stop, line.end);
    this.li++;
    const next = this.significant();
    if (next !== undefined && next.indent > col) bail(); // a continuation line: multi-line scalar
    return node;
  }

  /** A `|` or `>` block scalar (no indentation indicator, no whitespace-only lines). */
  private blockScalar(at: number, col: number): Node {
    const t = this.text;
    const header = this.ls[this.li];
    const chomp = t[at + 1] === '-' || t[at + 1] === '+' ? t[at + 1] : '';
    expectLineEnd(t, at + 1 + chomp.length, header.end);
    const body: Line[] = [];
    let blankRun = 0;
    let lastIndex = this.li;
    for (let i = this.li + 1; i < this.ls.length; i++) {
      const l = this.ls[i];
      if (l.content === l.end) {
        if (l.indent > 0 || body.length === 0) bail();
        blankRun++;
        continue;
      }
      if (l.indent <= col) break;
      if (body.length > 0 && l.indent < body[0].indent) bail(); // less indented than the content: an error
      for (; blankRun > 0; blankRun--) body.push({ start: 0, indent: -1, content: 0, end: 0, blank: true });
      body.push(l);
      lastIndex = i;
    }
    if (body.length === 0) bail();
    const indent = body[0].indent;
    const texts = body.map((l) => (l.indent < 0 ? '' : t.slice(l.start + indent, l.end)));
    let value: string;
    if (t[at] === '|') value = texts.join('\n');
    else {
      if (body.some((l) => l.indent !== indent)) bail(); // folding of blank or more-indented lines
      value = texts.join(' ');
    }
    const last = body[body.length - 1];
    this.li = lastIndex + 1;
    let end = Math.min(last.end + 1, t.length);
    if (chomp === '+') {
      value += '\n'.repeat(1 + blankRun);
      this.li += blankRun;
      end = Math.min(end + blankRun, t.length);
    } else if (chomp === '') value += '\n';
    return { value, span: { start: at, end, style: t[at] === '|' ? 'literal' : 'folded' } };
  }
}
