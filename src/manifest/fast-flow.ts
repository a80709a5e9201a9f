/**
 * Single-line flow collections for the fast YAML reader: `[a, "b", {c: d}]` and `{ id: x, action: log }`,
 * as manifests write override lists and small maps, and JSON (`{"a":[1,2]}`). Multi-line flows, empty entries, trailing commas,
 * comments inside, and plain scalars with `#` or a `:` that ends them are left to the `yaml` package (`Bail`).
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

/** A flow node (collection or scalar) starting at `i`. */
export function readFlowNode(text: string, i: number, end: number, sink: FlowSink): FlowResult {
  if (sink.path.length > sink.maxDepth) bail();
  const ch = text[i];
  if (ch === '[') return readFlowSeq(text, i, end, sink);
  if (ch === '{') return readFlowMap(text, i, end, sink);
  if (ch === '"' || ch === "'") {
    const value = ch === '"' ? readDoubleQuoted(text, i, end) : readSingleQuoted(text, i, end);
    return { value, span: { start: i, end: quoted.end, style: ch === '"' ? 'double' : 'single' }, next: quoted.end };
  }
  return readFlowPlain(text, i, end);
}

function readFlowPlain(text: string, i: number, end: number): FlowResult {
  let j = i;
  for (; j < end; j++) {
    if (!flowStop.has(text[j])) continue;
    // A `:` that a character of the scalar follows is part of it (`2001:db8::1`, an IPv6 address in a burst's `vary` list).
    if (text[j] !== ':' || j + 1 >= end || ' ,[]{}'.includes(text[j + 1]!)) break;
  }
  let k = j;
  while (k > i && text.charCodeAt(k - 1) === 32) k--;
  const source = text.slice(i, k);
  if (source === '' || '&*!|>%@`?-'.includes(source[0])) bail();
  return { value: resolvePlain(source), span: { start: i, end: k, style: 'plain' }, next: j };
}

function readFlowSeq(text: string, open: number, end: number, sink: FlowSink): FlowResult {
  const arr: unknown[] = [];
  const info = new SeqInfo();
  let i = skipSpaces(text, open + 1, end);
  if (text[i] !== ']') {
    for (;;) {
      sink.path.push(arr.length);
      const item = readFlowNode(text, i, end, sink);
      sink.path.pop();
      arr.push(item.value);
      info.add(item.span.start, item.span.end, styleCode(item.span.style));
      i = skipSpaces(text, item.next, end);
      if (text[i] === ']') break;
      if (text[i] !== ',') bail();
      i = skipSpaces(text, i + 1, end);
      if (text[i] === ']') bail(); // trailing comma
    }
  }
  sink.containers.set(arr, info);
  return { value: arr, span: { start: open, end: i + 1 }, next: i + 1 };
}

function readFlowMap(text: string, open: number, end: number, sink: FlowSink): FlowResult {
  const obj: Record<string, unknown> = {};
  const info = new MapInfo(sink.store);
  let i = skipSpaces(text, open + 1, end);
  if (text[i] !== '}') {
    for (;;) {
      const key = readFlowNode(text, i, end, sink);
      if (typeof key.value === 'object' && key.value !== null) bail();
      const name = key.span.style === 'plain' ? text.slice(key.span.start, key.span.end) : String(key.value);
      // After a quoted (JSON-like) key the value may follow the colon at once (`{"a":1}`, JSON pasted
      // into YAML); after a plain key, `a:1` is one scalar, left to the `yaml` package.
      if (text[key.next] !== ':' || (text[key.next + 1] !== ' ' && key.span.style === 'plain')) bail();
      const problems = sink.problemCount();
      sink.path.push(name);
      const value = readFlowNode(text, skipSpaces(text, key.next + 1, end), end, sink);
      sink.path.pop();
      if (Object.hasOwn(obj, name)) {
        sink.dropProblemsAfter(problems); // a repeated key's value is dropped unread, problems included
        sink.duplicate(name, key.span.start, key.span.end, info.keyStart(info.find(name)));
      } else {
        const child = typeof value.value === 'object' && value.value !== null ? sink.containers.get(value.value) : undefined;
        info.add(name, key.span.start, key.span.end, styleCode(key.span.style), value.span.start, value.span.end, styleCode(value.span.style), child);
        setEntry(obj, name, value.value);
      }
      i = skipSpaces(text, value.next, end);
      if (text[i] === '}') break;
      if (text[i] !== ',') bail();
      i = skipSpaces(text, i + 1, end);
      if (text[i] === '}') bail();
    }
  }
  sink.containers.set(obj, info);
  return { value: obj, span: { start: open, end: i + 1 }, next: i + 1 };
}
