/**
 * Where the entries of maps and the items of lists were written, stored compactly: the offsets of
 * every map entry of a document in one typed array (`PositionStore`), keys beside them, a small
 * `MapInfo` view per map, and no `Span` object until someone asks for one (an issue, a location).
 * A manifest of 1,000 filters and 1,000 rules has about 4,000 entries, and almost none of their
 * positions are ever turned into a line and column; a `Map` and three objects per entry were most
 * of what reading it allocated.
 */
import { anyList, type ScalarStyle, type Span } from './source-base.js';

/** Style codes in the flat arrays; 0 is "not a scalar" (a map or list value). */
export const StyleCode = { plain: 1, single: 2, double: 3, literal: 4, folded: 5 } as const satisfies Record<ScalarStyle, number>;
const styleCodes: readonly (ScalarStyle | undefined)[] = [undefined, 'plain', 'single', 'double', 'literal', 'folded'];

/** The code of a style, for the flat arrays. */
export function styleCode(style: ScalarStyle | undefined): number {
  return style === undefined ? 0 : StyleCode[style];
}

function spanOf(start: number, end: number, code: number): Span {
  const style = styleCodes[code];
  return style === undefined ? { start, end } : { start, end, style };
}

/**
 * Maps up to this size are searched by walking their entries; larger ones get a key index, built at
 * the first search (readers find repeated keys on the data object, so most maps are never searched).
 */
export const ScanLimit = 8;
/** Numbers per record: key start, end, style; value start, end, style; the map's next record. */
const PerRecord = 7;

/**
 * The positions of one document's map entries, one record each, in one typed array that grows by
 * doubling (outside the JavaScript heap, so the garbage collector does not copy it), with the keys
 * and the positions of map and list values beside it. A map's records are chained in the order
 * written (its entries interleave with its children's). Sized from the line count: manifests write
 * about one entry per line.
 */
export class PositionStore {
  at: Int32Array;
  /** Keys by record (sized up front like `at`; `count` says how many are used). */
  readonly keys: string[];
  /**
   * By record, the positions of the entry's value when it is a map or list: normalisation walks a
   * section's entries in order and finds each entry's fields from here, not by a look-up of the value
   * in the document's `containers` (2,000 per zone of 1,000 filters and rules).
   */
  readonly children: (MapInfo | SeqInfo | undefined)[];
  private count = 0;

  constructor(expected: number) {
    const records = Math.max(16, expected);
    this.at = new Int32Array(records * PerRecord);
    this.keys = anyList<string>(records);
    this.children = anyList<MapInfo | SeqInfo | undefined>(records);
  }

  /** Appends a record (`child`: the value's positions, when it is a map or list); returns its number. */
  add(key: string, keyStart: number, keyEnd: number, keyStyle: number, valueStart: number, valueEnd: number, valueStyle: number,
    child: MapInfo | SeqInfo | undefined): number {
    const r = this.count++;
    let o = r * PerRecord;
    if (o + PerRecord > this.at.length) {
      const grown = new Int32Array(this.at.length * 2);
      grown.set(this.at);
      this.at = grown;
    }
    this.keys[r] = key;
    this.children[r] = child;
    const at = this.at;
    at[o++] = keyStart;
    at[o++] = keyEnd;
    at[o++] = keyStyle;
    at[o++] = valueStart;
    at[o++] = valueEnd;
    at[o++] = valueStyle;
    at[o] = -1;
    return r;
  }
}

/** Positions of a map's entries, in the order written, by key (the key as written); entries are record numbers. */
export class MapInfo {
  /** On the prototype, not a field: one per map (thousands per manifest) would be 8 bytes each. */
  get kind(): 'map' {
    return 'map';
  }

  /** The number of entries (a repeated key is not added: the first one counts). */
  size = 0;
  private first = -1;
  private last = -1;
  private index: Map<string, number> | undefined;

  constructor(private readonly store: PositionStore) {}

  /** Records an entry (`child`: its value's positions, when the value is a map or list); the caller has checked that `key` is new. */
  add(key: string, keyStart: number, keyEnd: number, keyStyle: number, valueStart: number, valueEnd: number, valueStyle: number,
    child: MapInfo | SeqInfo | undefined): void {
    const r = this.store.add(key, keyStart, keyEnd, keyStyle, valueStart, valueEnd, valueStyle, child);
    if (this.last < 0) this.first = r;
    else this.store.at[this.last * PerRecord + 6] = r;
    this.last = r;
    this.size++;
    this.index?.set(key, r);
  }

  /** The entry of `key`, or -1. */
  find(key: string): number {
    const { at, keys } = this.store;
    if (this.size > ScanLimit) {
      if (this.index === undefined) {
        this.index = new Map();
        for (let r = this.first; r >= 0; r = at[r * PerRecord + 6]) this.index.set(keys[r], r);
      }
      return this.index.get(key) ?? -1;
    }
    for (let r = this.first; r >= 0; r = at[r * PerRecord + 6]) if (keys[r] === key) return r;
    return -1;
  }

  /**
   * The entry of `key`, trying first the one after entry `after` (-1: the first entry): a caller
   * that walks a map's keys in the order written finds each without a search or a key index.
   */
  findAfter(key: string, after: number): number {
    const next = after < 0 ? this.first : this.store.at[after * PerRecord + 6];
    return next >= 0 && this.store.keys[next] === key ? next : this.find(key);
  }

  /** The keys in the order written (the order they were set on the data). */
  keyList(): string[] {
    const out = new Array<string>(this.size);
    const { at, keys } = this.store;
    for (let r = this.first, i = 0; r >= 0; r = at[r * PerRecord + 6]) out[i++] = keys[r];
    return out;
  }

  /** The entries in the order written. */
  entries(): number[] {
    const out: number[] = [];
    for (let r = this.first; r >= 0; r = this.store.at[r * PerRecord + 6]) out.push(r);
    return out;
  }

  /** The positions of entry `r`'s value, when it is a map or list. */
  child(r: number): MapInfo | SeqInfo | undefined {
    return this.store.children[r];
  }

  /** The key of entry `r`. */
  key(r: number): string {
    return this.store.keys[r];
  }

  /** Where entry `r`'s key starts. */
  keyStart(r: number): number {
    return this.store.at[r * PerRecord];
  }

  /** Where entry `r`'s value starts. */
  valueStart(r: number): number {
    return this.store.at[r * PerRecord + 3];
  }

  /**
   * Where an issue about entry `r` points by default: at the key when the value (`value`, the
   * entry's data) is a map or list, else at the value.
   */
  nodeStart(r: number, value: unknown): number {
    return typeof value === 'object' && value !== null ? this.keyStart(r) : this.valueStart(r);
  }

  /** The span of entry `r`'s key. */
  keySpan(r: number): Span {
    const o = r * PerRecord;
    const at = this.store.at;
    return spanOf(at[o], at[o + 1], at[o + 2]);
  }

  /** The span of entry `r`'s value. */
  valueSpan(r: number): Span {
    const o = r * PerRecord + 3;
    const at = this.store.at;
    return spanOf(at[o], at[o + 1], at[o + 2]);
  }
}

/** Positions of a list's items (lists are few and short in manifests: plain arrays do). */
export class SeqInfo {
  get kind(): 'seq' {
    return 'seq';
  }

  private readonly at: number[] = [];

  /** The number of items. */
  get size(): number {
    return this.at.length / 3;
  }

  /** Records the next item. */
  add(start: number, end: number, style: number): void {
    this.at.push(start, end, style);
  }

  /** The span of item `i` (undefined past the end). */
  itemSpan(i: number): Span | undefined {
    if (!Number.isInteger(i) || i < 0 || i >= this.size) return undefined;
    return spanOf(this.at[i * 3], this.at[i * 3 + 1], this.at[i * 3 + 2]);
  }
}
