/**
 * JSON with object keys sorted, and objects sorted by id: equal values always serialise the same,
 * whatever order a provider listed them in. Used by the state fingerprint of every kind.
 */

/** Compares objects by `id` (absent ids first). */
export const byId = <T extends { id?: string }>(a: T, b: T): number => ((a.id ?? '') < (b.id ?? '') ? -1 : (a.id ?? '') > (b.id ?? '') ? 1 : 0);

/** JSON with object keys sorted, so equal values always serialise the same. */
export function stableStringify(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
  const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableStringify(v)}`).join(',')}}`;
}
