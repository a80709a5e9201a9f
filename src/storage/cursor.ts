/**
 * `SqlStorageCursor`, the result of `sql.exec()`: an iterator and iterable over row objects, with
 * `toArray`, `one`, `raw` (arrays of values over the same position), `columnNames`, `rowsRead` and
 * `rowsWritten`. As in the reference, the statement is stepped lazily with one row of look-ahead:
 * the first row is fetched at `exec()` (so writes happen there), each row taken fetches the next,
 * and `rowsRead` grows as rows are fetched. A cursor left unfinished sees rows written after it,
 * as SQLite gives them. A read-only session, whose rows nothing can change, reads them all at
 * `exec()` instead (`sql.ts`) and hands them out the same way. BLOBs come out as standalone
 * `ArrayBuffer`s and duplicate column names keep the later column in row objects.
 *
 * better-sqlite3 allows one running statement per connection; an open iterator makes every other
 * statement throw, which would block the object's writes between two steps of a cursor. The
 * connection runs in better-sqlite3's unsafe mode (`session.ts`), which lifts that rule and leaves
 * SQLite's own: the other statements run, and see and change the same data, as on the reference.
 * What SQLite itself refuses while a statement runs (checkpoint, DROP, close) is preceded by
 * parking the open cursors (`open-cursors.ts`), which also bounds how many run at once. A
 * statement busy in one cursor is never stepped by another: `sql.ts` compiles a one-off copy then.
 */
import type Database from 'better-sqlite3';
import { SqlError } from './errors.js';
import { addOpenCursor, openCursors, type Parkable } from './open-cursors.js';

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

/** What a buffered row's slot holds once the row is taken (so the row can die): one array for all, never read. */
const TAKEN: unknown[] = [];

/** @internal The statement behind a cursor and its raw view: position, look-ahead and counters. */
export class CursorSource implements Parkable {
  readonly #open: Set<Parkable>;
  readonly #onError: (err: unknown) => Error;
  #iterator: Iterator<unknown[]> | null;
  #buffer: unknown[][] = [];
  #buffered = 0;
  /** An error met while parking, thrown when the reader reaches it. */
  #deferred: Error | null = null;
  #ahead: unknown[] | undefined;
  #canceled: Error | null = null;
  rowsRead: number;
  rowsWritten: number;
  readonly #readsPerRow: number;
  /** Rows fetched so far. */
  #fetched = 0;
  /** Called once when the rows run out: `rowsRead` then (a scan's reads known only at its end). */
  #atEnd: ((rowsRead: number, fetched: number) => number) | null;

  /** The statement's column names (duplicates kept). */
  readonly columns: string[];

  /**
   * Fetches the first row now, as the reference steps the statement once at `exec()`. `read` is
   * what the statement read before any row (a `count(*)`); each fetched row adds `readsPerRow`.
   * `rows`: the statement's rows, read already (no `iterator` then), handed out as if stepped.
   * `atEnd`: gives `rowsRead` once the rows run out, from `rowsRead` and the rows fetched.
   */
  constructor(
    db: Database.Database, iterator: Iterator<unknown[]> | null, columns: string[], readsPerRow: number, read: number,
    onError: (err: unknown) => Error, rows?: unknown[][], atEnd?: ((rowsRead: number, fetched: number) => number) | null,
  ) {
    this.#open = openCursors(db);
    this.#onError = onError;
    this.#iterator = iterator;
    this.columns = columns;
    this.rowsRead = read;
    this.rowsWritten = 0;
    this.#readsPerRow = readsPerRow;
    this.#atEnd = atEnd ?? null;
    if (rows !== undefined) this.#buffer = rows;
    if (iterator) addOpenCursor(this.#open, this);
    this.#ahead = this.#fetch();
  }

  /** The next row (its values converted), or undefined once consumed. */
  take(): SqlStorageValue[] | undefined {
    if (this.#canceled) throw this.#canceled;
    const row = this.#ahead;
    if (row === undefined) return undefined;
    this.#ahead = this.#fetch();
    // Strings, numbers and nulls, nearly every value, stay as they are.
    for (let i = 0; i < row.length; i++) {
      const value = row[i];
      if (typeof value === 'object' ? value !== null : typeof value === 'bigint') row[i] = toValue(value);
    }
    return row as SqlStorageValue[];
  }

  one<T>(convert: (row: SqlStorageValue[]) => T): T {
    const row = this.take();
    if (row === undefined) throw new SqlError('Expected exactly one result from SQL query, but got no results.');
    if (this.#ahead !== undefined) {
      this.close();
      throw new SqlError('Expected exactly one result from SQL query, but got multiple results.');
    }
    return convert(row);
  }

  park(): void {
    try {
      for (let row = this.#step(); row !== undefined; row = this.#step()) this.#buffer.push(row);
    } catch (err) {
      // Parking runs for someone else (a checkpoint, a cap): the error belongs to this cursor's reader.
      this.#deferred = err as Error;
    }
  }

  cancel(err: Error): void {
    this.close();
    this.#canceled = err;
  }

  /** Ends the cursor: no more rows, the statement is reset. */
  close(): void {
    this.#ahead = undefined;
    this.#buffer = [];
    this.#buffered = 0;
    this.#deferred = null;
    if (this.#iterator) {
      this.#iterator.return?.();
      this.#iterator = null;
      this.#open.delete(this);
    }
  }

  #fetch(): unknown[] | undefined {
    let row: unknown[] | undefined;
    if (this.#buffered < this.#buffer.length) {
      row = this.#buffer[this.#buffered];
      this.#buffer[this.#buffered++] = TAKEN;
    } else if (this.#buffer.length > 0) {
      this.#buffer = [];
      this.#buffered = 0;
      return this.#fetch();
    } else if (this.#deferred) {
      const err = this.#deferred;
      this.#deferred = null;
      throw err;
    } else {
      row = this.#step();
    }
    if (row !== undefined) {
      this.rowsRead += this.#readsPerRow;
      this.#fetched++;
    } else if (this.#atEnd !== null) {
      this.rowsRead = this.#atEnd(this.rowsRead, this.#fetched);
      this.#atEnd = null;
    }
    return row;
  }

  #step(): unknown[] | undefined {
    if (!this.#iterator) return undefined;
    let result: IteratorResult<unknown[]>;
    try {
      result = this.#iterator.next();
    } catch (err) {
      this.#iterator = null;
      this.#open.delete(this);
      throw this.#onError(err);
    }
    if (!result.done) return result.value;
    this.#iterator = null;
    this.#open.delete(this);
    return undefined;
  }
}

/** `cursor.raw()`: the same rows as arrays of column values, sharing the cursor's position. */
export class SqlStorageRawCursor<T extends SqlStorageValue[] = SqlStorageValue[]> implements IterableIterator<T> {
  readonly #source: CursorSource;

  /** @internal built by `SqlStorageCursor.raw()`. */
  constructor(source: CursorSource) {
    this.#source = source;
  }

  /** The next row as an array, or `{ done: true }`. */
  next(): IteratorResult<T> {
    const row = this.#source.take();
    return row === undefined ? DONE : { done: false, value: row as T };
  }

  /** The remaining rows as arrays. */
  toArray(): T[] {
    const rows: T[] = [];
    for (let row = this.#source.take(); row !== undefined; row = this.#source.take()) rows.push(row as T);
    return rows;
  }

  /** The only remaining row; throws when there are none or several (seed 001; the reference lacks it). */
  one(): T {
    return this.#source.one((row) => row as T);
  }

  [Symbol.iterator](): this {
    return this;
  }
}

/** The result of `sql.exec()`. */
export class SqlStorageCursor<T extends Record<string, SqlStorageValue> = SqlRow> implements IterableIterator<T> {
  /** Column names, in the order of `raw()` arrays; duplicates kept. */
  readonly columnNames: string[];
  readonly #source: CursorSource;

  /** @internal built by `SqlStorage.exec()`. */
  constructor(columnNames: string[], source: CursorSource) {
    this.columnNames = columnNames;
    this.#source = source;
  }

  /** Rows read so far: grows as rows are fetched (see `sql-plan.ts` for what is counted). */
  get rowsRead(): number {
    return this.#source.rowsRead;
  }

  /** Rows written by the query: rows changed (triggers included) plus index entries. */
  get rowsWritten(): number {
    return this.#source.rowsWritten;
  }

  /** The next row object, or `{ done: true }` once consumed. */
  next(): IteratorResult<T> {
    const row = this.#source.take();
    return row === undefined ? DONE : { done: false, value: this.#object(row) };
  }

  /** The remaining rows as objects. */
  toArray(): T[] {
    const rows: T[] = [];
    for (let row = this.#source.take(); row !== undefined; row = this.#source.take()) rows.push(this.#object(row));
    return rows;
  }

  /** The only remaining row; throws when there are none or several. */
  one(): T {
    return this.#source.one((row) => this.#object(row));
  }

  /** An iterator of value arrays over the same position. */
  raw<R extends SqlStorageValue[] = SqlStorageValue[]>(): SqlStorageRawCursor<R> {
    return new SqlStorageRawCursor<R>(this.#source);
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
