/**
 * The plan of an account's lists: the account manifest against the live lists, pure. Lists are
 * matched by name (name and kind are immutable on the service), items by value after normalisation,
 * so a list read back plans nothing. A change of items is written as items, never as a replace of
 * the whole list: the items to add and those whose comment changed in one `POST …/items` (which
 * appends, and overwrites an existing item's comment), the items to remove in one
 * `DELETE …/items` by id. Lists are created and changed before the zones' rules are written, and
 * deleted after them (`writes.before` / `writes.after`).
 */
import { listItemKey, type ListItemValue, type ListKind } from '../../api/index.js';
import type { DesiredAccount, DesiredListItem, SourceLocation } from '../../manifest/index.js';
import type { Finding } from '../finding.js';
import { finding } from './findings.js';
import { itemBody, type LiveAccount, type LiveList, type LiveListItem } from './live.js';
import type { ListItemBody } from '../../api/index.js';

/** An item whose comment, or `exclude_exact_hostname` (hostname `*.` items), changes. */
export interface ListCommentChange {
  value: ListItemValue;
  before?: string;
  after?: string;
  /** The desired `exclude_exact_hostname: false` (absent: the default, true), sent with the item. */
  excludeExact?: false;
  /** When `exclude_exact_hostname` changes: the live value. */
  excludeExactBefore?: boolean;
}

/** The change of one list. */
export interface ListChange {
  action: 'create' | 'update' | 'delete' | 'no-op';
  name: string;
  kind: ListKind;
  /** The live list's id (absent for a create). */
  id?: string;
  /** When the description changes. */
  description?: { before: string; after: string };
  /** Items to add (in the manifest's order). */
  added: DesiredListItem[];
  /** Items kept whose comment or `exclude_exact_hostname` changes. */
  commented: ListCommentChange[];
  /** Live items to remove. */
  removed: LiveListItem[];
  /** Items before and after. */
  items: { before: number; after: number };
  location?: SourceLocation;
}

/** One write of a lists plan. */
export type ListWrite =
  | { op: 'create-list'; name: string; kind: ListKind; description: string }
  | { op: 'update-list'; name: string; id: string; description: string }
  /** `id` is absent for a list the same apply creates: the create's answer gives it. */
  | { op: 'add-items'; name: string; id?: string; items: ListItemBody[] }
  | { op: 'remove-items'; name: string; id: string; items: { id: string }[] }
  | { op: 'delete-list'; name: string; id: string };

/** Counts of a lists plan. */
export interface ListsSummary {
  create: number;
  update: number;
  delete: number;
  unchanged: number;
  itemsAdded: number;
  itemsRemoved: number;
  commentsChanged: number;
  /** Items whose `exclude_exact_hostname` changes (hostname lists). */
  hostnameFlagsChanged: number;
}

/** The plan of an account's lists. */
export interface ListsPlan {
  account: { name: string; id?: string };
  manifest: string;
  /** By name: the manifest's lists in its order, then the live lists it deletes. */
  changes: ListChange[];
  /** Writes before the zones' rules (creates, descriptions, items) and after them (deletes). */
  writes: { before: ListWrite[]; after: ListWrite[] };
  findings: Finding[];
  summary: ListsSummary;
  /**
   * The fingerprint of the live lists the plan was computed on (`accountFingerprint`): recorded in a
   * saved plan (`plan --out`), checked again by `apply FILE`.
   */
  fingerprint?: string;
}

/** Options of a lists plan. */
export interface ListsPlanOptions {
  /** Percentage of a list's items one plan may remove without `--force` (default 30)... */
  removeThreshold?: number;
  /** ...once the list has at least this many items (default 10). */
  minItems?: number;
  /**
   * The rules that will still use each list once the run is applied, as the run's zone manifests
   * say (`zone example.com custom_rules.allow-office`). Live rules the manifests do not manage (other
   * zones, sections a manifest leaves alone) are not known here: the service refuses their list's delete.
   */
  references?: ReadonlyMap<string, readonly string[]>;
}

/** Defaults of the item guard. */
export const ListSafetyDefaults = { removeThreshold: 30, minItems: 10 } as const;

/**
 * Diffs the account manifest against the live account.
 * @example diffLists(account, { id, name, lists: [] }).summary.create // every list of the manifest
 */
export function diffLists(desired: DesiredAccount, live: LiveAccount | undefined, options: ListsPlanOptions = {}): ListsPlan {
  const threshold = options.removeThreshold ?? ListSafetyDefaults.removeThreshold;
  const minItems = options.minItems ?? ListSafetyDefaults.minItems;
  const liveByName = new Map((live?.lists ?? []).map((l) => [l.name, l]));
  const changes: ListChange[] = [];
  const before: ListWrite[] = [];
  const after: ListWrite[] = [];
  const findings: Finding[] = [];
  for (const list of desired.lists) {
    const current = liveByName.get(list.name);
    liveByName.delete(list.name);
    if (current === undefined) {
      changes.push({ action: 'create', name: list.name, kind: list.kind, added: list.items, commented: [], removed: [], items: { before: 0, after: list.items.length }, location: list.location });
      before.push({ op: 'create-list', name: list.name, kind: list.kind, description: list.description });
      if (list.items.length > 0) before.push({ op: 'add-items', name: list.name, items: list.items.map((i) => itemBody(list.kind, i.value, i.comment, i.excludeExact)) });
      continue;
    }
    if (current.kind !== list.kind) {
      findings.push(finding('list-kind-changed', `list ${list.name} is a ${current.kind} list on the service, the manifest says ${list.kind}: a list's kind cannot change; give the new list another name`, { ref: list.name, location: list.location }));
      continue;
    }
    const change = diffItems(list.items, current, list.location);
    if (current.description !== list.description) change.description = { before: current.description, after: list.description };
    const changed = change.description !== undefined || change.added.length + change.commented.length + change.removed.length > 0;
    change.action = changed ? 'update' : 'no-op';
    changes.push(change);
    if (change.description !== undefined) before.push({ op: 'update-list', name: list.name, id: current.id, description: list.description });
    const posted = [...change.added.map((i) => itemBody(list.kind, i.value, i.comment, i.excludeExact)), ...change.commented.map((c) => itemBody(list.kind, c.value, c.after, c.excludeExact))];
    if (posted.length > 0) before.push({ op: 'add-items', name: list.name, id: current.id, items: posted });
    if (change.removed.length > 0) before.push({ op: 'remove-items', name: list.name, id: current.id, items: change.removed.map((i) => ({ id: i.id })) });
    const n = current.items.length;
    if (n >= minItems && change.removed.length * 100 > n * threshold) {
      findings.push(finding('removes-many-items',
        `list ${list.name}: the plan removes ${change.removed.length} of its ${n} items (${Math.round((change.removed.length * 100) / n)}%, more than the ${threshold}% threshold); apply with --force if this is intended`,
        { ref: list.name, location: list.location }));
    }
  }
  for (const current of liveByName.values()) {
    // Redirect lists belong to Bulk Redirects, not to expressions: not this manifest's to delete.
    if (current.kind === 'redirect') continue;
    changes.push({ action: 'delete', name: current.name, kind: current.kind, id: current.id, added: [], commented: [], removed: current.items, items: { before: current.items.length, after: 0 } });
    after.push({ op: 'delete-list', name: current.name, id: current.id });
    const users = options.references?.get(current.name) ?? [];
    if (users.length > 0) {
      findings.push(finding('list-referenced', `list ${current.name} cannot be deleted: ${users.slice(0, 5).join(', ')}${users.length > 5 ? `, and ${users.length - 5} more` : ''} still use${users.length === 1 ? 's' : ''} it; remove $${current.name} from ${users.length === 1 ? 'that rule' : 'those rules'} first`, { ref: current.name }));
    } else {
      findings.push(finding('deletes-list', `list ${current.name} (${current.kind}, ${current.items.length} item${current.items.length === 1 ? '' : 's'}) is deleted; apply with --force if this is intended`, { ref: current.name }));
    }
  }
  const summary: ListsSummary = { create: 0, update: 0, delete: 0, unchanged: 0, itemsAdded: 0, itemsRemoved: 0, commentsChanged: 0, hostnameFlagsChanged: 0 };
  for (const c of changes) {
    if (c.action === 'no-op') summary.unchanged++;
    else summary[c.action]++;
    summary.itemsAdded += c.added.length;
    summary.itemsRemoved += c.removed.length;
    for (const k of c.commented) {
      if ((k.before ?? '') !== (k.after ?? '')) summary.commentsChanged++;
      if (k.excludeExactBefore !== undefined) summary.hostnameFlagsChanged++;
    }
  }
  const account: ListsPlan['account'] = live === undefined ? { name: desired.account } : { name: live.name, id: live.id };
  return { account, manifest: desired.file, changes, writes: { before, after }, findings, summary };
}

/** The items of one kept list: a Set of the live values, one pass over each side. */
function diffItems(items: readonly DesiredListItem[], current: LiveList, location: SourceLocation): ListChange {
  const live = new Map<string, LiveListItem>();
  for (const item of current.items) live.set(listItemKey(item.value), item);
  const added: DesiredListItem[] = [];
  const commented: ListCommentChange[] = [];
  for (const item of items) {
    const key = listItemKey(item.value);
    const was = live.get(key);
    if (was === undefined) {
      added.push(item);
      continue;
    }
    live.delete(key);
    const flagChanged = (was.excludeExact ?? true) !== (item.excludeExact ?? true);
    if ((was.comment ?? '') !== (item.comment ?? '') || flagChanged) {
      const c: ListCommentChange = { value: item.value };
      if (was.comment !== undefined) c.before = was.comment;
      if (item.comment !== undefined) c.after = item.comment;
      if (item.excludeExact === false) c.excludeExact = false;
      if (flagChanged) c.excludeExactBefore = was.excludeExact ?? true;
      commented.push(c);
    }
  }
  return {
    action: 'no-op', name: current.name, kind: current.kind, id: current.id, added, commented, removed: [...live.values()],
    items: { before: current.items.length, after: items.length }, location,
  };
}
