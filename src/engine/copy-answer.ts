/**
 * A deep copy of an answer, but for its frozen parts, which are shared as they are: the engine
 * freezes only what it made to be shared, and freezes it through and through (list pages and their
 * rows, `pageWithBytes`), so a caller can change nothing of it, and a plan reads its lists without
 * copying them (issue 17: 29 MB and a thirtieth of a 50-zone plan). Answers are JSON-shaped (they
 * are what `serve` serialises): plain objects, arrays and primitives are copied directly, several
 * times faster than `structuredClone`; anything else goes to `structuredClone`.
 */
export function copyAnswer<T>(value: T): T {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return value;
  if (Array.isArray(value)) return value.map(copyAnswer) as T;
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const copy = copyAnswer((value as Record<string, unknown>)[key]);
    if (key === '__proto__') Object.defineProperty(out, key, { value: copy, enumerable: true, writable: true, configurable: true });
    else out[key] = copy;
  }
  return out as T;
}
