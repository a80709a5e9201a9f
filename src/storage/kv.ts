/**
 * The key-value table of one session: `_zw_kv(key TEXT PRIMARY KEY, value BLOB) WITHOUT ROWID`,
 * created lazily by the first write (as the reference's `_cf_KV`, so a fresh object's SQL database
 * is one page). TEXT keys under BINARY collation sort by UTF-8 bytes, the order the seed demands.
 * Values are V8-serialized blobs; a byte-bounded LRU cache of them sits in front of the table.
 * Callers validate arguments and limits first; everything here runs inside the session's
 * implicit transaction.
 */
import type Database from 'better-sqlite3';
import { ValueCache } from './cache.js';
import type { CompiledListOptions } from './list-options.js';
import { deserialize } from './serialize.js';
import type { StorageSession } from './session.js';

/** Name of the hidden key-value table. */
export const KV_TABLE = '_zw_kv';

/** Rows removed per commit by the `kv` backend's chunked `deleteAll()`. */
const DELETE_ALL_CHUNK = 1024;

interface KvStatements {
  get: Database.Statement;
  put: Database.Statement;
  delete: Database.Statement;
  list: Map<string, Database.Statement>;
}

/** Key-value operations over the hidden table, with the value cache. */
export class KvStore {
  readonly #session: StorageSession;
  readonly #db: Database.Database;
  readonly #cache = new ValueCache();
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
    if (cached !== undefined) return cached === null ? undefined : deserialize(cached, key);
    const blob = this.#tableExists() ? (this.#statements().get.get(key) as Buffer | undefined) : undefined;
    if (!noCache) this.#cache.store(key, blob ?? null);
    return blob === undefined ? undefined : deserialize(blob, key);
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

  /** The pairs in the compiled range, at most `limit` of them: memory holds one page only. */
  list(range: CompiledListOptions): Map<string, unknown> {
    const result = new Map<string, unknown>();
    if (range.empty || !this.#tableExists()) return result;
    const stmt = this.#listStatement(range.end !== null, range.reverse);
    const args = range.end === null ? [range.start, range.limit] : [range.start, range.end, range.limit];
    for (const [key, blob] of stmt.all(...args) as Array<[string, Buffer]>) {
      result.set(key, deserialize(blob, key));
    }
    return result;
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

  #listStatement(hasEnd: boolean, reverse: boolean): Database.Statement {
    const id = `${hasEnd}:${reverse}`;
    const cache = this.#statements().list;
    let stmt = cache.get(id);
    if (!stmt) {
      // Bounds are bound as BLOBs and cast to TEXT: a cast keeps the bytes, so a bound that is not
      // valid UTF-8 (startAfter + NUL, a prefix's successor) still compares bytewise.
      const where = hasEnd ? 'key >= CAST(? AS TEXT) AND key < CAST(? AS TEXT)' : 'key >= CAST(? AS TEXT)';
      stmt = this.#db
        .prepare(`SELECT key, value FROM ${KV_TABLE} WHERE ${where} ORDER BY key ${reverse ? 'DESC' : 'ASC'} LIMIT ?`)
        .raw(true);
      cache.set(id, stmt);
    }
    return stmt;
  }
}
