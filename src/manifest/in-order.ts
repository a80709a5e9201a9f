/**
 * Sets kept in a reference order: lists the service treats as sets (skip phases and products,
 * bypass products) are normalised into one order, so notation-only edits compare equal.
 */

/** Sorts a set by a reference order (unknown values last, alphabetically). */
export function inOrder(values: readonly string[], order: readonly string[]): string[] {
  const rank = (v: string) => { const i = order.indexOf(v); return i < 0 ? order.length : i; };
  return [...new Set(values)].sort((a, b) => rank(a) - rank(b) || (a < b ? -1 : a > b ? 1 : 0));
}
