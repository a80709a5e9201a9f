/**
 * The engine's use of `src/expr`: check a filter expression and derive what the engine stores with
 * it. The expression text is stored as the user gave it (the real service echoes what was sent);
 * duplicates are compared by meaning: on the canonical form with sets as sets (the equivalence key),
 * so `a eq "x"` duplicates `a == "x"` and `ip.src in {10.0.0.2 10.0.0.1}` duplicates
 * `ip.src in {10.0.0.1 10.0.0.2}`; the operators
 * an expression uses decide its entitlements (the `matches` operator needs Business or higher).
 */
import { ExpressionError, formsOf, inspect, parse } from '../expr/index.js';
import { apiMessage } from './api-errors.js';
import type { ApiMessage } from './types.js';

/** What the engine keeps about a valid expression. */
export interface CheckedExpression {
  /** The equivalence key (canonical form, sets as sets), for duplicate detection. */
  canonical: string;
  /** Whether it uses the `matches` (regex) operator, which is plan-gated. */
  usesMatches: boolean;
  /** The fields it names (some are plan-gated: `PlanGatedFields`). */
  fields: ReadonlySet<string>;
}

/**
 * Checks `source`; on failure returns the error message for the envelope (the real engine's
 * `Filter parsing error (L:C)` text, with `source.pointer` at the body field).
 */
export function checkExpression(source: string, pointer: string): CheckedExpression | ApiMessage {
  try {
    const ast = parse(source);
    const used = inspect(ast);
    return { canonical: formsOf(ast).key, usesMatches: used.operators.has('matches'), fields: used.fields };
  } catch (err) {
    if (err instanceof ExpressionError) {
      return apiMessage('invalidExpression', err.message, {
        pointer,
        meta: { line: err.line, column: err.column, offset: err.offset, reason: err.reason },
      });
    }
    throw err;
  }
}
