/**
 * `inspect`: what an expression uses — field names (as written, aliases included), function names
 * (quantifiers `any`/`all` included) and operators in canonical spelling (`eq`, `matches`,
 * `strict wildcard`, `in`, ..., and the logical `and`/`or`/`xor`/`not`). The engine uses it for plan
 * entitlements (`operators.has('matches')`: Business and Enterprise only).
 */
import type { CallArg, ComparisonOp, Expression, ValueExpr } from './ast.js';
import { isExpression } from './ast.js';
import { skipSpace } from './lex.js';

/** The names an expression uses. */
export interface Inspection {
  readonly fields: Set<string>;
  readonly functions: Set<string>;
  readonly operators: Set<string>;
}

/** Collects the fields, functions and operators of an expression. */
export function inspectExpression(expr: Expression): Inspection {
  const out: Inspection = { fields: new Set(), functions: new Set(), operators: new Set() };
  visitExpr(expr, out);
  return out;
}

function visitExpr(expr: Expression, out: Inspection): void {
  switch (expr.type) {
    case 'const': return;
    case 'not': out.operators.add('not'); visitExpr(expr.arg, out); return;
    case 'logical': out.operators.add(expr.op); expr.items.forEach((i) => visitExpr(i, out)); return;
    case 'quantifier': out.functions.add(expr.op); visitArg(expr.arg, out); return;
    case 'comparison':
      if (expr.op !== 'is_true') out.operators.add(expr.op);
      visitValue(expr.lhs, out);
  }
}

function visitValue(value: ValueExpr, out: Inspection): void {
  if (value.base.type === 'field') {
    out.fields.add(value.base.name);
    return;
  }
  out.functions.add(value.base.name);
  value.base.args.forEach((a) => visitArg(a, out));
}

function visitArg(arg: CallArg, out: Inspection): void {
  if (arg.type === 'value') visitValue(arg, out);
  else if (isExpression(arg)) visitExpr(arg, out);
}

/**
 * The source offset of the first comparison with operator `op` (where the operator's token starts:
 * `matches` or `~`), or undefined when the expression has none; `source` is the text it was parsed
 * from, for placing errors about the operator (the `matches` tier check).
 * @example operatorOffset(parse(s), s, 'matches')
 */
export function operatorOffset(expr: Expression, source: string, op: ComparisonOp): number | undefined {
  let found: number | undefined;
  const visit = (e: Expression): void => {
    if (found !== undefined) return;
    switch (e.type) {
      case 'const': return;
      case 'not': visit(e.arg); return;
      case 'logical': e.items.forEach(visit); return;
      case 'quantifier': if (isExpression(e.arg)) visit(e.arg); else if (e.arg.type === 'value') visitArgs(e.arg); return;
      case 'comparison':
        visitArgs(e.lhs);
        if (found === undefined && e.op === op) found = skipSpace(source, e.lhs.span.end);
    }
  };
  const visitArgs = (v: ValueExpr): void => {
    if (v.base.type !== 'call') return;
    for (const a of v.base.args) {
      if (a.type === 'value') visitArgs(a);
      else if (isExpression(a)) visit(a);
    }
  };
  visit(expr);
  return found;
}
