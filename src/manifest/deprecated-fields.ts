/**
 * Fields the service has retired but still parses: an expression that uses one is valid and gets a
 * *warning* (never an error) at the field, with the reason. Today that is `cf.threat_score`, always
 * 0 on the service (security-phases.md §6): `gt` never matches, `lt` always does. Found on the
 * parsed expression, so a field name inside a string literal is not one.
 */
import { walkExpression, type Expression } from '../expr/index.js';

/** Retired fields and why, as the warning says it. */
export const RetiredFields: ReadonlyMap<string, string> = new Map([
  ['cf.threat_score', 'the service now always sets it to 0, so a "gt" comparison never matches and "lt" always does; use cf.waf.score or cf.bot_management.score instead'],
]);

/** One use of a retired field: its name and where it is in the expression's source. */
export interface RetiredFieldUse {
  field: string;
  offset: number;
  length: number;
}

/** The uses of retired fields in `expr`, in source order; empty for most expressions. */
export function retiredFieldUses(expr: Expression): RetiredFieldUse[] {
  const out: RetiredFieldUse[] = [];
  walkExpression(expr, {
    value: (v) => {
      if (v.base.type === 'field' && RetiredFields.has(v.base.name)) out.push({ field: v.base.name, offset: v.base.span.start, length: v.base.span.end - v.base.span.start });
    },
  });
  return out.sort((a, b) => a.offset - b.offset);
}
