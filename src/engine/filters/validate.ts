/**
 * Reading filter bodies (create, update, and the inline filter of a firewall rule) and refusing
 * duplicate expressions. Every problem of a request is collected with its JSON pointer; expression
 * errors carry the engine's `Filter parsing error (L:C)` text.
 */
import { apiMessage } from '../api-errors.js';
import { BodyReader, type Problems } from '../body-reader.js';
import { checkExpression, type CheckedExpression } from '../expression.js';
import type { Sql } from '../sql.js';
import type { ApiMessage } from '../types.js';
import { FilterCreateFields, FilterLimits, FilterUpdateFields } from './constants.js';
import { findByCanonical } from './store.js';

/** A valid filter body. */
export interface FilterInput {
  expression: string;
  paused: boolean;
  description: string;
  ref: string;
  checked: CheckedExpression;
  /** JSON pointer of the body object, for later refusals (duplicates). */
  pointer: string;
}

/**
 * Reads one filter body. `update` also allows the read-only fields a client echoes from a GET;
 * the `id` found (if any) is returned for the caller to check. Undefined when invalid (problems
 * recorded).
 */
export function readFilter(value: unknown, pointer: string, problems: Problems, mode: 'create' | 'update'): { input: FilterInput; id?: string } | undefined {
  const r = new BodyReader(value, pointer, problems, 'a filter object');
  if (!r.valid) return undefined;
  r.allowOnly(mode === 'create' ? FilterCreateFields : FilterUpdateFields);
  const input = readFilterFields(r);
  const id = mode === 'update' ? r.string('id') : undefined;
  if (mode === 'update') r.boolean('locked');
  if (input === undefined) return undefined;
  return id === undefined ? { input } : { input, id };
}

/** Reads expression, paused, description and ref of a filter object (also used for inline filters). */
export function readFilterFields(r: BodyReader): FilterInput | undefined {
  const before = r.problems.list.length;
  const expression = r.string('expression', { required: true, maxLength: FilterLimits.expression, nonEmpty: true });
  const paused = r.boolean('paused') ?? false;
  const description = r.string('description', { maxLength: FilterLimits.description }) ?? '';
  const ref = r.string('ref', { maxLength: FilterLimits.ref }) ?? '';
  if (expression === undefined) return undefined;
  const checked = checkExpression(expression, r.at('expression'));
  if (!('canonical' in checked)) {
    r.problems.list.push(checked);
    return undefined;
  }
  if (r.problems.list.length > before) return undefined;
  return { expression, paused, description, ref, checked, pointer: r.pointer };
}

/**
 * Refusals for filters whose expression duplicates an existing filter's (10102 with `meta.id`, as
 * the real service) or another filter of the same request. `replacing` lists the ids the request
 * rewrites: their current expressions do not count as existing.
 */
export function duplicateProblems(sql: Sql, inputs: readonly FilterInput[], replacing: ReadonlySet<string> = new Set()): ApiMessage[] {
  const out: ApiMessage[] = [];
  const seen = new Map<string, string>();
  for (const input of inputs) {
    const canonical = input.checked.canonical;
    const earlier = seen.get(canonical);
    if (earlier !== undefined) {
      out.push(apiMessage('duplicateFilter', `config duplicates an already existing config: the filter at ${input.pointer} has the same expression as the filter at ${earlier}`, { pointer: `${input.pointer}/expression` }));
      continue;
    }
    seen.set(canonical, input.pointer);
    const existing = findByCanonical(sql, canonical);
    if (existing !== undefined && !replacing.has(existing.id)) {
      out.push(apiMessage('duplicateFilter', `config duplicates an already existing config: filter ${existing.id} has the same expression`, { pointer: `${input.pointer}/expression`, meta: { id: existing.id } }));
    }
  }
  return out;
}
