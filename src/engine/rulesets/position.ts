/**
 * `position` of a single-rule POST or PATCH (custom-rules.md §2.5), read and resolved as pure
 * functions: exactly one of `before` (a rule id, `""` = first), `after` (a rule id, `""` = last) or
 * `index` (1-based; 1..count+1 when adding, 1..count when moving). A position that names a rule the
 * ruleset does not hold, or an index out of range, is refused with 20209 (400) and the field named.
 */
import type { RulePosition } from '../../api/index.js';
import { BodyReader, Problems, quote } from '../body-reader.js';
import { addProblem } from './errors.js';

/** Reads `position` of a request body; undefined when absent or invalid (problems recorded). */
export function readPosition(body: unknown, problems: Problems): RulePosition | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body) || !('position' in body)) return undefined;
  const at = '/position';
  const p = new BodyReader((body as { position: unknown }).position, at, problems, 'a position object');
  if (!p.valid) return undefined;
  p.allowOnly(['before', 'after', 'index']);
  const keys = ['before', 'after', 'index'].filter((k) => p.has(k));
  if (keys.length !== 1) {
    addProblem(problems, 'badPosition', `position takes exactly one of before, after or index; got ${keys.length === 0 ? 'none' : keys.join(', ')}`, at);
    return undefined;
  }
  if (p.has('index')) {
    const index = p.number('index', { min: 1, max: Number.MAX_SAFE_INTEGER });
    if (typeof index !== 'number') return undefined;
    if (!Number.isInteger(index)) return void problems.add(p.at('index'), `index must be a whole number (1-based); got ${index}`);
    return { index };
  }
  const key = keys[0] as 'before' | 'after';
  const id = p.string(key);
  if (id === undefined) return undefined;
  return key === 'before' ? { before: id } : { after: id };
}

/**
 * Where the rule goes in `others` (the ruleset's rule ids without the rule being moved): the
 * 0-based insertion index, or the refusal's message. `total` is the final number of rules.
 */
export function resolvePosition(others: readonly string[], position: RulePosition | undefined, total: number): number | string {
  if (position === undefined) return others.length;
  if ('index' in position) {
    if (position.index > total) return `index ${position.index} is out of range: the ruleset will have ${total} rules (index is 1-based)`;
    return position.index - 1;
  }
  const [key, id] = 'before' in position ? (['before', position.before] as const) : (['after', position.after] as const);
  if (id === '') return key === 'before' ? 0 : others.length;
  const at = others.indexOf(id);
  if (at < 0) return `${key} names rule ${quote(id)}, which is not another rule of this ruleset`;
  return key === 'before' ? at : at + 1;
}
