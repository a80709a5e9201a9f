/**
 * `SqlStorageCursor`, the result of `sql.exec()`: an iterator and iterable over row objects, with
 * `toArray`, `one`, `raw` (arrays of values over the same position), `columnNames`, `rowsRead` and
 * `rowsWritten`. The statement has already run to completion when the cursor exists (see `sql.ts`
 * for why), so the cursor walks a buffered result. BLOBs come out as standalone `ArrayBuffer`s and
 * duplicate column names keep the later column in row objects, as the reference does.
 */
import { SqlError } from './errors.js';

/** A value SQL can return. */
export type SqlStorageValue = ArrayBuffer | string | number | null;

/** A row object: column name to value. */
export type SqlRow = Record<string, SqlStorageValue>;

function toValue(value: unknown): SqlStorageValue {
  if (Buffer.isBuffer(value)) {
    return value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength) as ArrayBuffer;
  }
  if (typeof value === 'bigint') return Number(value);
  return value as SqlStorageValue;
}

const DONE = Object.freeze({ done: true }) as IteratorReturnResult<undefined>;

/** @internal The shared position and counters of a cursor and its raw view. */
export class ResultBuffer {
  readonly rows: unknown[][];
  readonly written: number;
  position = 0;

  constructor(rows: unknown[][], written: number) {
    this.rows = rows;
    this.written = written;
  }

  take(): SqlStorageValue[] | undefined {
    const row = this.rows[this.position];
    if (row === undefined) return undefined;
    this.rows[this.position++] = [];
    for (let i = 0; i < row.length; i++) row[i] = toValue(row[i]);
    return row as SqlStorageValue[];
  }

  one<T>(convert: (row: SqlStorageValue[]) => T): T {
    const remaining = this.rows.length - this.position;
    if (remaining === 0) throw new SqlError('Expected exactly one result from SQL query, but got no results.');
    if (remaining > 1) {
      this.position = this.rows.length;
      throw new SqlError('Expected exactly one result from SQL query, but got multiple results.');
    }
    return convert(this.take() as SqlStorageValue[]);
  }
}

/** `cursor.raw()`: the same rows as arrays of column values, sharing the cursor's position. */
export class SqlStorageRawCursor<T extends SqlStorageValue[] = SqlStorageValue[]> implements IterableIterator<T> {
  readonly #result: ResultBuffer;
  /** Column names in the order of each array. */
  readonly columnNames: string[];

  /** @internal built by `SqlStorageCursor.raw()`. */
  constructor(result: ResultBuffer, columnNames: string[]) {
    this.#result = result;
    this.columnNames = columnNames;
  }

  /** The next row as an array, or `{ done: true }`. */
  next(): IteratorResult<T> {
    const row = this.#result.take();
    return row === undefined ? DONE : { done: false, value: row as T };
  }

  /** The remaining rows as arrays. */
  toArray(): T[] {
    const rows: T[] = [];
    for (let row = this.#result.take(); row !== undefined; row = this.#result.take()) rows.push(row as T);
    return rows;
  }

  /** The only remaining row; throws when there are none or several. */
  one(): T {
    return this.#result.one((row) => row as T);
  }

  [Symbol.iterator](): this {
    return this;
  }
}

/** The result of `sql.exec()`. */
export class SqlStorageCursor<T extends Record<string, SqlStorageValue> = SqlRow> implements IterableIterator<T> {
  /** Column names, in the order of `raw()` arrays; duplicates kept. */
  readonly columnNames: string[];
  readonly #result: ResultBuffer;
  readonly #rowsRead: number;

  /** @internal built by `SqlStorage.exec()`. */
  constructor(columnNames: string[], rows: unknown[][], rowsRead: number, rowsWritten: number) {
    this.columnNames = columnNames;
    this.#result = new ResultBuffer(rows, rowsWritten);
    this.#rowsRead = rowsRead;
  }

  /**
   * Rows read by the query. SQLite does not count rows scanned, so this is the number of rows the
   * query returned, or for a write the rows it wrote (the reference counts b-tree visits; do not
   * compare the two exactly).
   */
  get rowsRead(): number {
    return this.#rowsRead;
  }

  /** Rows written by the query, counting rows written by triggers (SQLite `total_changes()`). */
  get rowsWritten(): number {
    return this.#result.written;
  }

  /** The next row object, or `{ done: true }` once consumed. */
  next(): IteratorResult<T> {
    const row = this.#result.take();
    return row === undefined ? DONE : { done: false, value: this.#object(row) };
  }

  /** The remaining rows as objects. */
  toArray(): T[] {
    const rows: T[] = [];
    for (let row = this.#result.take(); row !== undefined; row = this.#result.take()) rows.push(this.#object(row));
    return rows;
  }

  /** The only remaining row; throws when there are none or several. */
  one(): T {
    return this.#result.one((row) => this.#object(row));
  }

  /** An iterator of value arrays over the same position. */
  raw<R extends SqlStorageValue[] = SqlStorageValue[]>(): SqlStorageRawCursor<R> {
    return new SqlStorageRawCursor<R>(this.#result, this.columnNames);
  }

  [Symbol.iterator](): this {
    return this;
  }

  #object(row: SqlStorageValue[]): T {
    const names = this.columnNames;
    const object: Record<string, SqlStorageValue> = {};
    for (let i = 0; i < names.length; i++) object[names[i] as string] = row[i] as SqlStorageValue;
    return object as T;
  }
}
