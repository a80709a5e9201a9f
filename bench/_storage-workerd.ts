/**
 * The workerd side of `bench/storage.ts`: a SQLite-backed Durable Object in Miniflare 3 (workerd)
 * runs each phase inside the object and reports the time it measured there, so the HTTP hop of
 * `dispatchFetch` is not counted. Objects persist to a directory on disk, as zonewall's do. The
 * phase code is the same as zonewall's object runs (`phases` below is turned into the worker's
 * source), so both sides do exactly the same calls.
 *
 * Inside a Durable Object, workerd's `performance.now()` is a Spectre-mitigated clock: it reads in
 * whole milliseconds and moves only when the object does I/O. A puts or gets phase takes tens of
 * milliseconds, but one `list()` of 10,000 small records takes about 10: read once, it would carry
 * up to a millisecond (10%) of rounding on workerd's side only. So the list phase lists
 * `LIST_REPEAT` times back to back in one event, on both sides, and the benchmark divides.
 */
import { Miniflare } from 'miniflare';

/** One phase of the comparison, written once for zonewall's object and workerd's. */
export interface StoragePhases {
  /** `count` puts with no await between them, then `sync()`: one coalesced batch, durable. */
  puts(storage: PhaseStorage, count: number): Promise<void>;
  /** `count` awaited gets, in a fixed shuffled order. */
  gets(storage: PhaseStorage, count: number): Promise<number>;
  /** `LIST_REPEAT` `list()`s of every key, one after the other (see above). */
  list(storage: PhaseStorage, count: number): Promise<number>;
}

/** What the phases use of `ctx.storage` (both runtimes offer it). */
export interface PhaseStorage {
  put(key: string, value: unknown): Promise<void>;
  get(key: string): Promise<unknown>;
  list(): Promise<Map<string, unknown>>;
  sync(): Promise<void>;
}

/** Key `i` of a phase. */
export const phaseKey = (i: number): string => `key${String(i).padStart(6, '0')}`;
/** Value `i`: a small record, the kind of value objects keep in KV. */
export const phaseValue = (i: number): unknown => ({ id: i, name: `item ${i}`, enabled: i % 2 === 0, tags: ['a', 'b'], note: 'x'.repeat(64) });

/** Lists per list phase: the phase's time divided by this is the time of one `list()`. */
export const LIST_REPEAT = 5;

/** The phases, as plain functions whose source also runs inside workerd (no imports, no closures). */
export const phases: StoragePhases = {
  async puts(storage, count) {
    for (let i = 0; i < count; i++) void storage.put(phaseKey(i), phaseValue(i));
    await storage.sync();
  },
  async gets(storage, count) {
    let found = 0;
    for (let i = 0, j = 0; i < count; i++, j = (j + 7919) % count) if ((await storage.get(phaseKey(j))) !== undefined) found++;
    return found;
  },
  async list(storage) {
    let size = 0;
    for (let i = 0; i < LIST_REPEAT; i++) size = (await storage.list()).size;
    return size;
  },
};

function workerSource(): string {
  // Method shorthand `async puts(storage, count) {...}` becomes `puts: async function (storage, count) {...}`.
  const fns = Object.entries(phases).map(([name, fn]) => `${name}: async function ${fn.toString().replace(/^async\s+\w+\s*/, '')}`);
  return `
const phaseKey = ${phaseKey.toString()};
const phaseValue = ${phaseValue.toString()};
const LIST_REPEAT = ${LIST_REPEAT};
const phases = { ${fns.join(',\n')} };
export class Bench {
  constructor(ctx) { this.ctx = ctx; }
  async fetch(request) {
    const url = new URL(request.url);
    const phase = url.searchParams.get('phase');
    const count = Number(url.searchParams.get('count'));
    const start = performance.now();
    const result = await phases[phase](this.ctx.storage, count);
    return Response.json({ ms: performance.now() - start, result: result ?? null });
  }
}
export default {
  fetch(request, env) {
    const name = new URL(request.url).searchParams.get('object');
    return env.BENCH.get(env.BENCH.idFromName(name)).fetch(request);
  },
};`;
}

/** A workerd instance with the benchmark object. */
export class WorkerdBench {
  readonly #mf: Miniflare;

  private constructor(mf: Miniflare) {
    this.#mf = mf;
  }

  /** Starts workerd; objects persist under `dir`. */
  static async start(dir: string): Promise<WorkerdBench> {
    const mf = new Miniflare({
      modules: true,
      script: workerSource(),
      compatibilityDate: '2025-07-01',
      durableObjects: { BENCH: { className: 'Bench', useSQLite: true } },
      durableObjectsPersist: dir,
      host: '127.0.0.1',
    });
    await mf.ready;
    return new WorkerdBench(mf);
  }

  /** Runs `phase` in object `object`; resolves to the milliseconds measured inside it and the phase's result. */
  async run(object: string, phase: keyof StoragePhases, count: number): Promise<{ ms: number; result: unknown }> {
    const params = new URLSearchParams({ object, phase, count: String(count) });
    const response = await this.#mf.dispatchFetch(`http://127.0.0.1/?${params.toString()}`);
    const text = await response.text();
    if (!response.ok) throw new Error(`workerd phase ${phase} failed: ${text}`);
    return JSON.parse(text) as { ms: number; result: unknown };
  }

  /** Stops workerd. */
  async close(): Promise<void> {
    await this.#mf.dispose();
  }
}
