/**
 * The one walk over a parsed expression: every Bool sub-expression (pre-order) and every value
 * (a comparison's left-hand side, a function call's arguments, a quantifier's argument, nested).
 * What an expression uses (`inspect`), where an operator is, which lists and which retired fields it
 * names: each is a visitor of this walk, so a new node kind is taught to one place.
 */
import type { CallArg, Expression, ValueExpr } from './ast.js';
import { isExpression } from './ast.js';

/** Callbacks of `walkExpression`; each is optional. */
export interface ExpressionVisitor {
  expression?(e: Expression): void;
  value?(v: ValueExpr): void;
}

/** Visits `expr` and everything inside it, in source order for the nodes of one kind. */
export function walkExpression(expr: Expression, visitor: ExpressionVisitor): void {
  walkExpr(expr, visitor);
}

function walkExpr(e: Expression, visitor: ExpressionVisitor): void {
  visitor.expression?.(e);
  switch (e.type) {
    case 'const': return;
    case 'not': walkExpr(e.arg, visitor); return;
    case 'logical': for (const item of e.items) walkExpr(item, visitor); return;
    case 'quantifier': walkArg(e.arg, visitor); return;
    case 'comparison': walkValue(e.lhs, visitor);
  }
}

function walkValue(v: ValueExpr, visitor: ExpressionVisitor): void {
  visitor.value?.(v);
  if (v.base.type === 'call') for (const arg of v.base.args) walkArg(arg, visitor);
}

function walkArg(arg: CallArg, visitor: ExpressionVisitor): void {
  if (isExpression(arg)) walkExpr(arg, visitor);
  else if (arg.type === 'value') walkValue(arg, visitor);
}
