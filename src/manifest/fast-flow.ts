/**
 * Single-line flow collections for the fast YAML reader: `[a, "b", {c: d}]` and `{ id: x, action: log }`,
 * as manifests write override lists and small maps, and JSON (`{"a":[1,2]}`); a flow may go on over
 * several lines (`FlowReader.read`: a burst's `vary` list as a JSON array, one value a line) when each
 * line after the first is indented past its owner (a closing bracket may stand at the owner's
 * column). Empty entries, trailing commas, comments inside, scalars over several lines, and plain
 * scalars with `#` or a `:` that ends them are left to the `yaml` package (`Bail`).
 */
import { bail, quoted, readDoubleQuoted, readSingleQuoted, resolvePlain, skipSpaces } from './fast-scalars.js';
import { MapInfo, SeqInfo, styleCode, type PositionStore } from './positions.js';
import { setEntry, type Span } from './source.js';

/** A parsed node: its value, its span, and where parsing stopped. */
export interface FlowResult {
  value: unknown;
  span: Span;
  next: number;
}

/** What flow parsing needs from the reader: positions, the path being read, and duplicate-key reporting. */
export interface FlowSink {
  containers: Map<object, MapInfo | SeqInfo>;
  store: PositionStore;
  /** The document path of the node being read; flow collections push and pop their keys and indexes. */
  path: (string | number)[];
  /** Reports a repeated key (at `path` + `key`); `firstStart` is where the first one starts. */
  duplicate(key: string, keyStart: number, keyEnd: number, firstStart: number): void;
  problemCount(): number;
  dropProblemsAfter(count: number): void;
  maxDepth: number;
}

const flowStop = new Set([',', '[', ']', '{', '}', '#', ':']);

/**
 * Reads the flow collections of one document (`FastReader` makes one per read): the state of a flow
 * over several lines (`read`) is this object's own, reset at each flow, so nothing is shared between
 * reads. Made once per document, not per value; its methods keep their loops over local `text`.
 */
export class FlowReader {
  /** While `read` reads: the owner's column (lines after the first must be indented past it); -1: one line only. */
  private flowIndent = -1;
  /** While `read` reads: the first line break at or after the place being read (found once per line). */
  private nextBreak = -1;
  /** How many flow collections are open where the reader is. */
  private flowDepth = 0;

  constructor(private readonly text: string, private readonly sink: FlowSink) {}

  /**
   * A flow node at `at` that may go on over the following lines, each indented past `indent` (the
   * column of the key or `-` that owns it; a closing bracket may stand at that column).
   */
  read(at: number, indent: number): FlowResult {
    this.flowIndent = indent;
    this.nextBreak = -1;
    this.flowDepth = 0;
    try {
      return this.node(at, this.text.length);
    } finally {
      this.flowIndent = -1;
    }
  }

  /** Where the line of `i` ends, within `end` (a quoted scalar stays on its line). */
  private lineEndOf(i: number, end: number): number {
    if (this.flowIndent < 0) return end;
    if (this.nextBreak < i) {
      this.nextBreak = this.text.indexOf('\n', i);
      if (this.nextBreak < 0) this.nextBreak = this.text.length;
    }
    return Math.min(this.nextBreak, end);
  }

  /** Spaces from `i`, and in a flow over several lines the line breaks and indentation too (each line indented as `read` says). */
  private skipFlow(i: number, end: number): number {
    const text = this.text;
    i = skipSpaces(text, i, end);
    while (this.flowIndent >= 0 && i < end && text.charCodeAt(i) === 10) {
      const start = i + 1;
      i = skipSpaces(text, start, end);
      if (i >= end || text.charCodeAt(i) === 10) continue;
      const indent = i - start;
      const c = text.charCodeAt(i);
      // At the owner's column, only the bracket that closes the whole flow.
      if (indent < this.flowIndent || (indent === this.flowIndent && !(this.flowDepth === 1 && (c === 93 || c === 125)))) bail();
    }
    return i;
  }

  /** A flow node (collection or scalar) starting at `i`. */
  private node(i: number, end: number): FlowResult {
    const text = this.text;
    if (this.sink.path.length > this.sink.maxDepth) bail();
    const ch = text[i];
    if (ch === '[') return this.seq(i, end);
    if (ch === '{') return this.map(i, end);
    if (ch === '"' || ch === "'") {
      const lineEnd = this.lineEndOf(i, end);
      const value = ch === '"' ? readDoubleQuoted(text, i, lineEnd) : readSingleQuoted(text, i, lineEnd);
      return { value, span: { start: i, end: quoted.end, style: ch === '"' ? 'double' : 'single' }, next: quoted.end };
    }
    return this.plain(i, end);
  }

  private plain(i: number, end: number): FlowResult {
    const text = this.text;
    let j = i;
    for (; j < end; j++) {
      if (text.charCodeAt(j) === 10) break; // a plain scalar stays on its line
      if (!flowStop.has(text[j])) continue;
      // A `:` that a character of the scalar follows is part of it (`2001:db8::1`, an IPv6 address in a burst's `vary` list).
      if (text[j] !== ':' || j + 1 >= end || ' \n,[]{}'.includes(text[j + 1]!)) break;
    }
    let k = j;
    while (k > i && text.charCodeAt(k - 1) === 32) k--;
    const source = text.slice(i, k);
    if (source === '' || '&*!|>%@`?-'.includes(source[0])) bail();
    return { value: resolvePlain(source), span: { start: i, end: k, style: 'plain' }, next: j };
  }

  private seq(open: number, end: number): FlowResult {
    const text = this.text;
    const sink = this.sink;
    const arr: unknown[] = [];
    const info = new SeqInfo();
    this.flowDepth++;
    let i = this.skipFlow(open + 1, end);
    if (text[i] !== ']') {
      for (;;) {
        sink.path.push(arr.length);
        const item = this.node(i, end);
        sink.path.pop();
        arr.push(item.value);
        info.add(item.span.start, item.span.end, styleCode(item.span.style));
        i = this.skipFlow(item.next, end);
        if (text[i] === ']') break;
        if (text[i] !== ',') bail();
        i = this.skipFlow(i + 1, end);
        if (text[i] === ']') bail(); // trailing comma
      }
    }
    this.flowDepth--;
    sink.containers.set(arr, info);
    return { value: arr, span: { start: open, end: i + 1 }, next: i + 1 };
  }

  private map(open: number, end: number): FlowResult {
    const text = this.text;
    const sink = this.sink;
    const obj: Record<string, unknown> = {};
    const info = new MapInfo(sink.store);
    this.flowDepth++;
    let i = this.skipFlow(open + 1, end);
    if (text[i] !== '}') {
      for (;;) {
        const key = this.node(i, end);
        if (typeof key.value === 'object' && key.value !== null) bail();
        const name = key.span.style === 'plain' ? text.slice(key.span.start, key.span.end) : String(key.value);
        // After a quoted (JSON-like) key the value may follow the colon at once (`{"a":1}`, JSON pasted
        // into YAML); after a plain key, `a:1` is one scalar, left to the `yaml` package.
        if (text[key.next] !== ':' || (text[key.next + 1] !== ' ' && key.span.style === 'plain')) bail();
        const problems = sink.problemCount();
        sink.path.push(name);
        const value = this.node(skipSpaces(text, key.next + 1, end), end);
        sink.path.pop();
        if (Object.hasOwn(obj, name)) {
          sink.dropProblemsAfter(problems); // a repeated key's value is dropped unread, problems included
          sink.duplicate(name, key.span.start, key.span.end, info.keyStart(info.find(name)));
        } else {
          const child = typeof value.value === 'object' && value.value !== null ? sink.containers.get(value.value) : undefined;
          info.add(name, key.span.start, key.span.end, styleCode(key.span.style), value.span.start, value.span.end, styleCode(value.span.style), child);
          setEntry(obj, name, value.value);
        }
        i = this.skipFlow(value.next, end);
        if (text[i] === '}') break;
        if (text[i] !== ',') bail();
        i = this.skipFlow(i + 1, end);
        if (text[i] === '}') bail();
      }
    }
    this.flowDepth--;
    sink.containers.set(obj, info);
    return { value: obj, span: { start: open, end: i + 1 }, next: i + 1 };
  }
}
