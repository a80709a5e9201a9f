/**
 * Account lists over the v4 API (`/accounts/{account_id}/rules/lists`, security-phases.md §2): the
 * account's lists, a list's items (every cursor page), list create/update/delete, the item writes
 * (append, replace, delete), which answer a bulk operation, and the wait for that operation. The
 * Lists API answers item writes asynchronously: `waitForListOperation` polls until the operation
 * completes and throws a `ProviderError` naming the service's reason when it fails.
 */
import {
  AccountPaths, ListItemPageLimits, ListPaths,
  type AccountExtensionJson, type AccountJson, type BulkOperationJson, type PlanTier, type ListCreateBody, type ListItemBody, type ListItemJson, type ListJson, type ListUpdateBody,
} from '../../api/index.js';
import { AnswerShapes } from './answer-shape.js';
import type { V4Client } from './client.js';
import { fill } from './constants.js';
import { ProviderError, ServiceError } from './errors.js';
import type { ListOperationWaitOptions } from '../provider.js';

/** An account as the provider resolves it. */
export interface ResolvedAccount {
  id: string;
  name: string;
  /**
   * The plan the account's list quotas follow, when the service says: the engine's `plan_tier`, else
   * `enterprise` for an account of `type: enterprise`; absent for a `standard` account of a service
   * that says no more (free, pro or business: the account manifest's `plan:` stands).
   */
  tier?: PlanTier;
}

function resolved(found: AccountJson & Partial<AccountExtensionJson>): ResolvedAccount {
  const tier = found.plan_tier ?? (found.type === 'enterprise' ? 'enterprise' : undefined);
  return tier === undefined ? { id: found.id, name: found.name } : { id: found.id, name: found.name, tier };
}

/** How `waitForListOperation` polls. */
/** The account of a name or id (`GET /accounts/{id}`, else `GET /accounts?name=`). */
export async function resolveAccount(client: V4Client, account: string): Promise<ResolvedAccount> {
  if (/^[0-9a-f]{32}$/.test(account)) {
    const found = await client.result<AccountJson>('GET', fill(AccountPaths.item, { account_id: account }), { shape: AnswerShapes.account });
    return resolved(found);
  }
  // A null result is none; anything else not a list of accounts is refused (it read as none).
  const page = await client.result<AccountJson[] | null>('GET', AccountPaths.collection, { query: { name: account, per_page: 50 }, shape: ['?', AnswerShapes.account] });
  const match = (page ?? []).filter((a) => a.name === account);
  if (match.length !== 1) {
    throw new ProviderError(match.length === 0 ? `no account named ${account}: check the name (the embedded engine's: zonewall engine account list; an API token sees only the accounts it was made for)` : `${match.length} accounts are named ${account}; give the account id instead`, { code: 'ERR_API' });
  }
  return resolved(match[0]!);
}

/** Every list of the account (one call: the API does not paginate lists). */
export async function readLists(client: V4Client, accountId: string): Promise<ListJson[]> {
  const lists = await client.result<ListJson[] | null>('GET', fill(ListPaths.collection, { account_id: accountId }), { shape: ['?', AnswerShapes.list] });
  return lists ?? [];
}

/** Every item of a list, ascending, following the cursors (`search` filters as the API does). */
export async function readListItems(client: V4Client, accountId: string, listId: string, options: { search?: string; perPage?: number } = {}): Promise<ListItemJson[]> {
  const path = fill(ListPaths.items, { account_id: accountId, list_id: listId });
  const out: ListItemJson[] = [];
  let cursor: string | undefined;
  const seen = new Set<string>();
  for (;;) {
    const page = await client.call<ListItemJson[] | null>('GET', path, {
      query: { per_page: options.perPage ?? ListItemPageLimits.maxPerPage, ...(options.search !== undefined ? { search: options.search } : {}), ...(cursor !== undefined ? { cursor } : {}) },
      shape: ['?', AnswerShapes.listItem],
    });
    const items = page.result ?? [];
    for (const item of items) out.push(item);
    const next = (page.info as { cursors?: { after?: string } } | undefined)?.cursors?.after;
    if (next === undefined || next === '' || items.length === 0) return out;
    // A service that gave the same cursor twice would loop for ever.
    if (seen.has(next)) throw new ProviderError(`GET ${path}: the service repeated the cursor ${next}`);
    seen.add(next);
    cursor = next;
  }
}

/** Creates an empty list. */
export function createList(client: V4Client, accountId: string, body: ListCreateBody): Promise<ListJson> {
  return client.result<ListJson>('POST', fill(ListPaths.collection, { account_id: accountId }), { body });
}

/** Changes a list's description (its name and kind are immutable). */
export function updateList(client: V4Client, accountId: string, listId: string, body: ListUpdateBody): Promise<ListJson> {
  return client.result<ListJson>('PUT', fill(ListPaths.item, { account_id: accountId, list_id: listId }), { body });
}

/**
 * Deletes a list (refused while a rule references it). A 404 for a list the account no longer has is
 * the delete done: a DELETE whose answer was lost is sent again, and meets the list it deleted gone.
 */
export async function deleteList(client: V4Client, accountId: string, listId: string): Promise<void> {
  try {
    await client.call('DELETE', fill(ListPaths.item, { account_id: accountId, list_id: listId }));
  } catch (err) {
    if (!(err instanceof ServiceError && err.status === 404)) throw err;
    // Gone only if the account's lists say so; a failed read leaves the refusal as it was.
    const lists = await readLists(client, accountId).catch(() => undefined);
    if (lists === undefined || lists.some((l) => l.id === listId)) throw err;
  }
}

/** Appends items (an existing value's comment is overwritten); answers the bulk operation's id. */
export async function addListItems(client: V4Client, accountId: string, listId: string, items: readonly ListItemBody[]): Promise<string> {
  return (await client.result<{ operation_id: string }>('POST', fill(ListPaths.items, { account_id: accountId, list_id: listId }), { body: items })).operation_id;
}

/** Replaces every item (an empty array empties the list); answers the bulk operation's id. */
export async function replaceListItems(client: V4Client, accountId: string, listId: string, items: readonly ListItemBody[]): Promise<string> {
  return (await client.result<{ operation_id: string }>('PUT', fill(ListPaths.items, { account_id: accountId, list_id: listId }), { body: items })).operation_id;
}

/** Deletes items by id; answers the bulk operation's id. */
export async function deleteListItems(client: V4Client, accountId: string, listId: string, itemIds: readonly string[]): Promise<string> {
  const body = { items: itemIds.map((id) => ({ id })) };
  return (await client.result<{ operation_id: string }>('DELETE', fill(ListPaths.items, { account_id: accountId, list_id: listId }), { body })).operation_id;
}

/** One poll of a bulk operation. */
export function getListOperation(client: V4Client, accountId: string, operationId: string): Promise<BulkOperationJson> {
  return client.result<BulkOperationJson>('GET', fill(ListPaths.operation, { account_id: accountId, operation_id: operationId }));
}

const defaultSleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls a bulk operation until it completes; a failed operation throws with the service's reason. */
export async function waitForListOperation(client: V4Client, accountId: string, operationId: string, wait: ListOperationWaitOptions = {}): Promise<BulkOperationJson & { status: 'completed' }> {
  const maxPolls = wait.maxPolls ?? 600;
  const sleep = wait.sleep ?? defaultSleep;
  for (let poll = 1; poll <= maxPolls; poll++) {
    const op = await getListOperation(client, accountId, operationId);
    if (op.status === 'completed') return op;
    if (op.status === 'failed') throw new ProviderError(`list bulk operation ${operationId} failed: ${op.error}`, { code: 'ERR_API' });
    wait.onPoll?.(op, poll);
    await sleep(Math.min(2000, 250 * 2 ** Math.min(poll - 1, 3)), poll);
  }
  throw new ProviderError(`list bulk operation ${operationId} was still processing after ${maxPolls} polls`, { outcome: 'unknown' });
}
