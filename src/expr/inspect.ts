/**
 * `inspect`: what an expression uses — field names (as written, aliases included), function names
 * (quantifiers `any`/`all` included) and operators in canonical spelling (`eq`, `matches`,
 * `strict wildcard`, `in`, ..., and the logical `and`/`or`/`xor`/`not`). The engine uses it for plan
 * entitlements (`operators.has('matches')`: Business and Enterprise only).
 */
import type { ComparisonOp, Expression } from './ast.js';
import { skipSpace } from './lex.js';
import { walkExpression } from './walk.js';

/** The names an expression uses. */
export interface Inspection {
  readonly fields: Set<string>;
  readonly functions: Set<string>;
  readonly operators: Set<string>;
}

/** Collects the fields, functions and operators of an expression. */
export function inspectExpression(expr: Expression): Inspection {
  const out: Inspection = { fields: new Set(), functions: new Set(), operators: new Set() };
  walkExpression(expr, {
    expression: (e) => {
      if (e.type === 'not') out.operators.add('not');
      else if (e.type === 'logical') out.operators.add(e.op);
      else if (e.type === 'quantifier') out.functions.add(e.op);
      else if (e.type === 'comparison' && e.op !== 'is_true') out.operators.add(e.op);
    },
    value: (v) => {
      if (v.base.type === 'field') out.fields.add(v.base.name);
      else out.functions.add(v.base.name);
    },
  });
  return out;
}

/**
 * The source offset of the first comparison with operator `op` (where the operator's token starts:
 * `matches` or `~`), or undefined when the expression has none; `source` is the text it was parsed
 * from, for placing errors about the operator (the `matches` tier check).
 * @example operatorOffset(parse(s), s, 'matches')
 */
export function operatorOffset(expr: Expression, source: string, op: ComparisonOp): number | undefined {
  let found: number | undefined;
  walkExpression(expr, {
    expression: (e) => {
      if (e.type !== 'comparison' || e.op !== op) return;
      const at = skipSpace(source, e.lhs.span.end);
      if (found === undefined || at < found) found = at;
    },
  });
  return found;
}
