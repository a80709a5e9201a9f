/**
 * In-memory copies of a zone object's unfiltered lists (filters, firewall rules), kept in step
 * with SQLite so that list pages after a write cost a few row reads instead of a page query each
 * (issue 17: `serve` reads right after a write). Correctness rests on one rule: every statement
 * that writes a listed table notes the row's id (`noteWrite`, called by the store functions, the
 * only writers of those tables); the next read of the view re-reads the noted rows from SQLite
 * and puts them in place. Noting too much is always safe: a rolled-back write's ids are re-read
 * and come back as they were. A restore (PITR) or an abort starts a new zone object, whose views
 * start empty; the zone object also drops them at creation and destruction (`resetListViews`).
 *
 * A page answer is kept with the entries it was built from and reused, as the same object (so the
 * server's bytes of it are reused too), while those entries and the total are unchanged: a write
 * to one rule rebuilds one page, not all of them, and that page's JSON bytes are assembled from its
 * entries' bytes (each made once, when the server first sends a page holding it), so only the
 * changed rule is serialised again; in-process reads never serialise at all.
 */
import { isSerialised, jsonBytes, pageWithBytes, serialisedBytes, type PageRequest } from './envelope.js';
import type { Sql } from './sql.js';
import type { ApiResponse } from './types.js';

/**
 * One row of a list: its API object itself (shared with answers: frozen, through and through). A
 * list keeps each row's creation order (`seq`) beside it, in an array of its own, rather than in a
 * wrapper object per row: a plan's lists hold a hundred thousand rows.
 */
export interface ListEntry {
  readonly id: string;
}

/** A list's entries in list order, and at the same index each one's creation order (`seq`). */
export interface ListRows<E extends ListEntry> {
  entries: E[];
  seqs: number[];
}

/** How a view reads its rows; each resource's store provides one. */
export interface ListSource<E extends ListEntry> {
  /** The table whose writes change the list's rows (noted with the row's id). */
  readonly table: string;
  /** Every entry, in list order. */
  all(sql: Sql): ListRows<E>;
  /** The entry of row `id` and its `seq`, or undefined when there is none. */
  one(sql: Sql, id: string): { entry: E; seq: number } | undefined;
  /** List order (the order `all` returns) of `a` (created `aSeq`-th) and `b`. */
  compare(a: E, aSeq: number, b: E, bSeq: number): number;
  /** Whether `entry` embeds the row `id` of another `table` (a rule shows its filter). */
  embeds?(entry: E, table: string, id: string): boolean;
}

/** Above this share of dirty rows a refresh reads the whole list again (one query beats many). */
const RELOAD_SHARE = 0.125;
/** Cached page answers per view (distinct page/per_page pairs), dropped all at once beyond. */
const PAGE_ENTRIES = 256;

interface CachedPage<E> {
  rows: readonly E[];
  total: number;
  /** The page it is (`rows` start at its `offset`). */
  request: PageRequest;
  response: ApiResponse;
}

/** The view, page key and storage of each page answer a view made (`currentPage`). */
const madeBy = new WeakMap<ApiResponse, { sql: Sql; view: ListView<ListEntry>; key: string }>();

/** The in-memory copy of one list. */
export class ListView<E extends ListEntry> {
  #entries: E[] | undefined;
  /** Each entry's `seq`, at its index in `#entries`. */
  #seqs: number[] = [];
  readonly #dirty = new Set<string>();
  readonly #embedded: Array<readonly [string, string]> = [];
  readonly #pages = new Map<string, CachedPage<E>>();

  constructor(readonly source: ListSource<E>) {}

  /** Notes a write to row `id` of `table` (the list's own table or one its entries embed). */
  note(table: string, id: string): void {
    if (this.#entries === undefined) return;
    if (table === this.source.table) this.#dirty.add(id);
    else if (this.source.embeds !== undefined) this.#embedded.push([table, id]);
  }

  /** Every entry in list order, up to date with SQLite. */
  entries(sql: Sql): readonly E[] {
    this.settle(sql);
    if (this.#entries === undefined) {
      const rows = this.source.all(sql);
      this.#entries = rows.entries;
      this.#seqs = rows.seqs;
      this.#dirty.clear();
      this.#embedded.length = 0;
    }
    return this.#entries;
  }

  /**
   * Applies the noted writes now; a copy that too many of them changed is dropped (the next read
   * loads it whole). Then every cached page is what `page` answers (`currentPage`): a page the
   * writes changed is dropped, or, when the server has sent it (its bytes were assembled), made
   * again now with its bytes, while the rows' bytes are at hand, as its next read would.
   */
  settle(sql: Sql): void {
    if (this.#entries === undefined || (this.#dirty.size === 0 && this.#embedded.length === 0)) return;
    this.#refresh(sql, this.#entries);
    const entries = this.#entries;
    if (entries === undefined) {
      this.#pages.clear();
      return;
    }
    for (const [key, cached] of this.#pages) {
      if (unchanged(cached, entries)) continue;
      if (isSerialised(cached.response.body)) serialisedBytes(this.#build(sql, key, cached.request, entries).body);
      else this.#pages.delete(key);
    }
  }

  /** One page of the whole list as the API answers it (`envelope.page`). */
  page(sql: Sql, request: PageRequest): ApiResponse {
    const entries = this.entries(sql);
    const key = `${request.page}/${request.perPage}`;
    const cached = this.#pages.get(key);
    if (cached !== undefined && unchanged(cached, entries)) return cached.response;
    if (this.#pages.size >= PAGE_ENTRIES) this.#pages.clear();
    return this.#build(sql, key, request, entries);
  }

  /** Makes page `key` of `entries` and caches it. */
  #build(sql: Sql, key: string, request: PageRequest, entries: readonly E[]): ApiResponse {
    // The page's rows are its answer's items too (`pageWithBytes` freezes them; nothing changes them).
    const rows = entries.slice(request.offset, request.offset + request.perPage);
    const response = pageWithBytes(rows, bytesOf, request, entries.length);
    this.#pages.set(key, { rows, total: entries.length, request, response });
    madeBy.set(response, { sql, view: this as unknown as ListView<ListEntry>, key });
    return response;
  }

  /** What `page` answers now for page `key` when it is cached and no write is pending. */
  current(key: string): ApiResponse | undefined {
    if (this.#entries === undefined || this.#dirty.size > 0 || this.#embedded.length > 0) return undefined;
    return this.#pages.get(key)?.response;
  }

  #refresh(sql: Sql, entries: E[]): void {
    const embeds = this.source.embeds;
    if (embeds !== undefined) {
      for (const [table, id] of this.#embedded) for (const e of entries) if (embeds(e, table, id)) this.#dirty.add(e.id);
      this.#embedded.length = 0;
    }
    if (this.#dirty.size > entries.length * RELOAD_SHARE) {
      this.#entries = undefined;
      this.#seqs = [];
      this.#dirty.clear();
      return;
    }
    const seqs = this.#seqs;
    for (const id of this.#dirty) {
      const at = entries.findIndex((e) => e.id === id);
      if (at >= 0) {
        entries.splice(at, 1);
        seqs.splice(at, 1);
      }
      const fresh = this.source.one(sql, id);
      if (fresh !== undefined) {
        const to = this.#position(entries, seqs, fresh.entry, fresh.seq);
        entries.splice(to, 0, fresh.entry);
        seqs.splice(to, 0, fresh.seq);
      }
    }
    this.#dirty.clear();
  }

  /** Where `entry` (created `seq`-th) goes in `entries` (binary search on list order). */
  #position(entries: readonly E[], seqs: readonly number[], entry: E, seq: number): number {
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.source.compare(entries[mid]!, seqs[mid]!, entry, seq) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Each entry's JSON bytes, made once: a page rebuilt after a write serialises only its changed rows. */
const bytes = new WeakMap<ListEntry, Uint8Array>();

function bytesOf(entry: ListEntry): Uint8Array {
  let made = bytes.get(entry);
  if (made === undefined) bytes.set(entry, (made = jsonBytes(entry)));
  return made;
}

/** Whether a cached page still shows `entries` (the same total, the same entries in its place). */
function unchanged<E>(cached: CachedPage<E>, entries: readonly E[]): boolean {
  // The same total means the same slice length: comparing the cached rows in place is exact.
  if (cached.total !== entries.length) return false;
  const rows = cached.rows;
  for (let i = 0; i < rows.length; i++) if (rows[i] !== entries[cached.request.offset + i]) return false;
  return true;
}

/** The views of each zone object's storage, by source. */
const registries = new WeakMap<Sql, Map<ListSource<ListEntry>, ListView<ListEntry>>>();

/** The view of `source` over `sql` (created empty on first use; it loads on first read). */
export function listView<E extends ListEntry>(sql: Sql, source: ListSource<E>): ListView<E> {
  let views = registries.get(sql);
  if (views === undefined) registries.set(sql, (views = new Map()));
  let view = views.get(source as ListSource<ListEntry>) as ListView<E> | undefined;
  if (view === undefined) {
    view = new ListView(source);
    views.set(source as ListSource<ListEntry>, view as unknown as ListView<ListEntry>);
  }
  return view;
}

/** Notes that a statement wrote row `id` of `table`: every view over `sql` re-reads what it shows of it. */
export function noteWrite(sql: Sql, table: string, id: string): void {
  const views = registries.get(sql);
  if (views !== undefined) for (const view of views.values()) view.note(table, id);
}

/**
 * Brings every view over `sql` up to date now: the zone object calls it at the end of each write
 * request that succeeded, so the written rows are re-read while SQLite has just touched them rather
 * than at the next read, which comes after the durable commit's fsync and finds every cache cold
 * (issue 17: a list read right after a write). The work is the same, once per written row; a write
 * that changed more than `RELOAD_SHARE` of a list drops that copy, as the next read would have.
 */
export function settleListViews(sql: Sql): void {
  const views = registries.get(sql);
  if (views !== undefined) for (const view of views.values()) view.settle(sql);
}

/**
 * When `answer` is a list page, what its view answers for that page now: `answer` itself when the
 * writes left it unchanged, the page made again when they changed it (`settle`); undefined when
 * the view would have to make it at the next read, or `answer` is no list page. The zone object
 * keeps its read memo of list pages up to date with it after each write (`settleListViews` first).
 */
export function currentPage(answer: ApiResponse): ApiResponse | undefined {
  const made = madeBy.get(answer);
  if (made === undefined || registries.get(made.sql)?.get(made.view.source) !== made.view) return undefined;
  return made.view.current(made.key);
}

/** Drops every view over `sql` (a zone object starting, created or destroyed). */
export function resetListViews(sql: Sql): void {
  registries.delete(sql);
}
