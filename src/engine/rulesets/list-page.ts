/**
 * Cursor pages of `GET /zones/{zone_id}/rulesets` (the official client's `rulesets.list`, whose
 * params are `cursor` and `per_page`). The OpenAPI description takes `per_page` 1..50 and a `cursor`
 * (at least one character) and answers the next page's cursor in `result_info.cursors.after`; the
 * official client 7.3.0 reads it from `result_info.cursor`. Decision (the two published contracts
 * disagree and the engine cannot ask the service): the cursor is given under both names, so either
 * reader walks every page. Without `per_page` the whole list is one page (the engine serves at most
 * a handful of rulesets per zone) and there is no `result_info`. A cursor is the last ruleset's id
 * of the page, base64url-encoded; a cursor naming no ruleset of the list is refused (10017).
 */
import { ApiError } from '../api-errors.js';
import type { ApiResponse } from '../types.js';

/** `per_page` bounds of the rulesets list (the OpenAPI's `rulesets_PerPage`). */
export const RulesetListPerPage = { min: 1, max: 50 } as const;

/** The query parameters the rulesets list takes. */
export const RulesetListQuery = ['cursor', 'per_page'] as const;

/** One page of `items` (each with an `id`) for the request's `cursor` and `per_page`, as the envelope's body. */
export function rulesetListPage(items: readonly Record<string, unknown>[], query: URLSearchParams): ApiResponse['body'] {
  // An empty parameter is an absent one, as on the other list routes (`?per_page=&cursor=`).
  const perPageText = query.get('per_page') || null;
  const cursor = query.get('cursor') || null;
  let start = 0;
  if (cursor !== null) {
    const id = /^[A-Za-z0-9_-]+$/.test(cursor) ? Buffer.from(cursor, 'base64url').toString('utf8') : undefined;
    const at = id === undefined ? -1 : items.findIndex((r) => r.id === id);
    if (at < 0) throw ApiError.of('invalidQuery', `query parameter cursor ${JSON.stringify(cursor.slice(0, 100))} is not a cursor this API gave (use result_info.cursors.after of the page before)`, { pointer: '?cursor' });
    start = at + 1;
  }
  if (perPageText === null) return { result: items.slice(start), success: true, errors: [], messages: [] };
  const perPage = /^\d+$/.test(perPageText) ? Number(perPageText) : Number.NaN;
  if (!(perPage >= RulesetListPerPage.min && perPage <= RulesetListPerPage.max)) {
    throw ApiError.of('invalidQuery', `query parameter per_page must be an integer from ${RulesetListPerPage.min} to ${RulesetListPerPage.max}, got ${JSON.stringify(perPageText.slice(0, 100))}`, { pointer: '?per_page' });
  }
  const page = items.slice(start, start + perPage);
  const body: ApiResponse['body'] = { result: page, success: true, errors: [], messages: [] };
  if (start + perPage < items.length) {
    const after = Buffer.from(String(page[page.length - 1]!.id), 'utf8').toString('base64url');
    body.result_info = { cursor: after, cursors: { after } } as never;
  }
  return body;
}
