/**
 * Values to bytes and back with V8's value serializer, the structured clone wire format the
 * reference stores (header plus wire-format version 15). The plain `v8.Serializer` is used, not
 * `v8.serialize()`: Node's default serializer writes typed arrays as Node host objects, which the
 * reference's blobs do not contain. Clone failures become a `DataCloneError` `DOMException`, as
 * `structuredClone` throws.
 */
import v8 from 'node:v8';
import { dataCloneError, StorageError } from './errors.js';
import { UNSUPPORTED_VALUE, WireEncoder } from './wire-encoder.js';

const encoder = new WireEncoder();

/**
 * Serializes `value` with a V8 header; throws `DataCloneError` for functions, symbols, promises...
 * Plain data goes through `wire-encoder.ts` (same bytes, a fraction of the cost), the rest through
 * `v8.Serializer`.
 */
export function serialize(value: unknown): Buffer {
  const fast = encoder.encode(value);
  if (fast !== UNSUPPORTED_VALUE) return fast;
  const serializer = new v8.Serializer();
  serializer.writeHeader();
  try {
    serializer.writeValue(value);
  } catch (err) {
    throw dataCloneError(err instanceof Error ? err.message : String(err));
  }
  return serializer.releaseBuffer();
}

/** Deserializes bytes written by `serialize`; every call returns a fresh copy. */
export function deserialize(bytes: Uint8Array, key?: string): unknown {
  try {
    const deserializer = new v8.Deserializer(bytes);
    deserializer.readHeader();
    return deserializer.readValue();
  } catch (err) {
    const where = key === undefined ? '' : ` for key "${key.slice(0, 64)}"`;
    throw new StorageError(
      `stored value deserialization failed${where} (${bytes.length} bytes): the data is corrupt`,
      { cause: err },
    );
  }
}
