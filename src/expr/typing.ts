/**
 * Types of already-checked trees, for the compiler and `inspect`: the type a value expression yields
 * (the element type when it went through `[*]`), and whether a Bool expression yields one Bool or an
 * Array<Bool> (comparisons over `[*]`, Array<Bool> fields alone). The parser computed the same while
 * parsing; this recomputes it from the tree so hand-built trees work too.
 */
import type { CallArg, Expression, ValueExpr } from './ast.js';
import { isExpression } from './ast.js';
import { FUNCTIONS, type ArgInfo } from './functions/catalog.js';
import { FIELDS } from './scheme.js';
import { T, arrayOf, type Type } from './types.js';

/** The type of a value and whether it is mapped (went through `[*]`). */
export interface ValueInfo {
  readonly type: Type;
  readonly mapped: boolean;
}

/** Types a value expression; throws a plain Error for trees that did not come from `parse`. */
export function valueInfo(value: ValueExpr): ValueInfo {
  let type = baseType(value.base);
  let mapped = false;
  for (const step of value.indexes) {
    if (type.kind !== 'Array' && type.kind !== 'Map') throw new Error(`cannot index a ${type.kind}`);
    type = type.of;
    if (step.kind === 'each') mapped = true;
  }
  return { type, mapped };
}

function baseType(base: ValueExpr['base']): Type {
  if (base.type === 'field') {
    const def = FIELDS.get(base.name);
    if (!def) throw new Error(`unknown field ${base.name}`);
    return def.type;
  }
  const fn = FUNCTIONS.get(base.name);
  if (!fn) throw new Error(`unknown function ${base.name}`);
  const ret = fn.returnType(base.args.map(argInfo));
  const first = base.args[0];
  return first && first.type === 'value' && valueInfo(first).mapped ? arrayOf(ret) : ret;
}

/** What the function catalog needs to know about an argument. */
export function argInfo(arg: CallArg): ArgInfo {
  if (arg.type === 'value') {
    const fieldName = arg.base.type === 'field' && arg.indexes.length === 0 ? arg.base.name : undefined;
    return { type: valueInfo(arg).type, literal: undefined, fieldName };
  }
  if (isExpression(arg)) return { type: isVector(arg) ? arrayOf(T.Bool) : T.Bool, literal: undefined, fieldName: undefined };
  const type = arg.type === 'bytes' ? T.Bytes : arg.type === 'int' ? T.Int : T.Ip;
  return { type, literal: arg, fieldName: undefined };
}

/** Whether a Bool expression yields an Array<Bool> rather than one Bool. */
export function isVector(expr: Expression): boolean {
  switch (expr.type) {
    case 'const': case 'quantifier': return false;
    case 'not': return isVector(expr.arg);
    case 'logical': return isVector(expr.items[0]!);
    case 'comparison': {
      const info = valueInfo(expr.lhs);
      return info.mapped || (expr.op === 'is_true' && info.type.kind === 'Array');
    }
  }
}
