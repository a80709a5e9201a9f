/**
 * How `sql.exec()` bindings become SQLite values, by the reference's conversions: `undefined`/`null`
 * are NULL, numbers bind as REAL, booleans as the strings "true"/"false", ArrayBuffer and views as
 * BLOBs, other objects as their string form, and BigInt or Symbol is a `TypeError`. Apart from
 * `sql.ts` so that the conversion table reads on its own.
 */
import { StorageTypeError } from './errors.js';

/** A binding as better-sqlite3 accepts it. */
export type Binding = string | number | Buffer | null;

/** One `exec()` binding as better-sqlite3 takes it (see the file's header). */
export function toBinding(value: unknown): Binding {
  if (value === null || value === undefined) return null;
  switch (typeof value) {
    case 'string':
    case 'number':
      return value;
    case 'boolean':
      return value ? 'true' : 'false';
    case 'bigint':
      throw new StorageTypeError('Cannot convert a BigInt value to a number');
    case 'symbol':
      throw new StorageTypeError('Cannot convert a Symbol value to a string');
    default:
      break;
  }
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  if (ArrayBuffer.isView(value)) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  return String(value);
}
