/**
 * The fused quantifier (issue 17: compiled rules within 1.5x of hand-written JS): `any(f[key][*]
 * op rhs)` walks the container directly and tests each element without building arrays. It returns
 * undefined when the expression has another shape, and the generic compiler handles it. Tests of a
 * plain field are in `field-test.ts`.
 */
import type { ComparisonExpr, IndexStep } from './ast.js';
import type { ExecutionContext, Value } from './context.js';
import { FIELD_SLOTS } from './context.js';
import { compilePredicate, type Lists } from './compile-rhs.js';
import { step } from './compile-value.js';
import { valueInfo } from './typing.js';

type BoolFn = (ctx: ExecutionContext) => boolean;

/** Reads `field[k]...` (keys and indexes, no `[*]`), specialised for the common one-key path. */
function pathAccessor(slot: number, path: readonly IndexStep[]): (ctx: ExecutionContext) => Value | undefined {
  const only = path.length === 1 ? path[0]! : undefined;
  if (path.length === 0) return (ctx) => ctx.field(slot);
  if (only !== undefined && only.kind === 'key') {
    const key = only.value;
    return (ctx) => { const m = ctx.field(slot); return m instanceof Map ? (m.get(key) as Value | undefined) : undefined; };
  }
  return (ctx) => {
    let v = ctx.field(slot);
    for (let i = 0; i < path.length && v !== undefined; i++) v = step(v, path[i]!);
    return v;
  };
}

/**
 * `any(field[k]...[*] op rhs)` / `all(...)`: one `[*]`, last, over a plain field. Elements are
 * tested in place; a missing container is an empty array (`any` false, `all` true).
 */
export function fusedQuantifier(all: boolean, arg: ComparisonExpr, lists: Lists): BoolFn | undefined {
  const { lhs } = arg;
  const last = lhs.indexes.length - 1;
  if (arg.rhs === null || lhs.base.type !== 'field' || last < 0 || lhs.indexes[last]!.kind !== 'each') return undefined;
  const path = lhs.indexes.slice(0, last);
  if (path.some((s) => s.kind === 'each')) return undefined;
  const slot = FIELD_SLOTS.get(lhs.base.name);
  if (slot === undefined) return undefined;
  const rhs = arg.rhs;
  const test = rhs.type === 'bytes' && arg.op === 'eq' ? ((lit) => (v: Value) => v === lit)(rhs.value) : compilePredicate(arg.op, rhs, valueInfo(lhs).type, lists);
  const container = pathAccessor(slot, path);
  return (ctx) => {
    const c = container(ctx);
    if (c === undefined) return all;
    if (Array.isArray(c)) {
      for (const v of c as readonly Value[]) if (test(v) !== all) return !all;
      return all;
    }
    if (c instanceof Map) {
      for (const v of c.values()) if (test(v as Value) !== all) return !all;
    }
    return all;
  };
}
