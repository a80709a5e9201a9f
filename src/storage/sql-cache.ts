/**
 * The statement caches of `ctx.storage.sql` that every session of the process shares (`sql.ts`
 * owns the per-session ones): split and authorized query strings by text, and statements' counting
 * facts by schema, then by text, each bounded like the reference's 1 MiB statement cache by an LRU
 * on the total length of its SQL texts.
 */
import type { ParsedStatement } from './sql-parse.js';
import type { StatementPlan } from './sql-plan.js';

/** Total SQL text the statement caches may hold, in UTF-16 units (reference: 1 MiB). */
const CACHE_MAX_CHARS = 1024 * 1024;

/** A small LRU map bounded by the total length of its string keys. */
export class TextLru<V> {
  readonly #map = new Map<string, V>();
  #chars = 0;

  get(key: string): V | undefined {
    const value = this.#map.get(key);
    if (value !== undefined) {
      this.#map.delete(key);
      this.#map.set(key, value);
    }
    return value;
  }

  clear(): void {
    this.#map.clear();
    this.#chars = 0;
  }

  set(key: string, value: V): void {
    if (this.#map.has(key)) return;
    this.#map.set(key, value);
    this.#chars += key.length;
    for (const old of this.#map.keys()) {
      if (this.#chars <= CACHE_MAX_CHARS) break;
      this.#map.delete(old);
      this.#chars -= old.length;
    }
  }
}

/**
 * Split and authorized query strings, shared by every session of the process: `parseQuery` is a
 * pure function of the text, and each object of a namespace runs the same schema and queries, so a
 * run over many objects parses each text once, not once per object.
 */
export const parsedQueries = new TextLru<ParsedStatement[]>();

/** Schemas whose statements' counting facts are kept (`plansBySchema`); all are dropped beyond. */
export const SCHEMA_ENTRIES = 32;

/**
 * Counting facts (`sql-plan.ts`) by schema, then by SQL text, shared by every session of the
 * process: the facts are those of the compiled program, which the SQL and the schema decide, and
 * each object of a namespace usually has the same schema, so a run over many objects reads each
 * statement's program (`EXPLAIN`, a second compile) once, not once per object. The key is the
 * whole of `sqlite_schema` as text, root pages included.
 */
export const plansBySchema = new Map<string, TextLru<StatementPlan>>();

/** The whole of `sqlite_schema` as one text: its rows' columns joined by U+0001, the rows by U+0000 (a NULL as ''). */
export const SCHEMA_KEY = "SELECT group_concat(type || char(1) || name || char(1) || tbl_name || char(1) || rootpage || char(1) || ifnull(sql, ''), char(0)) FROM sqlite_schema";
