/**
 * What a differential case may observe, in a form both runtimes serialise the same way: values
 * become JSON (a `Map`, an `ArrayBuffer`, `undefined`, `NaN` and friends get tagged shapes, so two
 * different values never print alike), and an error becomes its built-in class and message (the
 * runtimes' own subclasses, such as zonewall's `StorageTypeError`, report the built-in they extend).
 * This module runs inside workerd too, so it imports nothing.
 */

/** A JSON value. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** An error as a case observes it. */
export interface ErrorObservation {
  error: string;
  message: string;
}

/** The built-in class an error is an instance of, e.g. `TypeError` or `DOMException:DataCloneError`. */
export function errorClass(err: unknown): string {
  if (typeof DOMException !== 'undefined' && err instanceof DOMException) return `DOMException:${err.name}`;
  if (err instanceof TypeError) return 'TypeError';
  if (err instanceof RangeError) return 'RangeError';
  if (err instanceof SyntaxError) return 'SyntaxError';
  if (err instanceof Error) return 'Error';
  return `thrown ${typeof err}`;
}

/** An error as class and message. */
export function errorOf(err: unknown): ErrorObservation {
  return { error: errorClass(err), message: err instanceof Error ? err.message : String(err) };
}

/** The value `fn` returns, or the error it throws. */
export function attempt(fn: () => unknown): unknown {
  try {
    return fn();
  } catch (err) {
    return errorOf(err);
  }
}

/** What a promise resolves to, or the error it rejects with (a synchronous throw counts as a rejection). */
export async function settle(fn: () => unknown): Promise<unknown> {
  try {
    return await fn();
  } catch (err) {
    return errorOf(err);
  }
}

function toJsonNumber(n: number): Json {
  if (Number.isNaN(n)) return { number: 'NaN' };
  if (n === Infinity || n === -Infinity) return { number: String(n) };
  if (Object.is(n, -0)) return { number: '-0' };
  return n;
}

/** `value` as JSON with tagged shapes for what JSON cannot say. */
export function toJson(value: unknown): Json {
  if (value === undefined) return { undefined: true };
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return toJsonNumber(value);
  if (typeof value === 'bigint') return { bigint: value.toString() };
  if (value instanceof Map) return { map: [...value].map(([k, v]) => [toJson(k), toJson(v)]) };
  if (value instanceof Set) return { set: [...value].map(toJson) };
  if (value instanceof Date) return { date: Number.isNaN(value.getTime()) ? 'invalid' : value.toISOString() };
  if (value instanceof ArrayBuffer) return { arrayBuffer: [...new Uint8Array(value)] };
  if (ArrayBuffer.isView(value)) {
    const bytes = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    return { view: value.constructor.name, bytes: [...bytes] };
  }
  if (value instanceof Error) return { ...errorOf(value) };
  // Array.from, not map: a hole becomes `undefined` instead of vanishing into JSON's null.
  if (Array.isArray(value)) return Array.from(value, toJson);
  if (typeof value === 'object') {
    const out: { [key: string]: Json } = {};
    for (const [k, v] of Object.entries(value)) out[k] = toJson(v);
    return out;
  }
  return { unsupported: typeof value };
}
