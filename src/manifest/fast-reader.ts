/**
 * A fast reader for the YAML that manifests are made of: block maps and lists (including lists at
 * their key's indentation and `- key: value` items), single-line plain and quoted scalars, `|`/`>`
 * block scalars (`fast-block-scalar.ts`), flow collections (on one line, or over lines indented past their owner: `fast-flow.ts`), comments and a leading `---`. It is about ten times
 * faster than the general parser, which matters for large manifests (1,000 filters + 1,000 rules).
 * On anything else (anchors, tags, tabs, multi-line quoted scalars, syntax errors...) it
 * gives up and `read.ts` uses the `yaml` package, which also produces every YAML error message; a
 * differential test holds the two readers to the same data and positions.
 */
import { FlowReader, type FlowSink } from './fast-flow.js';
import { bail, expectLineEnd, quoted, readDoubleQuoted, readSingleQuoted, resolvePlain, skipSpaces, Bail } from './fast-scalars.js';
import { cachedKey, hashStep, hashText } from './key-cache.js';
import { ManifestLimits } from './limits.js';
import { MapInfo, PositionStore, ScanLimit, SeqInfo, StyleCode } from './positions.js';
import { BlockScalarLines } from './fast-block-scalar.js';
import { isKeyChar, isKeyStart } from './key-chars.js';
import { anyList, setEntry, ShortestSlice, type LineIndex, type ParsedDocument } from './source.js';

const badPlainStart = '&*!|>\'"%@`{[]},#?:-';
const { plain: Plain, single: Single, double: Double } = StyleCode;

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

/**
 * The reader. Lines live in three typed arrays (start, first non-space, end: `LineTable`, which
 * it extends through the block scalars, `BlockScalarLines`, so they stay fields of the reader), and each method that reads a node returns its value and leaves its span in `nStart`/`nEnd`/`nStyle` for the caller to
 * take at once; `key` leaves its result in the `k*` fields. So reading allocates the data and its
 * positions (`positions.ts`) and next to nothing per line, key or value besides.
 */
class FastReader extends BlockScalarLines implements FlowSink {
  readonly containers = new Map<object, MapInfo | SeqInfo>();
  readonly store: PositionStore;
  readonly maxDepth = ManifestLimits.maxDepth;
  /** The document path of the node being read (map keys and list indexes), pushed and popped. */
  readonly path = anyList<string | number>();
  private readonly out: ParsedDocument;
  private nStart = 0;
  private nEnd = 0;
  private nStyle = 0;
  private kName = '';
  private kStart = 0;
  private kEnd = 0;
  private kStyle = 0;
  private kAfter = 0;
  /** The positions of the map or list the last `map` or `seq` read (the value just read, when it is one). */
  private child: MapInfo | SeqInfo | undefined = undefined;
  private readonly keyNames = anyList<string | undefined>(64);
  /** The flow collections of this read (one reader per document). */
  private readonly flow = new FlowReader(this.text, this);

  constructor(text: string, private readonly lines: LineIndex) {
    super(text, lines);
    this.out = { text, data: undefined, root: { start: 0, end: 0 }, containers: this.containers, problems: [], fatal: false };
    this.store = new PositionStore(this.count);
  }

  read(): ParsedDocument {
    const t = this.text;
    let first = this.significant();
    if (first >= 0 && t.startsWith('---', this.contents[first])) {
      if (this.contents[first] !== this.starts[first]) bail();
      expectLineEnd(t, this.contents[first] + 3, this.ends[first]);
      this.li++;
      first = this.significant();
      if (first < 0) bail(); // an empty document after `---`: rare, leave it to `yaml`
    }
    if (first < 0) return this.out; // no document
    if (t.startsWith('...', this.contents[first]) || t[this.contents[first]] === '%') bail();
    const root = this.blockNode(first);
    if (this.significant() >= 0) bail();
    this.out.data = root;
    this.out.root = { start: this.nStart, end: this.nEnd };
    return this.out;
  }

  duplicate(key: string, keyStart: number, keyEnd: number, firstStart: number): void {
    const line = this.lines.position(firstStart).line;
    this.out.problems.push({
      offset: keyStart, length: Math.max(1, keyEnd - keyStart),
      message: `duplicate key "${key}": already defined at line ${line}; remove or rename one`, path: [...this.path, key],
    });
  }

  problemCount(): number {
    return this.out.problems.length;
  }

  dropProblemsAfter(count: number): void {
    this.out.problems.length = count;
  }

  private blockNode(line: number): unknown {
    if (this.path.length > this.maxDepth) bail();
    return this.isSeqItem(line) ? this.seq(line) : this.map(this.contents[line]);
  }

  /** A key at `at` (into the `k*` fields: name, span, the offset after the colon); false when there is none. */
  private key(at: number, end: number): boolean {
    const t = this.text;
    const c = t.charCodeAt(at);
    let stop: number;
    if (c === 34 || c === 39) {
      this.kName = c === 34 ? readDoubleQuoted(t, at, end) : readSingleQuoted(t, at, end);
      stop = quoted.end;
    } else {
      // A plain key is [A-Za-z0-9_$][A-Za-z0-9_.$/+@-]* up to its colon.
      if (!isKeyStart(c)) return false;
      let hash = hashStep(0, c);
      for (stop = at + 1; stop < end; stop++) {
        const d = t.charCodeAt(stop);
        if (!isKeyChar(d)) break;
        hash = hashStep(hash, d);
      }
      if (stop === end || t.charCodeAt(stop) !== 58) return false;
      this.kName = cachedKey(t, at, stop, hash);
    }
    if (t.charCodeAt(stop) !== 58 || (stop + 1 < end && t.charCodeAt(stop + 1) !== 32)) return false;
    this.kStart = at;
    this.kEnd = stop;
    this.kStyle = c === 34 ? Double : c === 39 ? Single : Plain;
    this.kAfter = stop + 1;
    return true;
  }

  /**
   * The text of a plain value (not empty). Values repeat thousands of times (`block`, `true`); the
   * last text seen per length and first letter is reused when it matches, so they are not copied out
   * of the text once per entry. (Keys: `cachedKey`.)
   */
  private sharedText(at: number, stop: number): string {
    const length = stop - at;
    const slot = (length * 31 + this.text.charCodeAt(at)) & 63;
    const last = this.keyNames[slot];
    // Unique keys (`f17`, `f18`) share a slot and differ at the end: that is compared first.
    if (last !== undefined && last.length === length && last.charCodeAt(length - 1) === this.text.charCodeAt(stop - 1)
      && this.text.startsWith(last, at)) return last;
    const name = this.text.slice(at, stop);
    this.keyNames[slot] = name;
    return name;
  }

  /** A block map whose first key is at offset `at` (its column is the map's indentation). */
  private map(at: number): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    const info = new MapInfo(this.store);
    const col = at - this.starts[this.li];
    let end = at;
    for (let pos = at; ;) {
      if (!this.key(pos, this.ends[this.li])) bail();
      const name = this.kName;
      const keyStart = this.kStart;
      const keyEnd = this.kEnd;
      const keyStyle = this.kStyle;
      const problems = this.out.problems.length;
      this.path.push(name);
      this.child = undefined;
      const value = this.valueAfter(this.kAfter, col);
      const child = typeof value === 'object' && value !== null ? this.child : undefined;
      this.path.pop();
      if (this.repeated(obj, info, name)) {
        // Like the `yaml` reader: a repeated key's value is dropped unread, problems included.
        this.dropProblemsAfter(problems);
        this.duplicate(name, keyStart, keyEnd, info.keyStart(info.find(name)));
      } else {
        info.add(name, keyStart, keyEnd, keyStyle, this.nStart, this.nEnd, this.nStyle, child);
        setEntry(obj, name, value);
      }
      end = this.nEnd;
      const next = this.significant();
      if (next < 0 || this.indent(next) < col) break;
      if (this.indent(next) > col || this.isSeqItem(next)) bail();
      pos = this.contents[next];
    }
    this.containers.set(obj, info);
    this.child = info;
    this.nStart = at;
    this.nEnd = end;
    this.nStyle = 0;
    return obj;
  }

  /**
   * True when `name` is a key of the map being read (`obj`, whose positions are `info`). A small map's
   * own keys are compared (most maps have one or two: nothing to compare for the first); a large
   * map's data is asked, reading first: no value is undefined, and a new key is a new string, which
   * V8 looks up in its string table at each lookup. What maps inherit (`constructor`) is asked whether own.
   */
  private repeated(obj: Record<string, unknown>, info: MapInfo, name: string): boolean {
    if (info.size <= ScanLimit) return info.size > 0 && info.find(name) >= 0;
    return obj[name] !== undefined && Object.hasOwn(obj, name);
  }

  /** A block list whose first `-` starts line `first`. */
  private seq(first: number): unknown[] {
    const t = this.text;
    const arr: unknown[] = [];
    const info = new SeqInfo();
    const col = this.indent(first);
    let end = this.contents[first];
    for (;;) {
      const lineEnd = this.ends[this.li];
      const at = skipSpaces(t, this.contents[this.li] + 1, lineEnd);
      if (at === lineEnd || t.charCodeAt(at) === 35) bail(); // empty item, or its value on later lines
      this.path.push(arr.length);
      const item = t.charCodeAt(at) === 45 || !this.key(at, lineEnd) ? this.inlineValue(at, col) : this.map(at);
      this.path.pop();
      arr.push(item);
      info.add(this.nStart, this.nEnd, this.nStyle);
      end = this.nEnd;
      const next = this.significant();
      if (next < 0 || this.indent(next) < col) break;
      if (this.indent(next) > col) bail();
      if (!this.isSeqItem(next)) break; // the next key of a map at this list's indentation
    }
    this.containers.set(arr, info);
    this.child = info;
    this.nStart = this.contents[first];
    this.nEnd = end;
    this.nStyle = 0;
    return arr;
  }

  /** The value after a key's colon: on the same line, or below it (a nested block or nothing). */
  private valueAfter(after: number, col: number): unknown {
    const lineEnd = this.ends[this.li];
    const at = skipSpaces(this.text, after, lineEnd);
    if (at < lineEnd && this.text.charCodeAt(at) !== 35) return this.inlineValue(at, col);
    this.li++;
    const next = this.significant();
    if (next >= 0 && (this.indent(next) > col || (this.indent(next) === col && this.isSeqItem(next)))) {
      return this.blockNode(next);
    }
    this.nStart = at;
    this.nEnd = at;
    this.nStyle = Plain;
    return null;
  }

  /** A value that starts on the current line at `at`; `col` is its owner's indentation. */
  private inlineValue(at: number, col: number): unknown {
    const t = this.text;
    let lineEnd = this.ends[this.li];
    const ch = t[at];
    if (ch === '|' || ch === '>') return this.blockScalar(at, col);
    let value: unknown;
    let stop: number;
    if (ch === '"' || ch === "'") {
      // A quoted scalar, as the flow reader reads one (nesting limit included), without its result objects.
      if (this.path.length > this.maxDepth) bail();
      value = ch === '"' ? readDoubleQuoted(t, at, lineEnd) : readSingleQuoted(t, at, lineEnd);
      stop = quoted.end;
      this.setNode(at, stop, ch === '"' ? Double : Single);
    } else if (ch === '[' || ch === '{') {
      // A flow may go on over the lines below, indented past `col`: the value ends on the line of its closing bracket.
      const r = this.flow.read(at, col);
      value = r.value;
      this.child = typeof value === 'object' && value !== null ? this.containers.get(value) : undefined;
      stop = r.next;
      this.setNode(r.span.start, r.span.end, 0);
      while (this.ends[this.li] < stop) this.li++;
      lineEnd = this.ends[this.li];
    } else {
      // A plain scalar may start with `:` that a character of it follows (`::1`, an IPv6 address).
      if (badPlainStart.includes(ch) && !(ch === ':' && at + 1 < lineEnd && t.charCodeAt(at + 1) !== 32)) bail();
      // The value ends at a comment (` #`) or at the end of the line; the search stays on this line.
      stop = at;
      while (stop < lineEnd && !(t.charCodeAt(stop) === 32 && t.charCodeAt(stop + 1) === 35)) stop++;
      let e = stop;
      while (t.charCodeAt(e - 1) === 32) e--;
      // Short values (refs such as `f17`) from the key cache: the strings of the keys they name, which
      // a lookup in their section (refs, the plan) finds without a search of V8's string table.
      const source = e - at < ShortestSlice ? cachedKey(t, at, e, hashText(t, at, e)) : this.sharedText(at, e);
      if (source.includes(': ') || source.endsWith(':')) bail();
      value = resolvePlain(source);
      this.setNode(at, e, Plain);
    }
    expectLineEnd(t, stop, lineEnd);
    this.li++;
    const next = this.significant();
    if (next >= 0 && this.indent(next) > col) bail(); // a continuation line: multi-line scalar
    return value;
  }

  protected setNode(start: number, end: number, style: number): void {
    this.nStart = start;
    this.nEnd = end;
    this.nStyle = style;
  }
}
