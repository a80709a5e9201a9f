/**
 * `listReferences`: every `$name` an expression uses, with the type of the value it is compared
 * with (`ip.src in $office` → `{name: 'office', type: Ip}`), so a service or a checker can tell an
 * unknown list, or a list of the wrong kind for its field, without evaluating anything.
 */
import type { CallArg, Expression, ValueExpr } from './ast.js';
import { isExpression } from './ast.js';
import type { Type } from './types.js';
import { valueInfo } from './typing.js';

/** One `$name` of an expression. */
export interface ListReference {
  /** The list's name, without `$`. */
  readonly name: string;
  /** The type of the left-hand side it is compared with (Ip, Int or Bytes). */
  readonly type: Type;
  /** Source offsets of `$name`. */
  readonly span: { readonly start: number; readonly end: number };
}

/** The `$name` references of `expr`, in source order. */
export function listReferences(expr: Expression): ListReference[] {
  const out: ListReference[] = [];
  const visit = (e: Expression): void => {
    switch (e.type) {
      case 'const': return;
      case 'not': visit(e.arg); return;
      case 'logical': e.items.forEach(visit); return;
      case 'quantifier': visitArg(e.arg); return;
      case 'comparison':
        visitValue(e.lhs);
        if (e.rhs !== null && e.rhs.type === 'list') out.push({ name: e.rhs.name, type: valueInfo(e.lhs).type, span: { start: e.rhs.span.start, end: e.rhs.span.end } });
    }
  };
  const visitValue = (v: ValueExpr): void => {
    if (v.base.type === 'call') v.base.args.forEach(visitArg);
  };
  const visitArg = (a: CallArg): void => {
    if (isExpression(a)) visit(a);
    else if (a.type === 'value') visitValue(a);
  };
  visit(expr);
  return out;
}
