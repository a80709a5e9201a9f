/**
 * The in-memory value cache of one session: serialized values (or "known absent") by key, least
 * recently used first out, bounded in bytes. Values stay serialized so every `get()` still returns
 * a fresh copy. It mirrors the table exactly: writes update it, and any rollback clears it, so
 * `noCache` (skip inserting, skip touching) can never change a result.
 */

/** Bytes of cached values one session may hold. */
export const CACHE_MAX_BYTES = 16 * 1024 * 1024;

/** Per-entry bookkeeping charge, so a cache of many tiny values is bounded too. */
const ENTRY_OVERHEAD = 64;

/** An LRU cache of serialized values; `null` records a key known to be absent. */
export class ValueCache {
  readonly #entries = new Map<string, Buffer | null>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes = CACHE_MAX_BYTES) {
    this.#maxBytes = maxBytes;
  }

  /** Number of cached keys. */
  get size(): number {
    return this.#entries.size;
  }

  /** The cached bytes, `null` if known absent, `undefined` if not cached; `touch` refreshes recency. */
  lookup(key: string, touch: boolean): Buffer | null | undefined {
    const value = this.#entries.get(key);
    if (value !== undefined && touch) {
      this.#entries.delete(key);
      this.#entries.set(key, value);
    }
    return value;
  }

  /** Records the current value of `key` (or its absence). */
  store(key: string, value: Buffer | null): void {
    this.drop(key);
    const cost = key.length * 2 + (value?.length ?? 0) + ENTRY_OVERHEAD;
    if (cost > this.#maxBytes / 4) return;
    this.#entries.set(key, value);
    this.#bytes += cost;
    if (this.#bytes > this.#maxBytes) this.#evict();
  }

  /** Forgets `key`. */
  drop(key: string): void {
    const old = this.#entries.get(key);
    if (old === undefined) return;
    this.#entries.delete(key);
    this.#bytes -= key.length * 2 + (old?.length ?? 0) + ENTRY_OVERHEAD;
  }

  /** Forgets everything (after a rollback or deleteAll). */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #evict(): void {
    for (const key of this.#entries.keys()) {
      if (this.#bytes <= this.#maxBytes * 0.75) break;
      this.drop(key);
    }
  }
}
