/**
 * The read memo of a zone object (`zone-object.ts`): answers of cacheable GET routes kept until the
 * next write request. Here are its key (route, path parameters and query), its size, and what it
 * keeps after a write (list pages, brought up to date by their in-memory list, `list-view.ts`).
 */
import type { ApiResponse } from './types.js';
import { currentPage } from './list-view.js';

/** What a read's memo key is made of (the fields of a `ZoneCall`). */
export interface MemoCall {
  route: string;
  params: Record<string, string>;
  query: readonly [string, string][];
  zone: { id: string };
}

/** How many memoised read answers a zone object keeps (oldest dropped first). */
export const MEMO_ENTRIES = 64;

/**
 * The memo key of a read: route, path parameters and the query in a stable order, each string
 * length-prefixed so that no two reads share a key (cheaper than JSON on the hot path). The
 * zone's own id is left out: the memo is this zone's, so it adds nothing but 45 characters for
 * every read to build and hash.
 */
export function memoKey(call: MemoCall): string {
  let key = call.route;
  for (const name in call.params) {
    const value = call.params[name]!;
    if (name !== 'zone_id' || value !== call.zone.id) key += `|${name.length}:${name}${value.length}:${value}`;
  }
  const q = call.query;
  // Two parameters (a page and its size) are the common case: put them in order without a sort.
  const query = q.length === 2 ? (q[0]![0] <= q[1]![0] ? q : [q[1]!, q[0]!]) : q.length > 2 ? [...q].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) : q;
  for (const [name, value] of query) key += `?${name.length}:${name}${value.length}:${value}`;
  return key;
}

/**
 * After a write request (applied or refused), the memo keeps only list pages, each as its
 * in-memory list answers it now (`currentPage`: the same object when the write left its rows
 * unchanged, the page made again when the server sends it); every other answer may have changed.
 */
export function refreshMemo(memo: Map<string, ApiResponse>): void {
  for (const [key, answer] of memo) {
    const now = currentPage(answer);
    if (now === undefined) memo.delete(key);
    else if (now !== answer) memo.set(key, now);
  }
}
