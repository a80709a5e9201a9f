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
  return typeof key === 'string' ? key : `${key as string}`;
}

/** Reads an optional options argument; anything but an object or undefined is a `TypeError`. */
export function optionsObject<T extends object>(options: unknown, method: string): T {
  if (options === undefined || options === null) return {} as T;
  if (typeof options !== 'object') {
    throw new StorageTypeError(`${method}() options must be an object, got ${typeof options}.`);
  }
  return options as T;
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

function optionalString(value: unknown, name: string): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') throw new StorageTypeError(`list() option "${name}" must be a string.`);
  return value;
}

/** Validates `list()` options and compiles them into a byte range, as the reference does. */
export function compileListOptions(options: ListOptions): CompiledListOptions {
  const start = optionalString(options.start, 'start');
  const startAfter = optionalString(options.startAfter, 'startAfter');
  const endOption = optionalString(options.end, 'end');
  const prefixOption = optionalString(options.prefix, 'prefix');
  if (start !== undefined && startAfter !== undefined) {
    throw new StorageTypeError('list() cannot be called with both start and startAfter values.');
  }
  let limit = -1;
  if (options.limit !== undefined) {
    if (typeof options.limit !== 'number' || Number.isNaN(options.limit)) {
      throw new StorageTypeError('List limit must be a number.');
    }
    if (options.limit <= 0) throw new StorageTypeError('List limit must be positive.');
    limit = Number.isFinite(options.limit) ? Math.floor(options.limit) : -1;
    if (limit === 0) throw new StorageTypeError('List limit must be positive.');
  }
  const reverse = options.reverse === true;
  const result: CompiledListOptions = { start: Buffer.alloc(0), end: null, reverse, limit, empty: false };
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
