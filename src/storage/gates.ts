/**
 * The input gate of one object instance (after miniflare v2 `packages/shared/src/sync/gate.ts` and
 * workerd `io/io-gate.h`). Events (stub calls, alarm invocations) enter through the gate; while it is
 * closed they wait in arrival order. It closes for the rest of the current turn when the instance
 * awaits a storage read (so `v = await get(); await put(v + 1)` cannot interleave with another event),
 * and for the whole of `blockConcurrencyWhile()` and `transaction()` callbacks. The output gate is the
 * session's pending-commit promise: `host.ts` holds each event's result until it resolves.
 *
 * Reads complete synchronously on both backends (SQLite answers at once), so "a read is pending"
 * means "the code that awaited it has not yet returned to the event loop": the turn lock is released
 * by `setImmediate`, after every microtask continuation of the read has run.
 */

/** One object's input gate: a FIFO of waiting events plus the locks that hold them. */
export class InputGate {
  #blockers = 0;
  #turnLocked = false;
  readonly #waiting: Array<() => void> = [];
  readonly #releaseTurn = (): void => {
    this.#turnLocked = false;
    this.#pump();
  };

  /** True when an event may start now. */
  get isOpen(): boolean {
    return this.#blockers === 0 && !this.#turnLocked;
  }

  /** True when an event arriving now would start at once: the gate is open and nobody waits. */
  get isIdle(): boolean {
    return this.isOpen && this.#waiting.length === 0;
  }

  /** Current `blockConcurrencyWhile()` nesting depth. */
  get depth(): number {
    return this.#blockers;
  }

  /** Closes the gate until the current turn (sync code and microtasks) is over: a storage read. */
  lockForTurn(): void {
    if (this.#turnLocked) return;
    this.#turnLocked = true;
    setImmediate(this.#releaseTurn);
  }

  /** Starts `start` now if the gate is open and nobody waits, else queues it (FIFO). */
  enter(start: () => void): void {
    this.#waiting.push(start);
    this.#pump();
  }

  /** Puts `start` back at the head of the queue (its instance's constructor closed the gate). */
  reenter(start: () => void): void {
    this.#waiting.unshift(start);
    this.#pump();
  }

  /** Runs `fn` with the gate closed to events; other code of the instance keeps running. */
  async runBlocking<T>(fn: () => T | PromiseLike<T>): Promise<T> {
    this.#blockers++;
    try {
      return await fn();
    } finally {
      this.#blockers--;
      // Let the continuation of the blocking call run before queued events, as a storage result would.
      if (this.#blockers === 0) this.lockForTurn();
    }
  }

  #pump(): void {
    // Each start runs the event's synchronous part, which may close the gate again: re-check each time.
    while (this.isOpen && this.#waiting.length > 0) {
      const start = this.#waiting.shift() as () => void;
      start();
    }
  }
}
