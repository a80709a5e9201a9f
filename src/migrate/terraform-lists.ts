/**
 * `cloudflare_list` and `cloudflare_list_item` of a Terraform state as an account manifest's
 * `lists` (docs/manifest.md "Account manifest (lists)"). Provider v4 keeps a list's items inline as
 * `item` blocks (`value` a one-element list of `ip`/`asn`/`hostname`/`redirect`, `0`/`""` unset) or
 * as `cloudflare_list_item` resources; v5 as `items` objects (`hostname.url_hostname`, `null` unset)
 * or `cloudflare_list_item`. Every item is converted, however many (cf-terraforming generates 25:
 * its issue 926). Lists are keyed by name on the service and in the manifest, so nothing needs adopting.
 */
import { Document } from 'yaml';
import { list, num, obj, str } from './terraform-attributes.js';
import type { TfResource } from './terraform-state.js';

/**
 * An item as the account manifest writes it: the value alone, or with its comment and, for a `*.`
 * hostname that matches the bare domain too, `exclude_exact_hostname: false` (the service's default
 * is true, so only false is written).
 */
export type ConvertedListItem = string | number | { value: string | number; comment?: string; exclude_exact_hostname?: false };

/** One converted list. */
export interface ConvertedList {
  name: string;
  address: string;
  kind: string;
  description?: string;
  items: ConvertedListItem[];
  /** Addresses of the `cloudflare_list_item` resources whose items it took. */
  itemAddresses: string[];
}

/** The account's lists as converted. */
export interface ConvertedLists {
  /** The account id the state names. */
  account: string;
  lists: ConvertedList[];
}

/** A problem with a list resource, for the report. */
export interface ListNote { address: string; message: string }

/** An item's value from either provider version, or why it has none the manifest takes. */
function valueOf(v: Record<string, unknown> | undefined): string | number | undefined {
  const ip = str(v, 'ip');
  if (ip !== undefined) return ip;
  const asn = num(v, 'asn');
  if (asn !== undefined) return asn;
  return str(obj(v?.hostname), 'url_hostname');
}

/** A hostname item's `exclude_exact_hostname: false`, from either provider version (`hostname` block or object). */
function includesExact(v: Record<string, unknown> | undefined): boolean {
  return obj(v?.hostname)?.exclude_exact_hostname === false;
}

/** An item with its comment and `exclude_exact_hostname: false`, when it has them. */
function itemOf(value: string | number, comment: string | undefined, exact = false): ConvertedListItem {
  if (comment === undefined && !exact) return value;
  return { value, ...(comment !== undefined ? { comment } : {}), ...(exact ? { exclude_exact_hostname: false as const } : {}) };
}

/** The inline items of a list resource: v4 `item` blocks, v5 `items`. */
function inlineItems(a: Record<string, unknown>): { value?: string | number; comment?: string; exact: boolean; redirect: boolean }[] {
  const v4 = list(a.item).map(obj).filter((i) => i !== undefined).map((i) => {
    const v = obj(i.value);
    return { value: valueOf(v), comment: str(i, 'comment'), exact: includesExact(v), redirect: obj(v?.redirect) !== undefined };
  });
  const v5 = list(a.items).map(obj).filter((i) => i !== undefined).map((i) => ({ value: valueOf(i), comment: str(i, 'comment'), exact: includesExact(i), redirect: obj(i.redirect) !== undefined }));
  return [...v4, ...v5];
}

/**
 * Converts list and list item resources. Redirect lists (bulk redirects, not used in expressions)
 * and lists of another account than the first are left to Terraform; an item resource whose list
 * is not in the state is reported.
 */
export function convertLists(lists: TfResource[], items: TfResource[], notes: ListNote[], converted: string[]): ConvertedLists | undefined {
  let account: string | undefined;
  const byId = new Map<string, ConvertedList>();
  const out: ConvertedList[] = [];
  for (const r of lists) {
    const a = r.attributes;
    const name = str(a, 'name');
    const kind = str(a, 'kind');
    const owner = str(a, 'account_id');
    if (name === undefined || kind === undefined) { notes.push({ address: r.address, message: 'list without a name or kind: not converted' }); continue; }
    if (kind === 'redirect') { notes.push({ address: r.address, message: 'redirect list (bulk redirects, not usable in rule expressions): no account manifest section for it; left to Terraform' }); continue; }
    account ??= owner;
    if (owner !== undefined && owner !== account) { notes.push({ address: r.address, message: `list of another account (${owner}; the account manifest is for ${account}): one account manifest per run; left to Terraform` }); continue; }
    const converted_: ConvertedList = { name, address: r.address, kind, ...(str(a, 'description') !== undefined ? { description: str(a, 'description') } : {}), items: [], itemAddresses: [] };
    for (const i of inlineItems(a)) {
      if (i.value === undefined) { notes.push({ address: r.address, message: `an item ${i.redirect ? 'of redirect kind' : 'without a value'}: not converted` }); continue; }
      converted_.items.push(itemOf(i.value, i.comment, i.exact));
    }
    out.push(converted_);
    converted.push(r.address);
    const id = str(a, 'id');
    if (id !== undefined) byId.set(id, converted_);
  }
  for (const r of items) {
    const target = byId.get(str(r.attributes, 'list_id') ?? '');
    const value = valueOf(r.attributes);
    if (target === undefined) { notes.push({ address: r.address, message: `list item of list ${str(r.attributes, 'list_id') ?? '(none)'}, which is not converted from this state: left to Terraform` }); continue; }
    if (value === undefined) { notes.push({ address: r.address, message: 'list item without an ip, asn or hostname: not converted' }); continue; }
    target.items.push(itemOf(value, str(r.attributes, 'comment'), includesExact(r.attributes)));
    target.itemAddresses.push(r.address);
    converted.push(r.address);
  }
  return out.length > 0 && account !== undefined ? { account, lists: out } : undefined;
}

/** The account manifest of converted lists, as YAML text. */
export function renderAccountManifest(c: ConvertedLists, sourceFile: string): string {
  const lists = Object.fromEntries(c.lists.map((l) => [l.name, { kind: l.kind, ...(l.description !== undefined ? { description: l.description } : {}), items: l.items }]));
  const doc = new Document({ account: c.account, lists });
  doc.commentBefore = [
    ` Generated by \`zonewall migrate --from-terraform-state ${sourceFile}\`: the account's lists, every item.`,
    ...c.lists.map((l) => ` ${l.name} from ${[l.address, ...l.itemAddresses].join(', ')}`),
  ].join('\n');
  return doc.toString({ lineWidth: 0 });
}
