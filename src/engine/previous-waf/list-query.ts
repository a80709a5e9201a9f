/**
 * The list queries of the previous WAF's APIs (reference §5): field filters combined with `match`
 * (`all`, the default, or `any`), `order` on one field with `direction` (`asc` or `desc`), and
 * `page` / `per_page` (default 50, 5..100). The catalog is small, so lists are built in memory.
 */
import { ApiError } from '../api-errors.js';
import { page, parsePageRequest } from '../envelope.js';
import type { ApiResponse } from '../types.js';
import { LegacyPageLimits } from './constants.js';

/** A filter: the query parameter's value tested against one item. */
export type ItemFilter<T> = (item: T, value: string) => boolean;

/** What a list accepts: its filters by parameter name and its orderable fields. */
export interface ListSpec<T> {
  filters: Record<string, ItemFilter<T>>;
  orders: Record<string, (item: T) => string | number>;
}

/** Filters, orders and pages `items` by the query; answers the page with `result_info`. */
export function legacyList<T>(items: readonly T[], query: URLSearchParams, spec: ListSpec<T>): ApiResponse {
  const match = oneOf(query, 'match', ['all', 'any']) ?? 'all';
  const direction = oneOf(query, 'direction', ['asc', 'desc']) ?? 'asc';
  const order = oneOf(query, 'order', Object.keys(spec.orders));
  const active = Object.entries(spec.filters).flatMap(([name, test]) => {
    const value = query.get(name);
    return value === null || value === '' ? [] : [(item: T) => test(item, value)];
  });
  let out = items.filter((item) => active.length === 0 || (match === 'all' ? active.every((t) => t(item)) : active.some((t) => t(item))));
  if (order !== undefined) {
    const key = spec.orders[order]!;
    const sign = direction === 'asc' ? 1 : -1;
    out = out.map((item, i) => ({ item, i })).sort((a, b) => sign * compare(key(a.item), key(b.item)) || a.i - b.i).map((x) => x.item);
  }
  const request = parsePageRequest(query, LegacyPageLimits);
  return page(out.slice(request.offset, request.offset + request.perPage), request, out.length);
}

function compare(a: string | number, b: string | number): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b));
}

function oneOf(query: URLSearchParams, name: string, values: string[]): string | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!values.includes(raw)) throw ApiError.of('invalidQuery', `query parameter ${name} must be one of ${values.join(', ')}; got ${JSON.stringify(raw)}`, { pointer: `?${name}` });
  return raw;
}

/** Case-insensitive substring filter. */
export function contains(haystack: string | null | undefined, needle: string): boolean {
  return (haystack ?? '').toLowerCase().includes(needle.toLowerCase());
}
