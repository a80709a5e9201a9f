/**
 * Account lists on the wire (security-phases.md §2; the official client's `rules/lists/` types):
 * lists, their items, the asynchronous item writes and their bulk operations, accounts, the route
 * patterns, the limits and the error codes of the Lists API. Types and constants only.
 */
import type { PlanTier } from './zones.js';

/** List kinds of the real API; `redirect` lists (Bulk Redirects) are refused by the engine. */
export const ListKinds = ['ip', 'redirect', 'hostname', 'asn'] as const;
/** One list kind. */
export type ListKind = (typeof ListKinds)[number];
/** Kinds the engine serves (usable in rule expressions). */
export const ServedListKinds = ['ip', 'hostname', 'asn'] as const;
export type ServedListKind = (typeof ServedListKinds)[number];

/** A list as `GET /accounts/{account_id}/rules/lists[/{list_id}]` answers (the client's `ListsList`). */
export interface ListJson {
  id: string;
  name: string;
  kind: ListKind;
  description?: string;
  num_items: number;
  num_referencing_filters: number;
  created_on: string;
  modified_on: string;
}

/** The body of `POST /accounts/{account_id}/rules/lists`. */
export interface ListCreateBody {
  name: string;
  kind: ListKind;
  description?: string;
}

/** The body of `PUT /accounts/{account_id}/rules/lists/{list_id}`: only the description changes. */
export interface ListUpdateBody {
  description?: string;
}

/** A hostname item's value (the client's `Hostname`). */
export interface HostnameValue {
  url_hostname: string;
  exclude_exact_hostname?: boolean;
}

/** One item to write (`POST`/`PUT …/items`): exactly one value key, by the list's kind. */
export type ListItemBody =
  | { ip: string; comment?: string }
  | { hostname: HostnameValue; comment?: string }
  | { asn: number; comment?: string };

/** One item as `GET …/items` answers. */
export type ListItemJson = {
  id: string;
  created_on: string;
  modified_on: string;
  comment?: string;
} & ({ ip: string } | { hostname: HostnameValue } | { asn: number });

/** The answer of an item write: the bulk operation to poll. */
export interface ListOperationRef {
  operation_id: string;
}

/** The body of `DELETE …/items`. */
export interface ListItemsDeleteBody {
  items: { id: string }[];
}

/** States of a bulk operation. */
export const BulkOperationStatuses = ['pending', 'running', 'completed', 'failed'] as const;
export type BulkOperationStatus = (typeof BulkOperationStatuses)[number];

/** `GET /accounts/{account_id}/rules/lists/bulk_operations/{operation_id}`. */
export type BulkOperationJson =
  | { id: string; status: 'pending' | 'running' }
  | { id: string; status: 'completed'; completed: string }
  | { id: string; status: 'failed'; completed: string; error: string };

/** `result_info` of a cursor-paginated items page (`cursors.after` absent on the last page). */
export interface CursorResultInfo {
  cursors: { after?: string; before?: string };
}

/** Route patterns of the Lists API. */
export const ListPaths = {
  collection: '/accounts/:account_id/rules/lists',
  item: '/accounts/:account_id/rules/lists/:list_id',
  items: '/accounts/:account_id/rules/lists/:list_id/items',
  listItem: '/accounts/:account_id/rules/lists/:list_id/items/:item_id',
  operation: '/accounts/:account_id/rules/lists/bulk_operations/:operation_id',
} as const;

/** Query parameters of `GET …/items`. */
export const ListItemParams = { cursor: 'cursor', perPage: 'per_page', search: 'search' } as const;

/** Page sizes of `GET …/items` (the real API's: default 25, at most 500). */
export const ListItemPageLimits = { defaultPerPage: 25, minPerPage: 1, maxPerPage: 500 } as const;

/** Name and size rules of lists (security-phases.md §2). */
export const ListRules = {
  namePattern: '^[a-z0-9_]+$',
  nameMaxLength: 50,
  descriptionMaxLength: 500,
  commentMaxLength: 500,
} as const;

/** Quotas per plan: custom lists, and items across all of an account's lists. */
export const ListQuotas: Record<PlanTier, { lists: number; items: number; hostnameAndAsn: boolean; managed: boolean }> = {
  free: { lists: 1, items: 10_000, hostnameAndAsn: false, managed: false },
  pro: { lists: 10, items: 10_000, hostnameAndAsn: false, managed: false },
  business: { lists: 10, items: 10_000, hostnameAndAsn: false, managed: false },
  enterprise: { lists: 1_000, items: 500_000, hostnameAndAsn: true, managed: true },
};

/** Managed lists (Enterprise, read-only), usable as `$cf.<name>`. */
export const ManagedListNames = ['cf.open_proxies', 'cf.anonymizer', 'cf.vpn', 'cf.malware', 'cf.botnetcc'] as const;

/** An account as the engine's `GET /accounts` answers (the real API's `Account`, trimmed). */
export interface AccountJson {
  id: string;
  name: string;
  type: 'standard' | 'enterprise';
  created_on: string;
  settings: { enforce_twofactor: boolean };
}

/** zonewall engine extension fields of an account (left out by `serve --strict`). */
export interface AccountExtensionJson {
  /** The plan the account's lists quotas follow. */
  plan_tier: PlanTier;
}

/** Route patterns of accounts (the real API's; creating one is an engine extension). */
export const AccountPaths = { collection: '/accounts', item: '/accounts/:account_id' } as const;

/** zonewall engine extension routes of accounts (absent from `serve --strict`). */
export const AccountExtensionRoutes = ['POST /accounts'] as const;

/** Error codes of the Lists API (zonewall's: the reference names none), with their HTTP statuses. */
export const ListErrors = {
  /** No such list in the account. */
  listNotFound: { code: 10301, status: 404 },
  /** No such item in the list. */
  itemNotFound: { code: 10302, status: 404 },
  /** No such bulk operation in the account. */
  operationNotFound: { code: 10303, status: 404 },
  /** No such account. */
  accountNotFound: { code: 10304, status: 404 },
  /** A list name is taken in the account. */
  listExists: { code: 10305, status: 400 },
  /** `name` or `kind` sent with another value on update. */
  immutableField: { code: 10306, status: 400 },
  /** An item's value is invalid for its list's kind (pointer at the item). */
  invalidItem: { code: 10307, status: 400 },
  /** More lists than the account's plan allows. */
  listQuota: { code: 10308, status: 400 },
  /** A list kind (hostname, asn) or managed list the account's plan lacks. */
  listKindUnavailable: { code: 10309, status: 400 },
  /** Deleting a list rules still reference (the message names them). */
  listInUse: { code: 10310, status: 400 },
  /** A rule references a list the account does not have, or with the wrong kind for its field. */
  unknownList: { code: 10311, status: 400 },
  /** A write to a managed list. */
  managedListReadOnly: { code: 10312, status: 400 },
  /** The kind is not served (redirect lists are for Bulk Redirects). */
  kindNotServed: { code: 10313, status: 400 },
  /** Real-API behaviour (SDK: one pending bulk operation per account): another item write is still processing. */
  operationInProgress: { code: 10314, status: 429 },
  /** An account name is taken, or an account id is malformed. */
  accountExists: { code: 10315, status: 400 },
} as const;

/** Why a bulk operation failed (its `error`): the items would exceed the account's quota. */
export const ItemQuotaError = 'exceeded the maximum number of list items';
