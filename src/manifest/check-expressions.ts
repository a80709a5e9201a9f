/**
 * The first check after the schema: every kind checks the expressions of its sections (through
 * `expression-check.ts`), and what each finds valid is kept, by kind, for normalisation.
 */
import { kinds } from './kinds.js';
import type { Checks } from './view.js';

/**
 * The valid expressions of a document, by kind: entry `k` is what `kinds[k].checkExpressions`
 * returned, handed to `kinds[k].normalize` as it is.
 */
export type ExpressionTable = readonly unknown[];

/** Checks every expression of the document; returns the valid ones, by kind. */
export function checkExpressions(checks: Checks, data: Record<string, unknown>): ExpressionTable {
  const table = new Array<unknown>(kinds.length);
  for (let k = 0; k < kinds.length; k++) table[k] = kinds[k].checkExpressions?.(checks, data);
  return table;
}
