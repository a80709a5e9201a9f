/**
 * An account's lists as read from the service: each list with its items, values normalised
 * (`normalizeListItem`, the engine's rules), so that a list read back compares equal to the
 * manifest it was written from.
 */
import { normalizeListItem, type ListItemBody, type ListItemJson, type ListItemValue, type ListKind } from '../../api/index.js';

/** One live item: its id (for `DELETE …/items`), value and comment. */
export interface LiveListItem {
  id: string;
  value: ListItemValue;
  comment?: string;
  /** A `*.` hostname item whose `exclude_exact_hostname` is false (it matches the bare domain too); absent for the default. */
  excludeExact?: false;
}

/** One live list. */
export interface LiveList {
  id: string;
  name: string;
  kind: ListKind;
  description: string;
  items: LiveListItem[];
  /** The service's count of rules that reference it, when it says. */
  referencingRules?: number;
}

/** The live lists of an account. */
export interface LiveAccount {
  id: string;
  name: string;
  lists: LiveList[];
  /** The plan the account's list quotas follow, when the service says (`ResolvedAccount.tier`). */
  tier?: 'free' | 'pro' | 'business' | 'enterprise';
}

/** The value of an item as the API answers it, normalised. */
export function itemValueOf(kind: ListKind, json: ListItemJson): ListItemValue {
  const raw = 'ip' in json ? json.ip : 'asn' in json ? json.asn : 'hostname' in json ? json.hostname.url_hostname : undefined;
  const normal = normalizeListItem(kind, raw);
  // The service only stores valid items; a value it holds that zonewall would refuse is kept as read.
  return normal.ok ? normal.value : String(raw);
}

/** A live item from the API's item. */
export function liveItemOf(kind: ListKind, json: ListItemJson): LiveListItem {
  const item: LiveListItem = { id: json.id, value: itemValueOf(kind, json) };
  if (json.comment !== undefined && json.comment !== '') item.comment = json.comment;
  if ('hostname' in json && json.hostname.exclude_exact_hostname === false && String(item.value).startsWith('*.')) item.excludeExact = false;
  return item;
}

/**
 * The body of an item write (`POST …/items`) for a list of `kind`. `excludeExact: false` is sent as
 * `exclude_exact_hostname: false`; the default is left out (a POST overwrites the stored item whole).
 */
export function itemBody(kind: ListKind, value: ListItemValue, comment: string | undefined, excludeExact?: false): ListItemBody {
  const hostname = excludeExact === false ? { url_hostname: String(value), exclude_exact_hostname: false } : { url_hostname: String(value) };
  const base = kind === 'asn' ? { asn: Number(value) } : kind === 'hostname' ? { hostname } : { ip: String(value) };
  return (comment === undefined ? base : { ...base, comment }) as ListItemBody;
}
