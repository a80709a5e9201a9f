/**
 * The compiler: a checked `Expression` to a tree of closures (wirefilter's design: no code
 * generation, every node specialised once). A Bool expression compiles to `BoolFn`; one over `[*]`
 * (Array<Bool>) to `VectorFn`. The leaves that decide most rules (a comparison of one value, a
 * quantifier over `field[key][*]`) are field tests (`field-test.ts`): data run by one function that
 * V8 inlines into the `and`/`or` closures and the filter's root. Semantics (reference §1.4, §5 and zonewall's choice 1):
 * - `and`/`or` short-circuit, `xor` is parity, `not` negates (element-wise on arrays); on arrays
 *   `and`/`or`/`xor` work element-wise and the result is as long as the shortest operand.
 * - A comparison whose left side is missing is false, for every operator including `ne`
 *   (the docs' rule; wirefilter's default would make `ne` true). `not` of it is true.
 * - `any(...)`/`all(...)` of a comparison over a missing container see an empty array (`any` false,
 *   `all` true); of a missing Array<Bool> value, false.
 */
import type { ComparisonExpr, Expression, LogicalExpr } from './ast.js';
import type { ExecutionContext } from './context.js';
import { compileMany, compileValue, type ExprCompiler } from './compile-value.js';
import { compilePredicate, type Lists } from './compile-rhs.js';
import { fusedQuantifier } from './compile-fused.js';
import { runTest, type FieldTest } from './field-test.js';
import { fieldTestOf } from './compile-field-test.js';
import { rootOf, rootOfTest, rootOfTestThen, rootOfTests, type CompiledFilter } from './compile-root.js';
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
export type { CompiledFilter } from './compile-root.js';

/** Compiles a parsed expression into a predicate over requests. */
export function compileExpression(expr: Expression, options: CompileOptions = {}): CompiledFilter {
  const compiler = new Compiler(options.lists ?? {});
  return compiler.root(expr);
}

/** A field test standing alone as a Bool. */
function testFn(test: FieldTest): BoolFn {
  return (ctx) => runTest(ctx, test);
}

class Compiler implements ExprCompiler {
  constructor(private readonly lists: Lists) {}

  bool(expr: Expression): BoolFn {
    switch (expr.type) {
      case 'const': { const v = expr.value; return () => v; }
      case 'not': {
        const test = this.test(expr);
        if (test !== undefined) return testFn(test);
        const arg = this.bool(expr.arg);
        return (ctx) => !arg(ctx);
      }
      case 'logical': return this.logical(expr);
      case 'quantifier': {
        const test = this.test(expr);
        return test !== undefined ? testFn(test) : this.quantifier(expr);
      }
      case 'comparison': {
        const test = this.test(expr);
        return test !== undefined ? testFn(test) : this.comparison(expr);
      }
    }
  }

  /** The filter of a whole expression (see compile-root.ts). */
  root(expr: Expression): CompiledFilter {
    const items = expr.type === 'logical' && expr.items.length === 2 && expr.op !== 'xor' ? expr.items : undefined;
    const ta = this.test(items?.[0] ?? expr);
    if (ta !== undefined && items === undefined) return rootOfTest(ta);
    if (ta !== undefined && items !== undefined) {
      const and = (expr as LogicalExpr).op === 'and';
      const tb = this.test(items[1]!);
      return tb !== undefined ? rootOfTests(and, ta, tb) : rootOfTestThen(and, ta, this.bool(items[1]!));
    }
    return rootOf(this.bool(expr));
  }

  /** The field test of `expr` (see `field-test.ts`), or undefined. */
  private test(expr: Expression): FieldTest | undefined {
    return fieldTestOf(expr, this.lists, (value) => compileValue(value, this));
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
    const tests = expr.items.map((i) => this.test(i));
    const items = expr.items.map((i, k) => (tests[k] !== undefined ? testFn(tests[k]) : this.bool(i)));
    if (expr.op === 'xor') return (ctx) => items.reduce((acc, f) => acc !== f(ctx), false);
    if (items.length === 2) {
      // Field tests run inline (`runTest` is inlined here), so `a and b` of two is one closure.
      const [ta, tb] = tests;
      const [a, b] = items as [BoolFn, BoolFn];
      if (expr.op === 'and') {
        if (ta !== undefined && tb !== undefined) return (ctx) => runTest(ctx, ta) && runTest(ctx, tb);
        return ta !== undefined ? (ctx) => runTest(ctx, ta) && b(ctx) : (ctx) => a(ctx) && b(ctx);
      }
      if (ta !== undefined && tb !== undefined) return (ctx) => runTest(ctx, ta) || runTest(ctx, tb);
      return ta !== undefined ? (ctx) => runTest(ctx, ta) || b(ctx) : (ctx) => a(ctx) || b(ctx);
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

  // Comparisons of a plain field are field tests (`bool`); this compiles the others.
  private comparison(expr: ComparisonExpr): BoolFn {
    const value = compileValue(expr.lhs, this);
    if (expr.op === 'is_true' || expr.rhs === null) return (ctx) => value(ctx) === true;
    if (expr.op === 'eq' && expr.rhs.type === 'bytes') {
      // `lower(http.host) eq "x"`: a missing result (undefined) never equals the literal.
      const lit = expr.rhs.value;
      return (ctx) => value(ctx) === lit;
    }
    const test = compilePredicate(expr.op, expr.rhs, valueInfo(expr.lhs).type, this.lists);
    return (ctx) => {
      const v = value(ctx);
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

