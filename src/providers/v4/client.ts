/**
 * The v4 client both providers share: one call = one envelope, unwrapped into its `result` or
 * turned into a `ServiceError` carrying the service's codes; lists are read page by page at the
 * largest page size, the pages after the first fetched concurrently (bounded).
 */
import { AnswerShapes, checkAnswer, type AnswerShape } from './answer-shape.js';
import { V4Limits } from './constants.js';
import { mapLimit } from './concurrency.js';
import { readApiMessages } from './api-messages.js';
import { ProviderError, ServiceError } from './errors.js';
import type { ApiMessage, HttpMethod, ResultInfo, Transport } from './transport.js';

/** Query parameters: repeated keys are given as arrays (`id=a&id=b`). */
export type Query = Record<string, string | number | boolean | readonly string[] | undefined>;

/** A successful call's result and notes. */
export interface CallResult<T> {
  result: T;
  messages: ApiMessage[];
  info?: ResultInfo;
}

/** Unwraps v4 envelopes over a `Transport`. */
export class V4Client {
  constructor(readonly transport: Transport) {}

  /**
   * One call; throws `ServiceError` when the service refuses it, and `ProviderError` naming the call
   * and the field when `options.shape` is given and the result does not have it (the embedded
   * engine, a trusted transport, is not checked).
   */
  async call<T>(method: HttpMethod, path: string, options: { query?: Query; body?: unknown; shape?: AnswerShape } = {}): Promise<CallResult<T>> {
    const query = options.query === undefined ? undefined : toSearchParams(options.query);
    const response = await this.transport.send({ method, path, query, body: options.body });
    const body = response.body as Partial<typeof response.body> | undefined;
    if (body === undefined || body === null || typeof body !== 'object' || typeof body.success !== 'boolean') {
      throw new ProviderError(`${method} ${path}: the service answered HTTP ${response.status} without a v4 envelope`);
    }
    if (!body.success || response.status >= 400) {
      // A write answered 5xx may have been applied before the failure: callers re-read before resending.
      const outcome = method !== 'GET' && response.status >= 500 ? 'unknown' : 'not-applied';
      throw new ServiceError({ method, path, status: response.status, errors: readApiMessages(body.errors), outcome });
    }
    if (options.shape !== undefined && this.transport.trusted !== true) checkAnswer(`${method} ${path}`, body.result, options.shape);
    const result: CallResult<T> = { result: body.result as T, messages: readApiMessages(body.messages) };
    // Another service's `result_info` may be null or not an object: it then says nothing of the pages.
    if (body.result_info !== undefined && body.result_info !== null && typeof body.result_info === 'object') result.info = body.result_info;
    return result;
  }

  /** The `result` of one call. */
  async result<T>(method: HttpMethod, path: string, options: { query?: Query; body?: unknown; shape?: AnswerShape } = {}): Promise<T> {
    return (await this.call<T>(method, path, options)).result;
  }

  /**
   * Every item of a list: page 1, then the remaining pages (known from `total_pages` or
   * `total_count`) concurrently. Without either, pages are read until one comes back short. Every
   * item has `shape` (at least an `id`), or the call fails naming the page and the field.
   */
  async listAll<T extends { id: string }>(path: string, query: Query = {}, perPage: number = V4Limits.perPage, shape: AnswerShape = AnswerShapes.listItem): Promise<T[]> {
    const first = await this.firstPage<T>(path, query, perPage, shape);
    return this.allPages(first, path, query, perPage, shape);
  }

  /** Page 1 of a list, with the number of pages when the service says it. */
  async firstPage<T>(path: string, query: Query, perPage: number, shape: AnswerShape = AnswerShapes.listItem): Promise<{ items: T[]; pages: number | undefined }> {
    const first = await this.call<T[]>('GET', path, { query: { ...query, page: 1, per_page: perPage } });
    return { items: this.#items<T>(first.result, path, 1, shape), pages: totalPages(first.info, perPage) };
  }

  /** The whole list, from its first page. */
  async allPages<T extends { id: string }>(first: { items: T[]; pages: number | undefined }, path: string, query: Query, perPage: number, shape: AnswerShape = AnswerShapes.listItem): Promise<T[]> {
    const page = (n: number) => this.call<T[]>('GET', path, { query: { ...query, page: n, per_page: perPage } });
    const got: (readonly T[])[] = [first.items];
    const pages = first.pages;
    if (pages === undefined) {
      let last = first.items.length;
      for (let n = 2; last >= perPage; n++) {
        const next = this.#items<T>((await page(n)).result, path, n, shape);
        got.push(next);
        last = next.length;
      }
    } else {
      const rest = Array.from({ length: Math.max(0, pages - 1) }, (_, i) => i + 2);
      got.push(...(await mapLimit(rest, V4Limits.readConcurrency, async (n) => this.#items<T>((await page(n)).result, path, n, shape))));
    }
    // A service that cannot change while read has no item on two pages: they are only joined, in one array.
    return this.transport.fixed === true ? ([] as T[]).concat(...got) : uniqueItems(got);
  }

  /** Page `n`'s items, checked against `shape` unless the transport is trusted. */
  #items<T>(value: unknown, path: string, n: number, shape: AnswerShape): T[] {
    const items = expectArray<T>(value, path);
    if (this.transport.trusted !== true) checkAnswer(`GET ${path} (page ${n})`, items, [shape]);
    return items;
  }
}

/**
 * The items of a list's pages, in page order, each id once: objects that moved between pages while
 * they were read appear twice, and the first is kept. Built in one pass, into one array.
 */
function uniqueItems<T extends { id: string }>(pages: readonly (readonly T[])[]): T[] {
  const list: T[] = [];
  const seen = new Set<string>();
  for (const page of pages) {
    // An index, not for-of: the engine's pages are frozen arrays, whose iterator V8 does not optimise away.
    for (let i = 0; i < page.length; i++) {
      const item = page[i]!;
      // One lookup per item: the set grows only for an id not seen before.
      const size = seen.size;
      if (seen.add(item.id).size !== size) list.push(item);
    }
  }
  return list;
}

/** Pages of a list from its first `result_info`; undefined when the service did not say. */
function totalPages(info: ResultInfo | undefined, perPage: number): number | undefined {
  if (info === undefined) return undefined;
  if (typeof info.total_pages === 'number') return info.total_pages;
  if (typeof info.total_count === 'number') return Math.ceil(info.total_count / (info.per_page || perPage));
  return undefined;
}

function expectArray<T>(value: unknown, path: string): T[] {
  if (!Array.isArray(value)) throw new ProviderError(`the API answered GET ${path} with a result zonewall cannot read: result is ${value === null ? 'null' : typeof value === 'object' ? 'an object' : `a ${typeof value}`}, expected a list`);
  return value as T[];
}


/**
 * Builds URLSearchParams; arrays repeat the key, undefined values are left out. The pairs are given
 * to the constructor at once: each `append` checks and converts its arguments and updates the
 * object (half the time of a list page's two parameters).
 */
export function toSearchParams(query: Query): URLSearchParams {
  const pairs: [string, string][] = [];
  for (const key in query) {
    const value = query[key];
    if (value === undefined) continue;
    if (Array.isArray(value)) for (const v of value as readonly string[]) pairs.push([key, v]);
    else pairs.push([key, String(value)]);
  }
  return new URLSearchParams(pairs);
}
