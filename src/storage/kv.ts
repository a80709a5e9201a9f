/**
 * The key-value table of one session: `_zw_kv(key TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID`,
 * created lazily by the first write (as the reference's `_cf_KV`, so a fresh object's SQL database
 * is one page). TEXT keys under BINARY collation sort by UTF-8 bytes, the order the seed demands.
 * Values are V8-serialized blobs; a byte-bounded LRU cache of them sits in front of the table.
 * Callers validate arguments and limits first; everything here runs inside the session's
 * implicit transaction.
 *
 * `list()` reads a range in chunks, each chunk as ONE aggregate row (the keys' bytes joined by
 * 0xFF, the values' bytes concatenated), and decodes the values with `wire-decoder.ts` one after
 * the other, each value's bytes saying where it ends; only a chunk with a value the decoder does
 * not read also reads the values' lengths (one more aggregate of the same rows). The first chunk has 256 rows; later ones as many as fit in about 4 MiB at the
 * previous chunk's row size, 256 to 16,384 (a 10,000-record list of small values: 2 chunks, not
 * 40). A chunk never holds more rows than the result still needs, so its buffer is at most the
 * bytes of values the result keeps anyway. Row by row, better-sqlite3 allocates a Buffer per value and
 * `v8.Deserializer` an object per value, which made a 10,000-key list 2.4-3.4x slower than
 * workerd's; one buffer per chunk and the in-JS decoder bring it under workerd's time (see
 * `npm run bench -- storage`). `group_concat` promises no order, so every chunk's keys are checked
 * to ascend (or descend); a chunk that does not, or that SQLite refuses as too big, is read row by
 * row instead.
 */
import type Database from 'better-sqlite3';
import { ValueCache } from './cache.js';
import type { CompiledListOptions } from './list-options.js';
import { deserialize } from './serialize.js';
import type { StorageSession } from './session.js';
import { parseSizes, splitKeys } from './list-chunk.js';
import { UNSUPPORTED, WireDecoder } from './wire-decoder.js';

/** Name of the hidden key-value table. */
export const KV_TABLE = '_zw_kv';

/** Rows removed per commit by the `kv` backend's chunked `deleteAll()`. */
const DELETE_ALL_CHUNK = 1024;

/** Rows of a `list()`'s first chunk: bounds what one chunk holds in memory (values are at most 128 KiB). */
const LIST_CHUNK = 256;
/** Later chunks take as many rows as fit in about this many bytes, at the last chunk's row size... */
const LIST_CHUNK_BYTES = 4 * 1024 * 1024;
/** ...up to this many rows. */
const LIST_CHUNK_MAX = 16_384;

const NUL = Buffer.of(0);

interface KvStatements {
  get: Database.Statement;
  put: Database.Statement;
  delete: Database.Statement;
  list: Map<string, Database.Statement>;
}

/** One chunk of a range: how many rows it had and the last key's bytes. */
interface Chunk {
  count: number;
  /** Bytes of its keys and values. */
  bytes: number;
  last: Buffer | null;
}

/** Key-value operations over the hidden table, with the value cache. */
export class KvStore {
  readonly #session: StorageSession;
  readonly #db: Database.Database;
  readonly #cache = new ValueCache();
  readonly #decoder = new WireDecoder();
  #exists: boolean | undefined;
  #stmts: KvStatements | null = null;

  constructor(session: StorageSession) {
    this.#session = session;
    this.#db = session.db;
    session.onRollback(() => {
      this.#cache.clear();
      this.#exists = undefined;
    });
  }

  /** The value bytes of `key`, or undefined. */
  get(key: string, noCache: boolean): unknown {
    const cached = this.#cache.lookup(key, !noCache);
    if (cached !== undefined) return cached === null ? undefined : this.#decode(cached, key);
    const blob = this.#tableExists() ? (this.#statements().get.get(key) as Buffer | undefined) : undefined;
    if (!noCache) this.#cache.store(key, blob ?? null);
    return blob === undefined ? undefined : this.#decode(blob, key);
  }

  /** A stored value: through the fast decoder, or `v8.Deserializer` for what it does not read. */
  #decode(blob: Buffer, key: string): unknown {
    const value = this.#decoder.decode(blob, 0, blob.length);
    return value === UNSUPPORTED ? deserialize(blob, key) : value;
  }

  /** Values of the keys that exist, in ascending UTF-8 key order. */
  getMany(keys: readonly string[], noCache: boolean): Map<string, unknown> {
    const found: Array<[Buffer, string, unknown]> = [];
    for (const key of new Set(keys)) {
      const value = this.get(key, noCache);
      if (value !== undefined) found.push([Buffer.from(key), key, value]);
    }
    found.sort((a, b) => Buffer.compare(a[0], b[0]));
    return new Map(found.map(([, key, value]) => [key, value]));
  }

  /** Writes one serialized value. */
  put(key: string, blob: Buffer, confirmed: boolean, noCache: boolean): void {
    this.#session.write(confirmed);
    this.#ensureTable();
    this.#statements().put.run(key, blob);
    if (noCache) this.#cache.drop(key);
    else this.#cache.store(key, blob);
  }

  /** Deletes one key; true when it existed. */
  delete(key: string, confirmed: boolean, noCache: boolean): boolean {
    this.#session.write(confirmed);
    if (this.#cache.lookup(key, false) === null || !this.#tableExists()) return false;
    const existed = this.#statements().delete.run(key).changes > 0;
    if (noCache) this.#cache.drop(key);
    else this.#cache.store(key, null);
    return existed;
  }

  /** The pairs in the compiled range, at most `limit` of them, read chunk by chunk. */
  list(range: CompiledListOptions): Map<string, unknown> {
    const result = new Map<string, unknown>();
    if (range.empty || !this.#tableExists()) return result;
    let { start, end } = range;
    let remaining = range.limit;
    let rows = LIST_CHUNK;
    for (;;) {
      const want = remaining < 0 ? rows : Math.min(remaining, rows);
      const chunk = this.#listChunk(start, end, range.reverse, want, result);
      if (chunk.count < want || chunk.last === null) return result;
      rows = Math.max(LIST_CHUNK, Math.min(LIST_CHUNK_MAX, Math.floor((LIST_CHUNK_BYTES * chunk.count) / Math.max(1, chunk.bytes))));
      if (remaining > 0 && (remaining -= chunk.count) === 0) return result;
      // The next chunk continues after the last key: an exclusive end backwards, key + NUL forwards.
      if (range.reverse) end = chunk.last;
      else start = Buffer.concat([chunk.last, NUL]);
    }
  }

  /** Adds up to `want` pairs of [start, end) to `into`, from one aggregate row. */
  #listChunk(start: Buffer, end: Buffer | null, reverse: boolean, want: number, into: Map<string, unknown>): Chunk {
    const args = end === null ? [start, want] : [start, end, want];
    const hasEnd = end !== null;
    let row: [Buffer | null, Buffer | null];
    try {
      row = this.#listStatement(hasEnd, reverse, 'chunk').get(...args) as typeof row;
    } catch (err) {
      if ((err as { code?: unknown }).code !== 'SQLITE_TOOBIG') throw err;
      return this.#listRows(args, hasEnd, reverse, into);
    }
    const [keys, values] = row;
    if (keys === null || values === null) return { count: 0, bytes: 0, last: null };
    const split = splitKeys(keys, -1, reverse);
    const sizes = (): string | null => (this.#listStatement(hasEnd, reverse, 'sizes').get(...args) as [string | null])[0];
    if (split === null || !this.#decodeValues(split.keys, values, into, sizes)) return this.#listRows(args, hasEnd, reverse, into);
    return { count: split.keys.length, bytes: keys.length + values.length, last: keys.subarray(split.lastAt, split.lastEnd) };
  }

  /**
   * Decodes a chunk's values into `into`, one after the other: a value's bytes say where it ends.
   * At the first value the fast decoder does not read, the values' sizes are read (one more query
   * of the same rows) and the rest is decoded by size. False when the values do not add up to the
   * keys (the caller then reads the chunk row by row, setting the same keys again).
   */
  #decodeValues(keys: string[], values: Buffer, into: Map<string, unknown>, sizes: () => string | null): boolean {
    const decoder = this.#decoder;
    let at = 0;
    for (let i = 0; i < keys.length; i++) {
      const value = at < values.length ? decoder.decodeNext(values, at, values.length) : UNSUPPORTED;
      if (value === UNSUPPORTED) return this.#decodeSized(keys, i, at, values, into, sizes());
      into.set(keys[i] as string, value);
      at = decoder.next;
    }
    return at === values.length;
  }

  /** `#decodeValues` from key `from` (its value at byte `at`) on, by the values' sizes. */
  #decodeSized(keys: string[], from: number, at: number, values: Buffer, into: Map<string, unknown>, lengths: string | null): boolean {
    if (lengths === null) return false;
    const sizes = parseSizes(lengths);
    if (sizes.length !== keys.length) return false;
    let offset = 0;
    for (let i = 0; i < from; i++) offset += sizes[i] as number;
    if (offset !== at) return false;
    for (let i = from; i < keys.length; i++) {
      const valueEnd = at + (sizes[i] as number);
      if (valueEnd > values.length) return false;
      const key = keys[i] as string;
      let value = this.#decoder.decode(values, at, valueEnd);
      if (value === UNSUPPORTED) value = deserialize(values.subarray(at, valueEnd), key);
      into.set(key, value);
      at = valueEnd;
    }
    return at === values.length;
  }

  /** The row-by-row reading of one chunk (the fallback of `#listChunk`). */
  #listRows(args: unknown[], hasEnd: boolean, reverse: boolean, into: Map<string, unknown>): Chunk {
    let last: string | null = null;
    let bytes = 0;
    const rows = this.#listStatement(hasEnd, reverse, 'rows').all(...args) as Array<[string, Buffer]>;
    for (const [key, blob] of rows) {
      into.set(key, deserialize(blob, key));
      last = key;
      bytes += key.length + blob.length;
    }
    return { count: rows.length, bytes, last: last === null ? null : Buffer.from(last) };
  }

  /**
   * Deletes every pair in the current transaction (SQLite backend: atomic with the rest). The table
   * itself is dropped, as the reference resets the whole database: it is created again by the next
   * write, so `sql.databaseSize` after `deleteAll()` is that of a fresh object.
   */
  clear(): void {
    this.#cache.clear();
    if (this.#tableExists()) {
      // Rows first, through the same path as any delete, then the emptied table.
      this.#db.prepare(`DELETE FROM ${KV_TABLE}`).run();
      this.#db.prepare(`DROP TABLE ${KV_TABLE}`).run();
    }
    // Unknown rather than false: if the enclosing savepoint rolls back, the table is back.
    this.#exists = undefined;
    this.#stmts = null;
  }

  /**
   * Deletes every pair in chunks, each its own commit: the `kv` backend's `deleteAll()`, which the
   * seed allows to be partial when it fails partway.
   */
  clearInChunks(confirmed: boolean): void {
    this.#cache.clear();
    if (!this.#tableExists()) return;
    const chunk = this.#db.prepare(
      `DELETE FROM ${KV_TABLE} WHERE key IN (SELECT key FROM ${KV_TABLE} ORDER BY key LIMIT ${DELETE_ALL_CHUNK})`,
    );
    for (;;) {
      this.#session.write(confirmed);
      const removed = chunk.run().changes;
      this.#session.commitNow();
      this.#session.requireUsable();
      if (removed < DELETE_ALL_CHUNK) break;
    }
  }

  /** Forgets cached values (after SQL-level changes such as a schema reset). */
  invalidate(): void {
    this.#cache.clear();
    this.#exists = undefined;
  }

  #tableExists(): boolean {
    if (this.#exists === undefined) {
      this.#exists =
        this.#db.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '${KV_TABLE}'`).get() !==
        undefined;
    }
    return this.#exists;
  }

  #ensureTable(): void {
    if (this.#tableExists()) return;
    this.#db.prepare(`CREATE TABLE IF NOT EXISTS ${KV_TABLE} (key TEXT PRIMARY KEY, value BLOB NOT NULL) WITHOUT ROWID`).run();
    this.#exists = true;
  }

  #statements(): KvStatements {
    return (this.#stmts ??= {
      get: this.#db.prepare(`SELECT value FROM ${KV_TABLE} WHERE key = ?`).pluck(),
      put: this.#db.prepare(`INSERT OR REPLACE INTO ${KV_TABLE} (key, value) VALUES (?, ?)`),
      delete: this.#db.prepare(`DELETE FROM ${KV_TABLE} WHERE key = ?`),
      list: new Map(),
    });
  }

  #listStatement(hasEnd: boolean, reverse: boolean, kind: 'rows' | 'chunk' | 'sizes'): Database.Statement {
    const id = `${hasEnd}:${reverse}:${kind}`;
    const cache = this.#statements().list;
    let stmt = cache.get(id);
    if (!stmt) {
      // Bounds are bound as BLOBs and cast to TEXT: a cast keeps the bytes, so a bound that is not
      // valid UTF-8 (startAfter + NUL, a prefix's successor) still compares bytewise.
      const where = hasEnd ? 'key >= CAST(? AS TEXT) AND key < CAST(? AS TEXT)' : 'key >= CAST(? AS TEXT)';
      const rows = `SELECT key, value FROM ${KV_TABLE} WHERE ${where} ORDER BY key ${reverse ? 'DESC' : 'ASC'} LIMIT ?`;
      // group_concat keeps a BLOB's bytes as they are (it reads them as UTF-8 text, no conversion).
      // Keys are valid UTF-8 (bound from JS strings), which never holds 0xFF: it separates them.
      const sql =
        kind === 'rows' ? rows
        : kind === 'sizes' ? `SELECT group_concat(length(value)) FROM (${rows})`
        : "SELECT CAST(group_concat(CAST(key AS BLOB), x'ff') AS BLOB), CAST(group_concat(value, x'') AS BLOB) " + `FROM (${rows})`;
      stmt = this.#db.prepare(sql).raw(true);
      cache.set(id, stmt);
    }
    return stmt;
  }

}
