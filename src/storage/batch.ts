/**
 * One batch of a session's writes: the writes of one implicit transaction, and the promise that
 * settles when its COMMIT does (durable) or fails. The promise is the output gate while a confirmed
 * write is in the batch, and the answer to `sync()` (`session.ts`).
 */

/** The writes of one implicit transaction and their promise. */
export interface Batch {
  promise: Promise<void>;
  resolve: () => void;
  reject: (err: Error) => void;
  confirmed: boolean;
}

/** A new, empty batch with its promise. */
export function newBatch(): Batch {
  let resolve!: () => void;
  let reject!: (err: Error) => void;
  const promise = new Promise<void>((res, rej) => { resolve = res; reject = rej; });
  // The rejection is delivered to whoever awaits; nobody awaiting is not an unhandled failure.
  promise.catch(() => undefined);
  return { promise, resolve, reject, confirmed: false };
}
