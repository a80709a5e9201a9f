/**
 * The account manifest (`account:` and `lists:`): YAML with positions, its JSON Schema
 * (`schemas/account-manifest.schema.json`), then what the schema cannot state: every item valid for
 * its list's kind and in normal form (`normalizeListItem`, shared with the engine), no two items of
 * a list equal after normalisation, and the plan's quotas (lists, items across the account,
 * hostname and ASN lists on enterprise only). Every issue is placed at `file:line:column`.
 */
import { readFileSync } from 'node:fs';
import type { AnySchemaObject, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { ListQuotas, listItemKey, normalizeListItem, type ListKind } from '../../api/index.js';
import type { DesiredPlanTier, SourceLocation } from '../desired.js';
import { compareIssues, formatPath, type DocPath, type ManifestIssue } from '../errors.js';
import { Locator } from '../locate.js';
import { readManifestYaml } from '../read.js';
import { createManifestAjv, pointerToPath } from '../schema.js';
import { describeError } from '../schema-messages.js';
import { LineIndex } from '../source.js';
import type { DesiredAccount, DesiredList, DesiredListItem } from './desired.js';

/** The account manifest JSON Schema. */
export const accountManifestSchema = JSON.parse(
  readFileSync(new URL('../../../schemas/account-manifest.schema.json', import.meta.url), 'utf8'),
) as AnySchemaObject & { $id: string };

let validator: ValidateFunction | undefined;

function compiled(): ValidateFunction {
  validator ??= createManifestAjv().compile(accountManifestSchema);
  return validator;
}

/** True for the text of an account manifest: a top-level `account:` and no `zone:`. */
export function isAccountManifestText(text: string): boolean {
  // `zone:` first: a zone manifest says it near the top, so the usual answer costs no whole-text scan.
  return !/^zone[ \t]*:/m.test(text) && /^account[ \t]*:/m.test(text);
}

/** The outcome of validating an account manifest. */
export interface AccountResult {
  file: string;
  /** Present only when `issues` is empty. */
  account?: DesiredAccount;
  issues: ManifestIssue[];
}

/** Options: the account's plan when a provider knows it (wins over the manifest's `plan:`). */
export interface AccountOptions {
  tier?: DesiredPlanTier;
}

type Raw = Record<string, unknown>;

function isRaw(v: unknown): v is Raw {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/**
 * Validates the text of an account manifest; never throws on bad input.
 * @example validateAccountManifestText('account: acme\nlists: {}\n', 'account.yaml').account?.account // 'acme'
 */
export function validateAccountManifestText(text: string, file: string, options: AccountOptions = {}): AccountResult {
  const lines = new LineIndex(text);
  const doc = readManifestYaml(text, lines);
  const locator = new Locator(file, doc, lines);
  const issues = doc.problems.map((p) => locator.issueAt(p.offset, p.length, p.path ? formatPath(p.path) : '', p.message));
  if (doc.fatal || !isRaw(doc.data)) {
    if (issues.length === 0) issues.push(locator.issueAt(0, 1, '', 'an account manifest is a map with `account:` and `lists:`'));
    return { file, issues };
  }
  const data = doc.data;
  const validate = compiled();
  const dirty = new Set<string>();
  if (!validate(data)) {
    for (const e of relevant(validate.errors ?? [])) {
      const { path, anchor } = placeOf(e, data);
      issues.push(locator.issue(path, describeError(e), anchor));
      // An item's own schema error leaves the list's other items to their checks (every error in one run).
      const item = path[2] === 'items' && typeof path[3] === 'number';
      dirty.add(formatPath(path.slice(0, item ? 4 : 2)));
    }
  }
  const location = (path: DocPath, anchor: 'key' | 'node' = 'node'): SourceLocation => locator.location(path, anchor);
  // A plan that is not one is the schema's error (reported above); the quotas are then the largest.
  const tier = options.tier ?? (typeof data.plan === 'string' && Object.hasOwn(ListQuotas, data.plan) ? data.plan as DesiredPlanTier : 'enterprise');
  const quota = ListQuotas[tier];
  const lists: DesiredList[] = [];
  const rawLists = isRaw(data.lists) ? data.lists : {};
  let total = 0;
  for (const [name, raw] of Object.entries(rawLists)) {
    if (!isRaw(raw) || dirty.has(formatPath(['lists', name])) || typeof raw.kind !== 'string') continue;
    const kind = raw.kind as Exclude<ListKind, 'redirect'>;
    if (kind !== 'ip' && !quota.hostnameAndAsn) {
      issues.push(locator.issue(['lists', name, 'kind'], `${kind} lists need the enterprise plan (the account is on ${tier})`));
    }
    const items = checkItems(kind, Array.isArray(raw.items) ? raw.items : [], ['lists', name, 'items'], locator, issues, dirty);
    total += items.length;
    const list: DesiredList = { name, kind, description: typeof raw.description === 'string' ? raw.description : '', items, location: location(['lists', name], 'key') };
    lists.push(list);
  }
  if (lists.length > quota.lists) {
    issues.push(locator.issue(['lists'], `${lists.length} lists, but the ${tier} plan allows ${quota.lists} custom list${quota.lists === 1 ? '' : 's'} per account`, 'key'));
  }
  if (total > quota.items) {
    issues.push(locator.issue(['lists'], `${total} items across the account's lists, but the ${tier} plan allows ${quota.items}`, 'key'));
  }
  if (issues.length > 0) return { file, issues: issues.sort(compareIssues) };
  const account: DesiredAccount = {
    file, account: data.account as string, lists, locations: { account: location(['account'], 'key') },
  };
  if (typeof data.plan === 'string') account.plan = data.plan as DesiredPlanTier;
  if (isRaw(data.lists)) account.locations.lists = location(['lists'], 'key');
  return { file, account, issues: [] };
}

/** Normalises the items of one list; reports invalid items and items equal to an earlier one. */
function checkItems(kind: Exclude<ListKind, 'redirect'>, raw: readonly unknown[], at: DocPath, locator: Locator, issues: ManifestIssue[], dirty: ReadonlySet<string>): DesiredListItem[] {
  const out: DesiredListItem[] = [];
  const seen = new Map<string, number>();
  raw.forEach((entry, i) => {
    if (dirty.has(formatPath([...at, i]))) return;
    const withComment = isRaw(entry);
    const value = withComment ? entry.value : entry;
    const path = withComment ? [...at, i, 'value'] : [...at, i];
    const normal = normalizeListItem(kind, value);
    if (!normal.ok) {
      issues.push(locator.issue(path, `${JSON.stringify(value)}: ${normal.reason}`));
      return;
    }
    const key = listItemKey(normal.value);
    const first = seen.get(key);
    if (first !== undefined) {
      const line = locator.issue([...at, first], '').line;
      const same = normal.value === value ? '' : ` (${JSON.stringify(value)} is ${JSON.stringify(normal.value)})`;
      issues.push(locator.issue(path, `duplicate item: the same as item ${first} at line ${line}${same}`));
      return;
    }
    seen.set(key, i);
    const item: DesiredListItem = { value: normal.value };
    if (withComment && typeof entry.comment === 'string' && entry.comment !== '') item.comment = entry.comment;
    if (withComment && typeof entry.exclude_exact_hostname === 'boolean') {
      // The service keeps the flag on `*.` hostname items only (it means nothing elsewhere): refused there, not dropped.
      if (kind !== 'hostname' || !String(normal.value).startsWith('*.')) {
        issues.push(locator.issue([...at, i, 'exclude_exact_hostname'], `exclude_exact_hostname applies to *.-prefixed items of hostname lists only${kind === 'hostname' ? ` (${JSON.stringify(normal.value)} has no "*.")` : ` (this is an ${kind} list)`}`, 'key'));
        return;
      }
      if (!entry.exclude_exact_hostname) item.excludeExact = false;
    }
    out.push(item);
  });
  return out;
}

/**
 * A failed `anyOf` is reported once, in its own words, not with each branch's errors; but an item
 * written as a map can only be the `{value, comment}` form, so that branch's own errors are (a
 * comment that is not a string, an unknown field, no value): "is a value or a map (got a map)"
 * said nothing about what is wrong with the map.
 */
function relevant(errors: readonly ErrorObject[]): ErrorObject[] {
  const failed = errors.filter((e) => e.keyword === 'anyOf');
  const maps = new Set(failed.filter((e) => isRaw(e.data)).map((e) => e.instancePath));
  const combinators = failed.filter((e) => !maps.has(e.instancePath)).map((e) => e.instancePath);
  return errors.filter((e) => {
    if (e.keyword === 'anyOf' || e.keyword === 'propertyNames') return e.keyword === 'anyOf' && !maps.has(e.instancePath);
    if (maps.has(e.instancePath) && e.keyword === 'type') return false;
    return !combinators.some((c) => e.instancePath === c || e.instancePath.startsWith(`${c}/`));
  });
}

function placeOf(e: ErrorObject, data: unknown): { path: DocPath; anchor: 'key' | 'node' } {
  const path = pointerToPath(e.instancePath, data);
  if (e.keyword === 'additionalProperties') return { path: [...path, String(e.params.additionalProperty)], anchor: 'key' };
  if (typeof e.propertyName === 'string') return { path: [...path, e.propertyName], anchor: 'key' };
  return { path, anchor: 'node' };
}
