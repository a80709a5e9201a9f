/**
 * Reading firewall rule bodies: create (filter inline or by reference), full update (PUT) and
 * partial update (PATCH). Every problem is collected with its JSON pointer. A rule's `filter` is
 * a reference when it has an `id` (the filter's other fields, echoed from a GET, are ignored:
 * filters change through the filters API); otherwise it is an inline filter (simplified flow,
 * create only).
 */
import { BodyReader, type Problems } from '../body-reader.js';
import { FilterCreateFields } from '../filters/constants.js';
import { readFilterFields, type FilterInput } from '../filters/validate.js';
import {
  BypassProducts, FilterReferenceFields, FirewallActions, FirewallRuleLimits, RuleCreateFields, RuleUpdateFields,
  type BypassProduct, type FirewallAction,
} from './constants.js';
import type { StoredFirewallRuleFields } from './store.js';

/** The filter of a rule body: by id, or inline (create only). */
export type FilterSpec = { kind: 'ref'; id: string } | { kind: 'inline'; input: FilterInput };

/** A valid rule body of a create. */
export interface RuleCreateInput extends Omit<StoredFirewallRuleFields, 'filterId'> {
  filter: FilterSpec;
  pointer: string;
}

/** A partial update: the fields given (filter by id only). */
export type RulePatch = Partial<StoredFirewallRuleFields>;

/** Reads one rule of a create; undefined when invalid (problems recorded). */
export function readRuleCreate(value: unknown, pointer: string, problems: Problems): RuleCreateInput | undefined {
  const r = new BodyReader(value, pointer, problems, 'a firewall rule object');
  if (!r.valid) return undefined;
  r.allowOnly(RuleCreateFields);
  const before = problems.list.length;
  const action = r.oneOf('action', FirewallActions, { required: true });
  const filter = readFilterSpec(r, true);
  const rest = readOptionalFields(r);
  if (action === undefined || filter === undefined || problems.list.length > before) return undefined;
  const fields = { action, priority: rest.priority ?? null, paused: rest.paused ?? false, description: rest.description ?? '', ref: rest.ref ?? '', products: rest.products ?? [] };
  if (!shapeOk(fields, r)) return undefined;
  return { ...fields, filter, pointer };
}

/** Reads one rule of a PUT (full replacement; the filter by id). Returns the body's `id`, if any. */
export function readRuleUpdate(value: unknown, pointer: string, problems: Problems): { id?: string; fields: StoredFirewallRuleFields } | undefined {
  const r = new BodyReader(value, pointer, problems, 'a firewall rule object');
  if (!r.valid) return undefined;
  r.allowOnly(RuleUpdateFields);
  const before = problems.list.length;
  const id = r.string('id');
  const action = r.oneOf('action', FirewallActions, { required: true });
  const filter = readFilterSpec(r, false);
  const rest = readOptionalFields(r);
  r.string('created_on');
  r.string('modified_on');
  if (action === undefined || filter?.kind !== 'ref' || problems.list.length > before) return undefined;
  const fields: StoredFirewallRuleFields = {
    filterId: filter.id, action, priority: rest.priority ?? null, paused: rest.paused ?? false,
    description: rest.description ?? '', ref: rest.ref ?? '', products: rest.products ?? [],
  };
  if (!shapeOk(fields, r)) return undefined;
  return id === undefined ? { fields } : { id, fields };
}

/** Reads one rule of a PATCH: only the fields given. Returns the body's `id`, if any. */
export function readRulePatch(value: unknown, pointer: string, problems: Problems): { id?: string; patch: RulePatch } | undefined {
  const r = new BodyReader(value, pointer, problems, 'a firewall rule object');
  if (!r.valid) return undefined;
  r.allowOnly(RuleUpdateFields);
  const before = problems.list.length;
  const id = r.string('id');
  const patch: RulePatch = {};
  const action = r.oneOf('action', FirewallActions);
  if (action !== undefined) patch.action = action;
  if (r.has('filter')) {
    const filter = readFilterSpec(r, false);
    if (filter?.kind === 'ref') patch.filterId = filter.id;
  }
  Object.assign(patch, dropUndefined(readOptionalFields(r)));
  r.string('created_on');
  r.string('modified_on');
  if (problems.list.length > before) return undefined;
  return id === undefined ? { patch } : { id, patch };
}

/** Checks the cross-field rules of a complete rule (after a PATCH is merged); false if refused. */
export function shapeOk(fields: Pick<StoredFirewallRuleFields, 'action' | 'products'>, r: BodyReader): boolean {
  if (fields.action === 'bypass' && fields.products.length === 0) {
    r.problems.add(r.at('products'), `a bypass rule needs products: the products it skips (${BypassProducts.join(', ')})`);
    return false;
  }
  if (fields.action !== 'bypass' && fields.products.length > 0) {
    r.problems.add(r.at('products'), `products only apply to the bypass action; this rule's action is ${fields.action}`);
    return false;
  }
  return true;
}

function readOptionalFields(r: BodyReader): { priority?: number | null; paused?: boolean; description?: string; ref?: string; products?: BypassProduct[] } {
  const priority = r.number('priority', { min: FirewallRuleLimits.priorityMin, max: FirewallRuleLimits.priorityMax, nullable: true });
  const paused = r.boolean('paused');
  const description = r.string('description', { maxLength: FirewallRuleLimits.description });
  const ref = r.string('ref', { maxLength: FirewallRuleLimits.ref });
  const products = r.stringSet('products', BypassProducts);
  return { priority, paused, description, ref, products } as ReturnType<typeof readOptionalFields>;
}

function readFilterSpec(r: BodyReader, allowInline: boolean): FilterSpec | undefined {
  if (!r.has('filter')) {
    r.problems.add(r.at('filter'), allowInline
      ? 'filter is required: a filter object with an expression (created with the rule) or {"id": ...} of an existing filter'
      : 'filter is required: {"id": ...} of an existing filter');
    return undefined;
  }
  const f = new BodyReader(r.raw('filter'), r.at('filter'), r.problems, 'a filter object');
  if (!f.valid) return undefined;
  if (f.has('id')) {
    f.allowOnly(FilterReferenceFields);
    const id = f.string('id', { nonEmpty: true });
    return id === undefined ? undefined : { kind: 'ref', id };
  }
  if (!allowInline) {
    r.problems.add(`${f.pointer}/id`, 'filter.id is required: filters change through the filters API, not inside a firewall rule update');
    return undefined;
  }
  f.allowOnly(FilterCreateFields);
  const input = readFilterFields(f);
  return input === undefined ? undefined : { kind: 'inline', input };
}

function dropUndefined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** True for a firewall action string. */
export function isFirewallAction(value: string): value is FirewallAction {
  return (FirewallActions as readonly string[]).includes(value);
}
