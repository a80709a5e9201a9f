/**
 * The documented limits of seed 001 and the checks that enforce them. The seed wins over the
 * reference runtime here: key, value and batch limits apply on both backends (the reference's
 * SQLite backend has none). Messages follow the reference's wording and always name the limit.
 */
import { StorageRangeError } from './errors.js';

/** Every storage limit, in one place. */
export const StorageLimits = {
  /** A key's UTF-8 encoding, in bytes. */
  maxKeyBytes: 2048,
  /** A value's advertised size, in bytes. */
  maxValueBytes: 131_072,
  /**
   * Serialization overhead allowed on top of `maxValueBytes` (V8 header, tag and length), so that a
   * raw 128 KiB string or `Uint8Array` is accepted, as in the reference (`ENFORCED_MAX_VALUE_SIZE`).
   */
  valueOverheadBytes: 34,
  /** Keys per multi-key get or delete, pairs per multi-pair put. */
  maxKeysPerCall: 128,
  /** How far back point-in-time recovery reaches. */
  pitrWindowMs: 30 * 24 * 60 * 60 * 1000,
  /** Length of one `sql.exec()` query string, in UTF-16 units (reference: 100,000). */
  maxSqlLength: 100_000,
} as const;

/** Throws a `RangeError` naming the limit when `key` is longer than 2,048 UTF-8 bytes. */
export function checkKeySize(key: string, multi = false): void {
  // Fast path: a UTF-16 string encodes to at most 3 bytes per unit.
  if (key.length * 3 <= StorageLimits.maxKeyBytes) return;
  const size = Buffer.byteLength(key, 'utf8');
  if (size <= StorageLimits.maxKeyBytes) return;
  throw new StorageRangeError(
    multi
      ? `Key "${key.slice(0, 32)}..." is larger than the limit of ${StorageLimits.maxKeyBytes} bytes. A key of size ${size} was provided.`
      : `Keys cannot be larger than ${StorageLimits.maxKeyBytes} bytes. A key of size ${size} was provided.`,
  );
}

/**
 * Throws a `RangeError` naming the limit when a value is over 128 KiB: its serialized size beyond
 * the reference's overhead allowance, or, for a string or binary value, its own size. The second
 * test keeps the seed's "at most 131,072 bytes" exact for the values people measure (a 131,073-byte
 * string or buffer is refused), which the overhead allowance alone would let through.
 */
export function checkValueSize(size: number, key: string, multi = false, value?: unknown): void {
  const raw = rawSize(value);
  if (size <= StorageLimits.maxValueBytes + StorageLimits.valueOverheadBytes && raw <= StorageLimits.maxValueBytes) return;
  const shown = raw > StorageLimits.maxValueBytes ? raw : size;
  throw new StorageRangeError(
    multi
      ? `Value for key "${key.slice(0, 32)}" is above the limit of ${StorageLimits.maxValueBytes} bytes. A value of size ${shown} was provided.`
      : `Values cannot be larger than ${StorageLimits.maxValueBytes} bytes. A value of size ${shown} was provided.`,
  );
}

/** The byte size of a string (UTF-8) or binary value; 0 for other values (their serialized size decides). */
function rawSize(value: unknown): number {
  if (typeof value === 'string') return value.length > StorageLimits.maxValueBytes / 3 ? Buffer.byteLength(value, 'utf8') : value.length;
  if (value instanceof ArrayBuffer) return value.byteLength;
  if (ArrayBuffer.isView(value)) return value.byteLength;
  return 0;
}

/** Throws a `RangeError` when a multi-key call names more than 128 keys or pairs. */
export function checkKeyCount(count: number, what: 'keys' | 'pairs'): void {
  if (count <= StorageLimits.maxKeysPerCall) return;
  throw new StorageRangeError(
    `Maximum number of ${what} is ${StorageLimits.maxKeysPerCall}. ${count} ${what} were provided; ` +
      `split the call into batches of at most ${StorageLimits.maxKeysPerCall}.`,
  );
}
