/**
 * The type checker's rules, used by the parser as it goes (the real engine types while it lexes:
 * the right-hand side is lexed according to the left-hand side's type, so `ip.src == 34` is a
 * network-parse error, not a type error):
 *
 * Operator x type matrix (reference §1.5; zonewall's choice 2 refuses ordering on IPs):
 *
 * | LHS    | eq ne | lt le gt ge | contains | matches | wildcard, strict wildcard | in {…} / $list | bitwise_and | alone |
 * |--------|-------|-------------|----------|---------|---------------------------|----------------|-------------|-------|
 * | Bytes  | bytes | bytes       | bytes    | regex   | pattern                   | yes            | -           | -     |
 * | Int    | int   | int         | -        | -       | -                         | yes            | int         | -     |
 * | Ip     | ip    | -           | -        | -       | -                         | yes            | -           | -     |
 * | Bool   | -     | -           | -        | -       | -                         | -              | -           | yes   |
 *
 * Also here: identifier resolution against the catalog for a phase, with "did you mean"
 * suggestions, and the typing of index steps.
 */
import type { ComparisonOp, IndexStep } from './ast.js';
import { fail } from './errors.js';
import { FUNCTIONS, type FunctionDef } from './functions/catalog.js';
import { FIELDS, inPhase, type FieldDef, type Phase } from './scheme.js';
import { T, typeName, type Type } from './types.js';

/** What a right-hand side must be for a given LHS type and operator. */
export type RhsKind = 'bytes' | 'int' | 'ip' | 'regex' | 'wildcard' | 'set';

const MATRIX: Readonly<Record<string, Partial<Record<ComparisonOp, RhsKind>>>> = {
  Bytes: {
    eq: 'bytes', ne: 'bytes', lt: 'bytes', le: 'bytes', gt: 'bytes', ge: 'bytes',
    contains: 'bytes', matches: 'regex', wildcard: 'wildcard', 'strict wildcard': 'wildcard', in: 'set',
  },
  Int: { eq: 'int', ne: 'int', lt: 'int', le: 'int', gt: 'int', ge: 'int', in: 'set', bitwise_and: 'int' },
  Ip: { eq: 'ip', ne: 'ip', in: 'set' },
};

/** The RHS an operator takes on a type, or undefined when the combination is refused. */
export function rhsKind(lhs: Type, op: ComparisonOp): RhsKind | undefined {
  return MATRIX[lhs.kind]?.[op];
}

/** What a value of type `lhs` can be compared with: its operators, or how to reach a scalar. */
function operatorsHint(lhs: Type, what: string | undefined): string | undefined {
  if (what === undefined) return undefined;
  const ops = MATRIX[lhs.kind];
  if (ops !== undefined) return `${what} is of type ${typeName(lhs)}, which takes ${Object.keys(ops).join(', ')}`;
  if (lhs.kind === 'Array') return `${what} is of type ${typeName(lhs)}: compare its items with any(${what}[*] ...) or all(...), or one item by index (${what}[0])`;
  if (lhs.kind === 'Map') return `${what} is of type ${typeName(lhs)}: compare one entry by key first (${what}["key"])`;
  return `${what} is of type ${typeName(lhs)}: write it alone (${what}, not ${what}), without an operator`;
}

/** Fails with the real engine's UnsupportedOp error; `what` (the left-hand side's text) adds a hint. */
export function unsupportedOp(lhs: Type, start: number, end: number, what?: string): never {
  return fail('UnsupportedOp', `cannot perform this operation on type ${typeName(lhs)}`, start, end, operatorsHint(lhs, what));
}

/** The hint for a comparison operator written after a Bool value (which stands alone). */
export function boolOperatorHint(what: string): string {
  return operatorsHint(T.Bool, what)!;
}

/** A resolved identifier. */
export type Resolved = { kind: 'field'; def: FieldDef } | { kind: 'function'; def: FunctionDef };

/** Resolves a name for a phase, or fails with UnknownIdentifier and a suggestion. */
export function resolveIdentifier(name: string, phase: Phase, start: number, end: number): Resolved {
  const field = FIELDS.get(name);
  const fn = FUNCTIONS.get(name);
  const def = field ?? fn;
  if (def && inPhase(def.phases, phase)) return field ? { kind: 'field', def: field } : { kind: 'function', def: fn! };
  const hint = def
    ? `${field ? 'field' : 'function'} ${name} is not available in phase ${phase}`
    : suggest(name, phase);
  return fail('UnknownIdentifier', 'unknown identifier', start, end, hint);
}

/** `did you mean "x"?` for the closest available name, or undefined when nothing is close. */
export function suggest(name: string, phase: Phase): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  const candidates = [
    ...[...FIELDS.values()].filter((d) => !d.aliasOf && inPhase(d.phases, phase)).map((d) => d.name),
    ...[...FUNCTIONS.values()].filter((d) => inPhase(d.phases, phase)).map((d) => d.name),
  ];
  const lastSegment = name.slice(name.lastIndexOf('.') + 1);
  for (const candidate of candidates) {
    // Ties go to a candidate with the same last segment (`http.request.path` -> `...uri.path`).
    const bonus = candidate.endsWith(`.${lastSegment}`) || candidate === lastSegment ? 0.5 : 0;
    const score = distance(name, candidate, bestScore + 1) - bonus;
    if (score < bestScore) { best = candidate; bestScore = score; }
  }
  const limit = Math.max(2, Math.floor(name.length * 0.4));
  if (best !== undefined && bestScore <= limit) return `did you mean "${best}"?`;
  // `uri.path` for `http.request.uri.path`: a unique candidate ending with the given name.
  const tails = candidates.filter((c) => c.endsWith(`.${name}`));
  return tails.length === 1 ? `did you mean "${tails[0]}"?` : undefined;
}

// Levenshtein distance with an early exit once every cell exceeds `cap`.
function distance(a: string, b: string, cap: number): number {
  if (Math.abs(a.length - b.length) >= cap) return cap;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    let rowMin = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      row.push(v);
      rowMin = Math.min(rowMin, v);
    }
    if (rowMin >= cap) return cap;
    prev = row;
  }
  return prev[b.length]!;
}

/** Rust `Debug` of an index step, as in `cannot access index ArrayIndex(0) for type Bytes`. */
export function indexDebug(step: IndexStep): string {
  if (step.kind === 'index') return `ArrayIndex(${step.value})`;
  if (step.kind === 'key') return `MapKey(${JSON.stringify(step.value)})`;
  return 'MapEach';
}

/** The type after applying one index step, or fails with InvalidIndexAccess. */
export function applyIndex(current: Type, step: IndexStep, start: number, end: number): Type {
  const ok =
    (step.kind === 'index' && current.kind === 'Array') ||
    (step.kind === 'key' && current.kind === 'Map') ||
    (step.kind === 'each' && (current.kind === 'Array' || current.kind === 'Map'));
  if (!ok) fail('InvalidIndexAccess', `cannot access index ${indexDebug(step)} for type ${typeName(current)}`, start, end);
  return (current as { of: Type }).of;
}
