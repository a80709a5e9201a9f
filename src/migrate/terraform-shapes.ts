/**
 * The shapes of the Terraform attributes the conversion reads, checked before it reads them. The
 * readers of `terraform-attributes.ts` are lenient on purpose (provider versions store unset values
 * as `""`, `0`, `null` or a one-element list), so a value of the wrong type (`rules = "nope"`) would
 * read as "unset" and the resource would convert to nothing, silently, and still be listed for
 * `terraform state rm`. A state Terraform wrote never holds such a value: it is refused here, with
 * the resource address and the field, before anything is converted or written.
 */
import { ZonewallError } from '../errors.js';
import type { TerraformKind } from './terraform-converted.js';
import type { TfResource } from './terraform-state.js';

/**
 * A field's shape: `string` (or a number, which reads as its text), `number` (or a numeric string),
 * `bool`, `list` (a JSON array), `block` (an object, or a list of objects: an SDKv2 nested block),
 * `blocks` (a list of objects), `map` (an object), `text-or-block` (v4's `action = "block"` or v5's
 * `action = { mode = ... }`). `null` is always allowed (unset).
 */
type Shape = 'string' | 'number' | 'bool' | 'list' | 'block' | 'blocks' | 'map' | 'text-or-block';

/** The fields of a ruleset's rule (any phase) the conversion reads. */
const RuleFields: Readonly<Record<string, Shape>> = {
  id: 'string', ref: 'string', action: 'string', expression: 'string', description: 'string', enabled: 'bool',
  action_parameters: 'block', logging: 'block', ratelimit: 'block',
};

/** The fields of each kind's resource the conversion reads. */
const ResourceFields: Readonly<Partial<Record<TerraformKind, Readonly<Record<string, Shape>>>>> = {
  zone: { id: 'string', zone: 'string', name: 'string', plan: 'text-or-block' },
  filter: { id: 'string', zone_id: 'string', expression: 'string', description: 'string', ref: 'string', paused: 'bool' },
  firewall_rule: {
    id: 'string', zone_id: 'string', action: 'text-or-block', filter_id: 'string', filter: 'block', priority: 'number',
    products: 'list', description: 'string', ref: 'string', paused: 'bool',
  },
  ruleset: { id: 'string', zone_id: 'string', account_id: 'string', phase: 'string', kind: 'string', name: 'string', rules: 'blocks' },
  rate_limit: {
    id: 'string', zone_id: 'string', threshold: 'number', period: 'number', action: 'block', match: 'block', correlate: 'block',
    bypass_url_patterns: 'list', bypass: 'blocks', description: 'string', disabled: 'bool',
  },
  list: { id: 'string', account_id: 'string', name: 'string', kind: 'string', description: 'string', item: 'blocks', items: 'blocks' },
  list_item: { id: 'string', account_id: 'string', list_id: 'string', ip: 'string', asn: 'number', comment: 'string', hostname: 'block', redirect: 'block' },
  waf_package: { id: 'string', zone_id: 'string', package_id: 'string', sensitivity: 'string', action_mode: 'string' },
  waf_group: { id: 'string', zone_id: 'string', group_id: 'string', package_id: 'string', mode: 'string' },
  waf_rule: { id: 'string', zone_id: 'string', rule_id: 'string', group_id: 'string', package_id: 'string', mode: 'string' },
  waf_override: { id: 'string', zone_id: 'string', override_id: 'string', urls: 'list' },
};

/** What a shape is called in an error. */
const ShapeNames: Readonly<Record<Shape, string>> = {
  string: 'a string', number: 'a number', bool: 'true or false', list: 'a list', block: 'a block (an object)',
  blocks: 'a list of blocks (objects)', map: 'a map (an object)', 'text-or-block': 'a string or a block (an object)',
};

function isObject(v: unknown): boolean {
  return v !== null && typeof v === 'object' && !Array.isArray(v);
}

/** Whether a value has the shape (null: unset, always fits). */
function fits(value: unknown, shape: Shape): boolean {
  if (value === null || value === undefined) return true;
  switch (shape) {
    case 'string': return typeof value === 'string' || typeof value === 'number';
    case 'number': return typeof value === 'number' || (typeof value === 'string' && (value === '' || Number.isFinite(Number(value))));
    case 'bool': return typeof value === 'boolean';
    case 'list': return Array.isArray(value);
    case 'map': return isObject(value);
    case 'blocks': return Array.isArray(value) && value.every((v) => v === null || isObject(v));
    case 'block': return isObject(value) || (Array.isArray(value) && value.length <= 1 && value.every((v) => v === null || isObject(v)));
    case 'text-or-block': return typeof value === 'string' || fits(value, 'block');
  }
}

/** A short description of what a value is, for the error. */
function describe(value: unknown): string {
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (isObject(value)) return 'an object';
  const text = JSON.stringify(value);
  return `${typeof value} ${text.length > 40 ? `${text.slice(0, 40)}...` : text}`;
}

/** The first field of `attrs` that does not fit its shape, as `[path, shape, value]`. */
function misfit(attrs: Record<string, unknown>, fields: Readonly<Record<string, Shape>>, prefix: string): [string, Shape, unknown] | undefined {
  for (const [field, shape] of Object.entries(fields)) {
    const value = attrs[field];
    if (!fits(value, shape)) return [`${prefix}${field}`, shape, value];
  }
  return undefined;
}

/**
 * Refuses the first resource of a kind zonewall converts whose attributes (and, for rulesets, each
 * rule's fields) are not of the shapes a Terraform provider writes: one line naming `source` (the
 * state file), the resource address and the field.
 *
 * @example checkTerraformShapes(parseTerraformState(text, file).resources, file, kindOf)
 */
export function checkTerraformShapes(resources: readonly TfResource[], source: string | undefined, kindOf: (type: string) => TerraformKind | undefined): void {
  for (const r of resources) {
    const kind = kindOf(r.type);
    const fields = kind === undefined ? undefined : ResourceFields[kind];
    if (fields === undefined) continue;
    let bad = misfit(r.attributes, fields, '');
    if (bad === undefined && kind === 'ruleset' && Array.isArray(r.attributes.rules)) {
      r.attributes.rules.some((rule, i) => (bad = rule === null ? undefined : misfit(rule as Record<string, unknown>, RuleFields, `rules[${i}].`)) !== undefined);
    }
    if (bad !== undefined) {
      const [field, shape, value] = bad;
      throw new ZonewallError('ERR_USAGE', `${source !== undefined ? `${source}: ` : ''}${r.address}: field ${field} must be ${ShapeNames[shape]}, not ${describe(value)}: this is not what the Terraform provider writes; fix the state (or pass the output of \`terraform show -json\`) and run again`);
    }
  }
}
