/**
 * The shapes of the v4 answers the provider reads, checked where they arrive: a service (a proxy, a
 * mock, another version) whose `result` is not what zonewall reads (a list that is not an array, a
 * rule without `id`, a filter whose `expression` is a number) is one `ProviderError` line naming the
 * call and the field (`the API answered GET /zones/Z/firewall/rules with a result zonewall cannot
 * read: result[3].id is missing`), not a TypeError or a wrong plan further on. Only the fields
 * zonewall reads are checked, and only their type: extra fields and values are the service's.
 */
import { ProviderError } from './errors.js';

/**
 * A field's shape: a JSON type (`?` suffix: may be absent or null), an object's fields,
 * `[shape]`: an array whose every item has that shape, or `['?', shape]`: the same, or absent/null.
 */
export type AnswerShape = 'string' | 'string?' | 'number' | 'number?' | 'boolean' | 'boolean?' | 'object' | 'object?' | 'array' | 'array?' | ObjectShape | readonly [AnswerShape] | readonly ['?', AnswerShape];
/** An object's fields. */
export interface ObjectShape { readonly [field: string]: AnswerShape }

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

/** The first place where `value` does not have `shape`, as `path: what is wrong`, or undefined. */
function misfit(value: unknown, shape: AnswerShape, path: string): string | undefined {
  if (typeof shape === 'string') {
    const optional = shape.endsWith('?');
    const base = optional ? shape.slice(0, -1) : shape;
    if (value === undefined || value === null) return optional ? undefined : value === undefined ? `${path} is missing` : `${path} is null, expected ${base === 'array' ? 'a list' : `a ${base}`}`;
    const ok = base === 'array' ? Array.isArray(value) : base === 'object' ? typeof value === 'object' && !Array.isArray(value) : typeof value === base;
    return ok ? undefined : `${path} is ${typeOf(value)}, expected ${base === 'array' ? 'a list' : base === 'object' ? 'an object' : `a ${base}`}`;
  }
  if (Array.isArray(shape)) {
    const optional = shape.length === 2;
    if (optional && (value === undefined || value === null)) return undefined;
    if (!Array.isArray(value)) return value === undefined ? `${path} is missing` : `${path} is ${typeOf(value)}, expected a list`;
    const item = (optional ? shape[1] : shape[0]) as AnswerShape;
    for (let i = 0; i < value.length; i++) {
      const bad = misfit(value[i], item, `${path}[${i}]`);
      if (bad !== undefined) return bad;
    }
    return undefined;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value === undefined ? `${path} is missing` : `${path} is ${typeOf(value)}, expected an object`;
  const record = value as Record<string, unknown>;
  for (const field in shape) {
    const bad = misfit(record[field], (shape as ObjectShape)[field]!, `${path}.${field}`);
    if (bad !== undefined) return bad;
  }
  return undefined;
}

/**
 * Throws a `ProviderError` naming `call` (`GET /zones/...`) and the first field of `value` (at
 * `path`, `result` by default) that does not have `shape`; returns `value` typed as the caller reads it.
 *
 * @example checkAnswer<LiveFilter[]>('GET /zones/Z/filters', result, [LiveShapes.filter])
 */
export function checkAnswer<T>(call: string, value: unknown, shape: AnswerShape, path = 'result'): T {
  const bad = misfit(value, shape, path);
  if (bad !== undefined) throw new ProviderError(`the API answered ${call} with a result zonewall cannot read: ${bad}`);
  return value as T;
}

/** A ruleset rule: what the phase readers and the planners read of it. */
const rule: ObjectShape = { id: 'string', action: 'string', expression: 'string', enabled: 'boolean?', action_parameters: 'object?' };

/** The shapes of what the provider reads, by object. */
export const AnswerShapes = {
  /** Any item of a paged list: the pages are joined by id. */
  listItem: { id: 'string' },
  zone: { id: 'string', name: 'string', plan: 'object?', account: 'object?' },
  zoneAccount: { account: { id: 'string' } },
  filter: { id: 'string', expression: 'string', paused: 'boolean?' },
  firewallRule: { id: 'string', action: 'string', priority: 'number?', paused: 'boolean?', products: 'array?', filter: { id: 'string' } },
  /** A ruleset as an entry point's read and every rule write answer it (an empty one may leave out `rules`). */
  ruleset: { id: 'string', rules: ['?', rule] },
  pageRule: { id: 'string', targets: 'array', actions: 'array', priority: 'number', status: 'string' },
  wafPackage: { id: 'string', name: 'string?', detection_mode: 'string?' },
  wafGroup: { id: 'string', mode: 'string' },
  wafRule: { id: 'string', mode: 'string', group: { id: 'string' } },
  wafOverride: { id: 'string', urls: 'array?' },
  account: { id: 'string', name: 'string' },
  migrationStatus: { old_waf_status: 'string?', new_waf_status: 'string?', waf_state: 'string?', migration_state: 'string?' },
  /** The proposed configuration: an entry point body (its rules have no ids yet). */
  migrationConfig: { rules: ['?', { action: 'string', expression: 'string', action_parameters: 'object?' }] },
  migrationCheck: { compatible: 'boolean?', reasons: ['?', { message: 'string' }] },
  list: { id: 'string', name: 'string', kind: 'string' },
} as const satisfies Record<string, AnswerShape>;
