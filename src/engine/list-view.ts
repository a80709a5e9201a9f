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
 * to one rule rebuilds one page, not all of them, and that page's JSON text is assembled from its
 * entries' texts (each made once, when the server first sends a page holding it), so only the
 * changed rule is serialised again; in-process reads never serialise at all.
 */
import { pageWithTexts, type PageRequest } from './envelope.js';
import type { Sql } from './sql.js';
import type { ApiResponse } from './types.js';

/** One row of a list: its id and its API object (shared with answers: never mutated). */
export interface ListEntry {
  readonly id: string;
  readonly json: unknown;
}

/** How a view reads its rows; each resource's store provides one. */
export interface ListSource<E extends ListEntry> {
  /** The table whose writes change the list's rows (noted with the row's id). */
  readonly table: string;
  /** Every entry, in list order. */
  all(sql: Sql): E[];
  /** The entry of row `id`, or undefined when there is none. */
  one(sql: Sql, id: string): E | undefined;
  /** List order (the order `all` returns). */
  compare(a: E, b: E): number;
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
  response: ApiResponse;
}

/** The in-memory copy of one list. */
export class ListView<E extends ListEntry> {
  #entries: E[] | undefined;
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
    if (this.#entries === undefined) {
      this.#entries = this.source.all(sql);
      this.#dirty.clear();
      this.#embedded.length = 0;
    } else if (this.#dirty.size > 0 || this.#embedded.length > 0) {
      this.#refresh(sql, this.#entries);
    }
    return this.#entries;
  }

  /** One page of the whole list as the API answers it (`envelope.page`). */
  page(sql: Sql, request: PageRequest): ApiResponse {
    const entries = this.entries(sql);
    const key = `${request.page}/${request.perPage}`;
    const rows = entries.slice(request.offset, request.offset + request.perPage);
    const cached = this.#pages.get(key);
    if (cached !== undefined && cached.total === entries.length && sameRows(cached.rows, rows)) return cached.response;
    const response = pageWithTexts(rows, (e) => e.json, textOf, request, entries.length);
    if (this.#pages.size >= PAGE_ENTRIES) this.#pages.clear();
    this.#pages.set(key, { rows, total: entries.length, response });
    return response;
  }

  #refresh(sql: Sql, entries: E[]): void {
    const embeds = this.source.embeds;
    if (embeds !== undefined) {
      for (const [table, id] of this.#embedded) for (const e of entries) if (embeds(e, table, id)) this.#dirty.add(e.id);
      this.#embedded.length = 0;
    }
    if (this.#dirty.size > entries.length * RELOAD_SHARE) {
      this.#entries = undefined;
      this.entries(sql);
      return;
    }
    for (const id of this.#dirty) {
      const at = entries.findIndex((e) => e.id === id);
      if (at >= 0) entries.splice(at, 1);
      const fresh = this.source.one(sql, id);
      if (fresh !== undefined) entries.splice(this.#position(entries, fresh), 0, fresh);
    }
    this.#dirty.clear();
  }

  /** Where `entry` goes in `entries` (binary search on list order). */
  #position(entries: readonly E[], entry: E): number {
    let lo = 0;
    let hi = entries.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.source.compare(entries[mid]!, entry) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}

/** Each entry's JSON text, made once: a page rebuilt after a write serialises only its changed rows. */
const texts = new WeakMap<ListEntry, string>();

function textOf(entry: ListEntry): string {
  let text = texts.get(entry);
  if (text === undefined) texts.set(entry, (text = JSON.stringify(entry.json)));
  return text;
}

function sameRows<E>(a: readonly E[], b: readonly E[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
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

/** Drops every view over `sql` (a zone object starting, created or destroyed). */
export function resetListViews(sql: Sql): void {
  registries.delete(sql);
}
