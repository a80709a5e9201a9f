/**
 * The firewall rules a request can match, fast. Each rule's expression is compiled once, exactly as
 * the engine's trace compiles it (`compile(parse(source, { phase }))`), and indexed by its guard
 * (`rule-guard.ts`). For a request, `candidates` looks the request's values up in the index, runs the
 * compiled expression of each rule that passes its guard, and returns the rules that match, in
 * evaluation order. The trace evaluator then gets only those: it would skip every other rule as
 * not matching anyway, so its answer is the same, while a 1,000-rule manifest costs a few dozen
 * closure calls per request instead of a thousand cached look-ups. Request values are converted
 * exactly as the evaluator converts them; a value that does not convert, or an expression that
 * throws, keeps the rule, so the evaluator meets the problem and reports it.
 */
import { compile, convertFieldValue, getField, parse, type CompiledFilter, type ExecutionContext, type FieldValue, type Lists, type Phase, type RequestFields } from '../../expr/index.js';
import { guardOf, keyOf, type Guard } from './rule-guard.js';

interface FieldIndex {
  kind: string;
  byKey: Map<string, number[]>;
  /** Every position guarded on this field. */
  all: number[];
}

/** Rules of one zone, compiled and indexed by guard. */
export class RuleIndex<R> {
  private readonly always: Uint8Array;
  private readonly compiled: CompiledFilter[];
  private readonly fields = new Map<string, FieldIndex>();
  private readonly marks: Uint32Array;
  private stamp = 0;

  /** `expressions[i]` is the expression of `rules[i]`; rules are in evaluation order; `lists`: what `$name` resolves to. */
  constructor(private readonly rules: readonly R[], expressions: readonly string[], phase: Phase, lists?: Lists) {
    this.always = new Uint8Array(rules.length);
    this.marks = new Uint32Array(rules.length);
    this.compiled = expressions.map((source, position) => {
      const expr = parse(source, { phase });
      this.indexGuard(position, guardOf(expr));
      return lists === undefined ? compile(expr) : compile(expr, { lists });
    });
  }

  private indexGuard(position: number, guard: Guard): void {
    if (guard === undefined) {
      this.always[position] = 1;
      return;
    }
    for (const alt of guard) {
      let fi = this.fields.get(alt.field);
      if (fi === undefined) this.fields.set(alt.field, (fi = { kind: getField(alt.field)!.type.kind, byKey: new Map(), all: [] }));
      fi.all.push(position);
      for (const key of alt.keys) {
        const list = fi.byKey.get(key);
        if (list === undefined) fi.byKey.set(key, [position]);
        else if (list[list.length - 1] !== position) list.push(position);
      }
    }
  }

  /** How many rules have a guard (the rest are evaluated for every request). */
  get guarded(): number {
    return this.always.length - this.always.reduce((n, a) => n + a, 0);
  }

  /** The rules whose expression matches `request`, in evaluation order. */
  candidates(request: ExecutionContext): R[] {
    const stamp = this.nextStamp();
    for (const [field, fi] of this.fields) {
      const hit = this.lookup(field, fi, request.request);
      if (hit !== undefined) for (const p of hit) this.marks[p] = stamp;
    }
    const out: R[] = [];
    for (let p = 0; p < this.rules.length; p++) {
      if ((this.always[p] === 1 || this.marks[p] === stamp) && this.matches(p, request)) out.push(this.rules[p]!);
    }
    return out;
  }

  private matches(position: number, request: ExecutionContext): boolean {
    try {
      return this.compiled[position]!(request);
    } catch {
      return true; // let the evaluator meet the error and report it
    }
  }

  private lookup(field: string, fi: FieldIndex, request: RequestFields): readonly number[] | undefined {
    const raw = Object.prototype.hasOwnProperty.call(request, field) ? request[field] : undefined;
    // A missing value makes every comparison on it false: no rule guarded on it can match.
    if (raw === undefined) return undefined;
    let value: unknown;
    try {
      value = convertFieldValue(field, raw as FieldValue, getField(field)!.type, field.includes('headers'));
    } catch {
      return fi.all;
    }
    const key = keyOf(fi.kind, value);
    return key === undefined ? fi.all : fi.byKey.get(key);
  }

  private nextStamp(): number {
    if (this.stamp === 0xffffffff) {
      this.marks.fill(0);
      this.stamp = 0;
    }
    return ++this.stamp;
  }
}
