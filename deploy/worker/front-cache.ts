/**
 * Repeat reads of list pages answered by the Worker's front without crossing into the zone's
 * Durable Object (issue 35: on `serve --runtime workerd` the call into the object was most of a
 * repeat read's time). The front keeps the last wire answer (`WireAnswer`, the page's JSON bytes)
 * of each read call; any request that is not a GET, to any zone or account, empties the cache.
 *
 * Correct only where this front is the one path to the objects' storage: `zonewall serve --runtime
 * workerd` (one process holds the state directory, and workerd runs the Worker in one isolate) sets
 * `ZONEWALL_SOLE_FRONT`. A deployed Worker runs in many isolates, each of which would miss the
 * others' writes: there the cache is off, and every read asks the object (which repeats its own
 * answers from memory until its next write).
 *
 * - Only list pages are kept (answers that carry `json`): built from the zone's stored rows and the
 *   request alone (`ListView`), never from the clock. The key is the whole call but its body
 *   (none on a GET): route, parameters, query and the zone as the front knows it (its plan).
 * - A read that started before a write, or overlapped one, is not kept: its answer may be the
 *   state before the write (`#generation` counts writes started and ended).
 * - A PITR restore or an import is a POST like any write: the cache empties.
 */
import type { WireAnswer, ZoneCall } from '../../src/engine/workerd.js';

/**
 * Entries kept at most (a client pages through few paths; a page of 100 rules is ~40 KB): the
 * cache empties when full, as a zone object's page cache does.
 */
const MaxEntries = 256;

/** The front's cache of list pages (see above). */
export class FrontCache {
  readonly #entries = new Map<string, WireAnswer>();
  /** Incremented when a write starts and when it ends. */
  #generation = 0;
  #writing = 0;

  /** Runs a request that may write (any method but GET): the cache empties before and after it. */
  async write<T>(run: () => Promise<T>): Promise<T> {
    this.#writing++;
    this.#generation++;
    this.#entries.clear();
    try {
      return await run();
    } finally {
      this.#writing--;
      this.#generation++;
      this.#entries.clear();
    }
  }

  /** A read call of a zone: the kept answer, or `call`'s, kept when it is a list page. */
  async read(call: ZoneCall, ask: () => Promise<WireAnswer>): Promise<WireAnswer> {
    const key = keyOf(call);
    const kept = this.#entries.get(key);
    if (kept !== undefined) return kept;
    const generation = this.#generation;
    const answer = await ask();
    if ('json' in answer && answer.status === 200 && this.#writing === 0 && generation === this.#generation) {
      if (this.#entries.size >= MaxEntries) this.#entries.clear();
      this.#entries.set(key, answer);
    }
    return answer;
  }

  /** Entries kept (tests). */
  get size(): number {
    return this.#entries.size;
  }
}

function keyOf(call: ZoneCall): string {
  return JSON.stringify([call.zone, call.route, call.params, call.query]);
}
