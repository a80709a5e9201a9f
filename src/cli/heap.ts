/**
 * The V8 heap of a batch command (plan, apply, validate, ...). A run over many zones keeps a few
 * zones' data alive at a time (15-25 MB), but V8's defaults suit a long-lived server: the young
 * generation grows to two 16 MiB semi-spaces, and the old one to up to 4x what survived the last
 * full collection. A plan of 50 zones of 2,000 objects peaked at 3.3x the memory of reading the same
 * rows (`npm run bench -- cli`).
 *
 * The sizes of the main thread's heap are fixed when node starts (`--max-semi-space-size`), and
 * starting node again with them would cost a start. Flags that V8 reads at every collection are set
 * instead:
 * - the young generation stops growing at two 8 MiB semi-spaces. Nearly all of a zone's data lives
 *   through a young collection (it is in use until the zone is planned), so each collection copies
 *   what it holds; two 4 MiB semi-spaces collected twice as often and cost a 50-zone plan ~60 ms
 *   more of collections, 16 MiB ones did not fit in memory;
 * - the old generation grows by half of what survives a full collection, and V8 starts marking it
 *   (concurrently, on another thread) once a fifth of the room to that limit is used, not when the
 *   limit is near. V8's limit is what survived plus the larger of that growth and 8 MB, plus the
 *   young generation's size: left to itself, the old generation of a plan filled with zones it had
 *   done with up to ~20 MB over what was alive. Marking early keeps it close to what is alive, for
 *   a few more short full collections: a 50-zone plan peaks lower than with 4 MiB semi-spaces and
 *   no early marking, in less time.
 * `serve` keeps V8's defaults, which are made for what it is.
 */
import { PerformanceObserver, constants } from 'node:perf_hooks';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';

/** Percent by which the old generation may grow over what survived the last full collection. */
export const OldGenerationGrowthPercent = 50;

/** Size of the young generation (both semi-spaces) past which it stops growing. */
export const YoungGenerationCapBytes = 16 * 1024 * 1024;

/** Percent of the old generation's room to its limit, used since the last full collection, at which marking starts. */
export const MarkingStartPercent = 20;

/** Bytes of V8's young generation (both semi-spaces, as V8 reports the new space). */
export function youngGenerationBytes(): number {
  return getHeapSpaceStatistics().find((s) => s.space_name === 'new_space')?.space_size ?? 0;
}

/**
 * Tunes this process's heap for a batch command. V8 has no flag for the young generation's size
 * after start-up, only for its growth, which is switched off once the young generation has reached
 * the cap: looked at after young collections (V8 grows it only then; their reports come when the
 * event loop turns) and after each zone (`afterZone`), as a run over zones on the embedded
 * engine may never let the loop turn.
 */
export function tuneHeapForBatch(): void {
  tuned = true;
  const observer = new PerformanceObserver((list) => {
    if (!list.getEntries().some((e) => (e as { detail?: { kind?: number } }).detail?.kind === constants.NODE_PERFORMANCE_GC_MINOR)) return;
    if (capYoungGeneration()) observer.disconnect();
  });
  observer.observe({ entryTypes: ['gc'] });
}

/** Set by `tuneHeapForBatch`: a process that did not ask (serve, tests, the code-cache warm-up) keeps V8's defaults. */
let tuned = false;
let capped = false;
let zonesDone = 0;

/**
 * Early marking of the old generation (see above), from the second zone on: what it saves is zones
 * already planned, and a run of one or two zones has none to drop. Started with the run, it cost a
 * one-zone plan a full collection (~5-9 ms) that freed nothing the run still had to allocate.
 */
export const EarlyMarkingAfterZones = 2;

function markEarly(): void {
  setFlagsFromString(`--heap-growing-percent=${OldGenerationGrowthPercent}`);
  // "Hard": marking starts at the next allocation that finds the share passed, not from a task,
  // which a run over zones on the embedded engine (no turn of the event loop) would never run.
  setFlagsFromString(`--incremental-marking-hard-trigger=${MarkingStartPercent}`);
}

/**
 * Called after each zone of a batch command: from the second zone on, the old generation is marked
 * early (`markEarly`); the young generation stops growing once it has reached the cap.
 */
export function afterZone(): void {
  if (!tuned) return;
  if (++zonesDone === EarlyMarkingAfterZones) markEarly();
  capYoungGeneration();
}

/** Stops the young generation's growth once it has reached the cap (only in a tuned process); true once it has. */
function capYoungGeneration(): boolean {
  if (tuned && !capped && youngGenerationBytes() >= YoungGenerationCapBytes) {
    setFlagsFromString('--semi-space-growth-factor=1');
    capped = true;
  }
  return capped;
}
