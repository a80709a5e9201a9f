/**
 * Keys of an exported section in the order they were written: for custom and rate limiting rules
 * that order is the evaluation order. A plain object cannot keep it: JavaScript lists keys like "20"
 * and "3" first, in numeric order. The exporters write entries with `putInOrder`, and the YAML
 * rendering turns each such object into a Map of its keys in that order (`inWrittenOrder`).
 */
const orders = new WeakMap<object, string[]>();

/** Sets `record[key]` and remembers that `key` comes after the keys set before it. */
export function putInOrder<T>(record: Record<string, T>, key: string, value: T): void {
  let keys = orders.get(record);
  if (keys === undefined) orders.set(record, (keys = []));
  if (!Object.hasOwn(record, key)) keys.push(key);
  record[key] = value;
}

/** A replacer for `yaml`'s `stringify`: an object written with `putInOrder` as a Map in that order. */
export function inWrittenOrder(_key: unknown, value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const keys = orders.get(value);
  return keys === undefined ? value : new Map(keys.map((k) => [k, (value as Record<string, unknown>)[k]]));
}
