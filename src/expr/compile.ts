/**
 * The compiler: a checked `Expression` to a tree of closures (wirefilter's design: no code
 * generation, every node specialised once). A Bool expression compiles to `BoolFn`; one over `[*]`
 * (Array<Bool>) to `VectorFn`. Semantics (reference §1.4, §5 and zonewall's choice 1):
 * - `and`/`or` short-circuit, `xor` is parity, `not` negates (element-wise on arrays); on arrays
 *   `and`/`or`/`xor` work element-wise and the result is as long as the shortest operand.
 * - A comparison whose left side is missing is false, for every operator including `ne`
 *   (the docs' rule; wirefilter's default would make `ne` true). `not` of it is true.
 * - `any(...)`/`all(...)` of a comparison over a missing container see an empty array (`any` false,
 *   `all` true); of a missing Array<Bool> value, false.
 */
import type { ComparisonExpr, Expression, LogicalExpr } from './ast.js';
import { ExecutionContext, FIELD_SLOTS, type RequestFields } from './context.js';
import { compileMany, compileValue, type ExprCompiler } from './compile-value.js';
import { compilePredicate, fusedFieldComparison, type Lists } from './compile-rhs.js';
import { fusedAffixCall, fusedQuantifier } from './compile-fused.js';
import { valueInfo } from './typing.js';

/** A compiled Bool expression. */
export type BoolFn = (ctx: ExecutionContext) => boolean;
/** A compiled Array<Bool> expression. */
export type VectorFn = (ctx: ExecutionContext) => readonly boolean[];

/** Options of `compile`. */
export interface CompileOptions {
  /** Named lists for `in $name` (list name without `$`). Unknown lists match nothing. */
  lists?: Lists;
}

/** A compiled filter: give it a request (or an `ExecutionContext` shared across filters). */
export type CompiledFilter = (request: RequestFields | ExecutionContext) => boolean;

/** Compiles a parsed expression into a predicate over requests. */
export function compileExpression(expr: Expression, options: CompileOptions = {}): CompiledFilter {
  const compiler = new Compiler(options.lists ?? {});
  const fn = compiler.bool(expr);
  return (request) => fn(request instanceof ExecutionContext ? request : new ExecutionContext(request));
}

class Compiler implements ExprCompiler {
  constructor(private readonly lists: Lists) {}

  bool(expr: Expression): BoolFn {
    switch (expr.type) {
      case 'const': { const v = expr.value; return () => v; }
      case 'not': { const arg = this.bool(expr.arg); return (ctx) => !arg(ctx); }
      case 'logical': return this.logical(expr);
      case 'quantifier': return this.quantifier(expr);
      case 'comparison': return this.comparison(expr);
    }
  }

  vector(expr: Expression): VectorFn {
    switch (expr.type) {
      case 'not': { const arg = this.vector(expr.arg); return (ctx) => arg(ctx).map((b) => !b); }
      case 'logical': return this.logicalVector(expr);
      case 'comparison': return this.comparisonVector(expr);
      default: throw new Error(`${expr.type} is not an Array<Bool> expression`);
    }
  }

  private logical(expr: LogicalExpr): BoolFn {
    const items = expr.items.map((i) => this.bool(i));
    if (expr.op === 'xor') return (ctx) => items.reduce((acc, f) => acc !== f(ctx), false);
    if (items.length === 2) {
      const [a, b] = items as [BoolFn, BoolFn];
      return expr.op === 'and' ? (ctx) => a(ctx) && b(ctx) : (ctx) => a(ctx) || b(ctx);
    }
    if (expr.op === 'and') {
      return (ctx) => {
        for (const f of items) if (!f(ctx)) return false;
        return true;
      };
    }
    return (ctx) => {
      for (const f of items) if (f(ctx)) return true;
      return false;
    };
  }

  private logicalVector(expr: LogicalExpr): VectorFn {
    const items = expr.items.map((i) => this.vector(i));
    const combine =
      expr.op === 'and' ? (a: boolean, b: boolean) => a && b : expr.op === 'or' ? (a: boolean, b: boolean) => a || b : (a: boolean, b: boolean) => a !== b;
    return (ctx) => {
      let out = [...items[0]!(ctx)];
      for (const f of items.slice(1)) {
        const next = f(ctx);
        out = out.slice(0, Math.min(out.length, next.length)).map((v, i) => combine(v, next[i]!));
      }
      return out;
    };
  }

  private quantifier(expr: Extract<Expression, { type: 'quantifier' }>): BoolFn {
    const all = expr.op === 'all';
    if (expr.arg.type === 'value') {
      const value = compileValue(expr.arg, this);
      return (ctx) => {
        const v = value(ctx) as readonly boolean[] | undefined;
        if (v === undefined) return false;
        return all ? v.every(Boolean) : v.some(Boolean);
      };
    }
    const { arg } = expr;
    const fused = arg.type === 'comparison' ? fusedQuantifier(all, arg, this.lists) : undefined;
    if (fused !== undefined) return fused;
    if (arg.type === 'comparison' && arg.rhs !== null && valueInfo(arg.lhs).mapped) {
      // `any(f[*] op lit)`: test elements in place and stop at the first decisive one.
      const many = compileMany(arg.lhs, this);
      const test = compilePredicate(arg.op, arg.rhs, valueInfo(arg.lhs).type, this.lists);
      return (ctx) => {
        const items = many(ctx);
        if (items === undefined) return all;
        for (const v of items) if (test(v) !== all) return !all;
        return all;
      };
    }
    const vec = this.vector(arg);
    return all ? (ctx) => vec(ctx).every(Boolean) : (ctx) => vec(ctx).some(Boolean);
  }

  private comparison(expr: ComparisonExpr): BoolFn {
    const { lhs } = expr;
    if (lhs.base.type === 'field' && lhs.indexes.length === 0) return this.fieldComparison(expr, lhs.base.name);
    const affix = fusedAffixCall(expr);
    if (affix !== undefined) return affix;
    const value = compileValue(expr.lhs, this);
    if (expr.op === 'is_true' || expr.rhs === null) return (ctx) => value(ctx) === true;
    const test = compilePredicate(expr.op, expr.rhs, valueInfo(expr.lhs).type, this.lists);
    return (ctx) => {
      const v = value(ctx);
      return v !== undefined && test(v);
    };
  }

  // The hot path: a plain field read from its slot, the test fused in where possible.
  private fieldComparison(expr: ComparisonExpr, name: string): BoolFn {
    const slot = FIELD_SLOTS.get(name);
    if (slot === undefined) throw new Error(`unknown field ${name}`);
    if (expr.op === 'is_true' || expr.rhs === null) return (ctx) => ctx.field(slot) === true;
    const fused = fusedFieldComparison(slot, expr.op, expr.rhs);
    if (fused) return fused;
    const test = compilePredicate(expr.op, expr.rhs, valueInfo(expr.lhs).type, this.lists);
    return (ctx) => {
      const v = ctx.field(slot);
      return v !== undefined && test(v);
    };
  }

  private comparisonVector(expr: ComparisonExpr): VectorFn {
    const info = valueInfo(expr.lhs);
    if (!info.mapped) {
      // An Array<Bool> value standing alone.
      const value = compileValue(expr.lhs, this);
      return (ctx) => (value(ctx) as readonly boolean[] | undefined) ?? [];
    }
    const many = compileMany(expr.lhs, this);
    if (expr.op === 'is_true' || expr.rhs === null) return (ctx) => (many(ctx) ?? []).map((v) => v === true);
    const test = compilePredicate(expr.op, expr.rhs, info.type, this.lists);
    return (ctx) => (many(ctx) ?? []).map(test);
  }
}

