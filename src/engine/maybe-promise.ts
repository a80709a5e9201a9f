/**
 * Values that are plain or promised: the v4 front's steps hand a plain value on at once and wait
 * only for a real promise, so that a read answered from memory costs no turn of the microtask
 * queue per layer (issue 17: `serve` reads).
 */

/** A value, or a promise (or an RPC's thenable) of it. */
export type MaybePromise<T> = T | PromiseLike<T>;

/** `fn(value)`, at once for a plain value, after it settles for a promise (an RPC's thenable included). */
export function after<T, U>(value: MaybePromise<T>, fn: (v: T) => MaybePromise<U>): MaybePromise<U> {
  const then = (value as { then?: unknown } | null)?.then;
  return typeof then === 'function' ? Promise.resolve(value).then(fn) : fn(value as T);
}
