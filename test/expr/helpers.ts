/**
 * Test helpers for the expression module: a compact S-expression view of a tree (so table-driven
 * tests can assert shapes in one line) and a catcher that returns the `ExpressionError` a source
 * throws.
 */
import { ExpressionError, parse, type CallArg, type Expression, type ParseOptions, type ValueExpr } from '../../src/expr/index.js';

/** `(and (not ssl) (eq http.host "x"))`-style rendering of a tree. */
export function shape(expr: Expression): string {
  switch (expr.type) {
    case 'const': return String(expr.value);
    case 'logical': return `(${expr.op} ${expr.items.map(shape).join(' ')})`;
    case 'not': return `(not ${shape(expr.arg)})`;
    case 'quantifier': return `(${expr.op} ${argShape(expr.arg)})`;
    case 'comparison': return expr.op === 'is_true' ? valueShape(expr.lhs) : `(${expr.op} ${valueShape(expr.lhs)})`;
  }
}

function valueShape(v: ValueExpr): string {
  const base = v.base.type === 'field' ? v.base.name : `${v.base.name}(${v.base.args.map(argShape).join(',')})`;
  return base + v.indexes.map((i) => (i.kind === 'each' ? '[*]' : i.kind === 'index' ? `[${i.value}]` : `[${i.value}]`)).join('');
}

function argShape(a: CallArg): string {
  if (a.type === 'value') return valueShape(a);
  if (a.type === 'bytes' || a.type === 'int' || a.type === 'ip') return String(a.value);
  return shape(a);
}

/** The ExpressionError thrown by `parse(source)`; fails the test if it parses. */
export function parseError(source: string, options?: ParseOptions): ExpressionError {
  try {
    parse(source, options);
  } catch (err) {
    if (err instanceof ExpressionError) return err;
    throw err;
  }
  throw new Error(`expected ${JSON.stringify(source)} to fail`);
}
