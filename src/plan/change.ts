/**
 * One planned change to one object: which kind of object, which ref and id, the action, why
 * (`reason`, from a documented union), its compared attributes before and after, and the API writes
 * that carry it out. Changes are plain data (after Terraform's `plans/changes.go`): they serialise
 * to the JSON plan unchanged.
 */
import type { Action } from './action.js';
import type { Write } from './write.js';

/**
 * The resource kinds of the objects a plan manages (`Change.kind`), in the words of the v4 API:
 * each kind registers its own (`declare module` on `ResourceKindRegistry`, in `<kind>/index.ts`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface ResourceKindRegistry {}

/** One kind of managed object. */
export type ResourceKind = keyof ResourceKindRegistry & string;

/**
 * Why a change is planned. Every change has one reason:
 *
 * | reason | action | meaning |
 * |---|---|---|
 * | `new` | create | in the manifest, not in the zone |
 * | `changed` | update | compared attributes differ |
 * | `renamed` | update | the manifest key changed (`renamed_from`); the object and its id are kept |
 * | `reordered` | update | only the evaluation order changed (a priority, or the place in an ordered list of rules: `position` shows where it moves) |
 * | `repointed` | update | a firewall rule now uses another filter |
 * | `filter-replaced` | update | a firewall rule moves to the new filter that replaces its simplified-flow filter |
 * | `adopted` | update | an unmanaged object with the same expression is taken over (`--prune`) |
 * | `locked-filter` | replace | a simplified-flow filter cannot be PUT: a new filter is created instead |
 * | `recreated-with-filter` | replace | a rule is deleted and created again so that its simplified-flow filter can be recreated with the same expression |
 * | `not-in-manifest` | delete | managed (has a ref) but no longer in the manifest |
 * | `duplicate-ref` | delete | a second live object carries a ref that another one already holds |
 * | `prune` | delete | unmanaged (no ref), deleted because of `--prune` |
 * | `follows-rule` | delete | a simplified-flow filter the service deletes with (or when repointing) its rule; no API call |
 * | `migration` | update | a migration moves on to its next state |
 * | `reset-to-default` | update | an object the API cannot delete, no longer in the manifest, goes back to its default |
 * | `in-sync` | no-op | nothing differs |
 */
export const ChangeReasons = [
  'new',
  'changed',
  'renamed',
  'reordered',
  'repointed',
  'filter-replaced',
  'adopted',
  'locked-filter',
  'recreated-with-filter',
  'not-in-manifest',
  'duplicate-ref',
  'prune',
  'follows-rule',
  'migration',
  'reset-to-default',
  'in-sync',
] as const;

/** Why a change is planned. */
export type ChangeReason = (typeof ChangeReasons)[number];

/** A JSON value of a compared attribute. */
export type AttributeValue = string | number | boolean | null | AttributeValue[] | { [key: string]: AttributeValue };

/** Compared attributes of an object, in display order. */
export type Attributes = Record<string, AttributeValue>;

/** One planned change. */
export interface Change {
  kind: ResourceKind;
  action: Action;
  reason: ChangeReason;
  /** The manifest key (after a rename); for deletions the live ref, `''` for an unmanaged object. */
  ref: string;
  /** The live id; absent for a create. */
  id?: string;
  /** Compared attributes as they are in the zone (null for a create, and for a no-op). */
  before: Attributes | null;
  /** Compared attributes as the manifest wants them (null for a delete, and for a no-op). */
  after: Attributes | null;
  /** Names of the attributes that differ (every attribute for a create or delete). */
  changed: string[];
  /** The API writes that carry the change out, in order; empty for `no-op` and `follows-rule`. */
  writes: Write[];
  /** A short note shown under the change (e.g. why a replace is unavoidable). */
  note?: string;
}

/**
 * The empty `changed` and `writes` lists of every no-op change: one frozen array, never written to
 * (a write throws). Iterating a frozen array with `for...of` allocates, so hot loops over a plan's
 * writes skip changes without any.
 */
const nothing = Object.freeze([]) as unknown as never[];

/**
 * A no-op change. Its attributes are left out (null): a zone at the enterprise quota has thousands
 * of them, and nobody reviews what did not change. They share their empty lists (frozen).
 */
export function noOpChange(kind: ResourceKind, ref: string, id: string | undefined): Change {
  return id !== undefined
    ? { kind, action: 'no-op', reason: 'in-sync', ref, id, before: null, after: null, changed: nothing, writes: nothing }
    : { kind, action: 'no-op', reason: 'in-sync', ref, before: null, after: null, changed: nothing, writes: nothing };
}

/** Names of the attributes whose values differ between `before` and `after`. */
export function changedAttributes(before: Attributes, after: Attributes): string[] {
  const names = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...names].filter((n) => !sameValue(before[n] ?? null, after[n] ?? null));
}

/** Deep equality of two attribute values (key order of objects does not matter). */
export function sameValue(a: AttributeValue, b: AttributeValue): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((v, i) => sameValue(v, b[i]!));
  }
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => k in b && sameValue(a[k]!, b[k]!));
}

/** How findings name the object of a change: `firewall_rule "block-bots"` (the id when it has no ref). */
export function changeLabel(c: Change): string {
  return `${c.kind} "${c.ref !== '' ? c.ref : c.id}"`;
}
