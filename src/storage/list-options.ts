/**
 * Argument handling of the KV API: key coercion and `list()` options compiled to a byte range
 * (after workerd `api/actor-state.c++` `compileListOptions`). Keys are compared as UTF-8 bytes, the
 * order SQLite's BINARY collation gives a TEXT column, so every bound here is a `Buffer`.
 */
import { StorageTypeError } from './errors.js';

/** Options of `get()` (and `getAlarm()`, minus `noCache`). */
export interface GetOptions {
  /** Do not hold other events while this read is pending. */
  allowConcurrency?: boolean;
  /** Do not keep the value in the in-memory cache (a hint; never changes results). */
  noCache?: boolean;
}

/** Options of `put()`, `delete()`, `deleteAll()` (and the alarm writes, minus `noCache`). */
export interface PutOptions {
  /** Let results leave before this write is durable. */
  allowUnconfirmed?: boolean;
  /** Accepted for compatibility; writes never hold the input gate. */
  allowConcurrency?: boolean;
  /** Drop the value from the in-memory cache once written (a hint; never changes results). */
  noCache?: boolean;
}

/** Options of `getAlarm()`. */
export type GetAlarmOptions = Pick<GetOptions, 'allowConcurrency'>;
/** Options of `setAlarm()` and `deleteAlarm()`. */
export type SetAlarmOptions = Pick<PutOptions, 'allowUnconfirmed' | 'allowConcurrency'>;

/** Options of `list()`. */
export interface ListOptions extends GetOptions {
  /** First key, inclusive. */
  start?: string;
  /** Key after which results start, exclusive; not with `start`. */
  startAfter?: string;
  /** Key at which results end, exclusive. */
  end?: string;
  /** Only keys that begin with this. */
  prefix?: string;
  /** Descending order; `start` and `end` keep their meaning. */
  reverse?: boolean;
  /** Maximum number of pairs, at least 1. */
  limit?: number;
}

/** `ListOptions` reduced to what the query needs. */
export interface CompiledListOptions {
  /** Inclusive lower bound. */
  start: Buffer;
  /** Exclusive upper bound, or null for none. */
  end: Buffer | null;
  reverse: boolean;
  /** Row limit; -1 means none. */
  limit: number;
  /** True when the range is provably empty: storage is not touched. */
  empty: boolean;
}

/** Coerces a key as the reference does (`ToString`); a Symbol throws `TypeError`. */
export function toKey(key: unknown): string {
  return typeof key === 'string' ? key : coerce(() => `${key as string}`);
}

/** Runs a `ToString`/`ToNumber` coercion; its `TypeError` (Symbol, BigInt) gets the storage code. */
function coerce<T>(fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (err instanceof TypeError && !(err instanceof StorageTypeError)) throw new StorageTypeError(err.message);
    throw err;
  }
}

/**
 * The runtime's error for an argument of the wrong type, worded as its bindings word it
 * (`Failed to execute 'get' on 'DurableObjectStorage': parameter 2 is not of type 'GetOptions'.`):
 * code ported from the runtime may match on it.
 */
export function argumentTypeError(where: string, method: string, position: number, type: string): StorageTypeError {
  return new StorageTypeError(`Failed to execute '${method}' on '${where}': parameter ${position} is not of type '${type}'.`);
}

/**
 * Reads an optional options argument as the runtime does: undefined and null mean none, any object
 * (arrays and functions too) is read for its fields, anything else is a `TypeError`.
 */
export function optionsObject<T extends object>(
  options: unknown, where: string, method: string, position: number, type: string,
): T {
  if (options === undefined || options === null) return {} as T;
  if (typeof options !== 'object' && typeof options !== 'function') throw argumentTypeError(where, method, position, type);
  return options as T;
}

/** True for a value the runtime reads as a dictionary (`put(entries)`, an options argument). */
export function isDictionary(value: unknown): value is Record<string, unknown> {
  return (typeof value === 'object' && value !== null && !Array.isArray(value)) || typeof value === 'function';
}

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;

/**
 * `limit` as the runtime's `int` conversion reads it: `ToNumber` (a Symbol or BigInt throws), NaN
 * and the infinities become 0 (so "must be positive"), a finite value outside int32 is a
 * `TypeError`, anything else is truncated toward zero. `undefined` means no limit. Whether it is
 * positive is checked later, after start/startAfter, in the runtime's order.
 */
function listLimit(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const number = coerce(() => +(value as number));
  if (Number.isFinite(number) && (number < INT32_MIN || number > INT32_MAX)) {
    throw new StorageTypeError(`Value out of range. Must be between ${INT32_MIN} and ${INT32_MAX} (inclusive).`);
  }
  return Number.isFinite(number) ? Math.trunc(number) : 0;
}

/** The least byte string greater than every string that begins with `prefix`, or null. */
function prefixUpperBound(prefix: Buffer): Buffer | null {
  let end = prefix.length;
  while (end > 0 && prefix[end - 1] === 0xff) end--;
  if (end === 0) return null;
  const bound = Buffer.from(prefix.subarray(0, end));
  bound[end - 1] = (bound[end - 1] as number) + 1;
  return bound;
}

/** A string option: absent when undefined, else `ToString` of it (null is "null"), as the runtime reads it. */
function optionalString(value: unknown): string | undefined {
  return value === undefined ? undefined : toKey(value);
}

/** Validates `list()` options and compiles them into a byte range, as the reference does. */
export function compileListOptions(options: ListOptions): CompiledListOptions {
  const start = optionalString(options.start);
  const startAfter = optionalString(options.startAfter);
  const endOption = optionalString(options.end);
  const prefixOption = optionalString(options.prefix);
  const limit = listLimit(options.limit);
  if (start !== undefined && startAfter !== undefined) {
    throw new StorageTypeError('list() cannot be called with both start and startAfter values.');
  }
  if (limit !== undefined && limit <= 0) {
    throw new StorageTypeError('List limit must be positive.');
  }
  const reverse = Boolean(options.reverse);
  const result: CompiledListOptions = { start: Buffer.alloc(0), end: null, reverse, limit: limit ?? -1, empty: false };
  // startAfter s is the inclusive start s + NUL, its immediate successor in byte order.
  if (startAfter !== undefined) result.start = Buffer.concat([Buffer.from(startAfter), Buffer.of(0)]);
  else if (start !== undefined) result.start = Buffer.from(start);
  if (endOption !== undefined) result.end = Buffer.from(endOption);
  if (prefixOption) clampToPrefix(result, Buffer.from(prefixOption));
  if (result.end !== null && Buffer.compare(result.end, result.start) <= 0) result.empty = true;
  return result;
}

function clampToPrefix(range: CompiledListOptions, prefix: Buffer): void {
  if (Buffer.compare(range.start, prefix) < 0) range.start = prefix;
  else if (!range.start.subarray(0, prefix.length).equals(prefix)) range.empty = true;
  const upper = prefixUpperBound(prefix);
  if (range.end === null) range.end = upper;
  else if (Buffer.compare(range.end, prefix) <= 0) range.empty = true;
  else if (!range.end.subarray(0, prefix.length).equals(prefix)) range.end = upper;
}
