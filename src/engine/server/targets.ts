/**
 * The request targets a server has seen, split once: a client pages through the same few targets
 * (`/zones/Z/firewall/rules?page=N&per_page=100`), so a repeat target skips the split, the query's
 * parse and the prefix check, and hands on the very same strings, whose hashes V8 has already
 * computed (the route and memo lookups downstream hash them again otherwise). The path is taken
 * verbatim, as data: no `new URL()` (it would resolve `.`/`..` and `%2e%2e` before routing).
 */

/** One request target, split. Shared by every request of that target: never mutate it. */
export interface SplitTarget {
  /** The target's path, before the query. */
  readonly pathname: string;
  /** The query; shared, so read-only by contract (nothing in the engine writes to a request's query). */
  readonly query: URLSearchParams;
  /** `[...query]`, frozen (`ApiRequest.queryPairs`). */
  readonly queryPairs: readonly [string, string][];
}

/** Targets kept; all are dropped when there are more (a client walking many ids). */
const TARGET_ENTRIES = 512;

/** A bounded memo of split request targets. */
export class TargetCache {
  readonly #targets = new Map<string, SplitTarget>();

  /** `target` split into its path and query, from the memo when seen before. */
  split(target: string): SplitTarget {
    let split = this.#targets.get(target);
    if (split === undefined) {
      split = splitTarget(target);
      if (this.#targets.size >= TARGET_ENTRIES) this.#targets.clear();
      this.#targets.set(target, split);
    }
    return split;
  }
}

/** The request target's path (verbatim) and query. */
export function splitTarget(target: string): SplitTarget {
  const q = target.indexOf('?');
  const pathname = q < 0 ? target : target.slice(0, q);
  const query = new URLSearchParams(q < 0 ? '' : target.slice(q + 1));
  const queryPairs = [...query];
  // Frozen, pairs and list: every request of this target shares them.
  for (const pair of queryPairs) Object.freeze(pair);
  Object.freeze(queryPairs);
  return { pathname, query, queryPairs };
}
