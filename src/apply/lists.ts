/**
 * Applying a lists plan (`ListsPlan.writes`): `before` runs ahead of the zones' rules, `after`
 * once they are written. Every item write is asynchronous on the service: it answers an
 * `operation_id`, and the write is done only when its bulk operation is `completed` (polled, with
 * progress); `failed` stops the apply with the operation's error.
 *
 * Nothing is duplicated or lost across faults:
 * - a write whose answer is lost (`isUnknownOutcome`) is never sent again blindly: the list is read
 *   again and only what is still missing is written (a list created after all is found by name, items
 *   already there with their comment are not posted again, items already gone are not deleted again);
 * - a 429 while another write of the account is processing is waited out and sent again (it was
 *   refused, so it did nothing);
 * - a run killed during a write leaves the service with the write done or not: the next plan reads
 *   the lists and plans exactly the rest.
 */
import { listItemKey, normalizeListItem, type BulkOperationJson, type ListCreateBody, type ListItemBody, type ListKind, type ListUpdateBody } from '../api/index.js';
import { ZonewallError } from '../errors.js';
import type { LiveAccount, ListWrite } from '../plan/index.js';
import { isUnknownOutcome, ServiceError } from '../providers/index.js';

/** The Lists API calls apply needs, on one account. */
export interface ListsApi {
  /** Every list of the account with its items (values normalised). */
  readLists(): Promise<LiveAccount>;
  createList(body: ListCreateBody): Promise<{ id: string }>;
  updateList(id: string, body: ListUpdateBody): Promise<void>;
  deleteList(id: string): Promise<void>;
  /** `POST …/items`: appends, and overwrites the comment of an item already there. */
  postItems(id: string, items: ListItemBody[]): Promise<{ operation_id: string }>;
  /** `DELETE …/items`. */
  deleteItems(id: string, items: { id: string }[]): Promise<{ operation_id: string }>;
  operation(id: string): Promise<BulkOperationJson>;
}

/** Progress of a list write, for a terminal's status line. */
export interface ListProgress {
  list: string;
  op: ListWrite['op'];
  /** The bulk operation's status, while one is awaited. */
  status?: BulkOperationJson['status'];
  /** Items in the write. */
  items?: number;
}

/** Options of a lists apply. */
export interface ListsApplyOptions {
  progress?: (p: ListProgress) => void;
  /** Waits between polls and retries (tests pass a fake clock). */
  sleep?: (ms: number) => Promise<void>;
  /** First poll interval; doubles up to 5 s. */
  pollMs?: number;
  /** Attempts of a write refused with 429 or whose answer was lost. */
  attempts?: number;
}

/** What a lists apply did. */
export interface ListsApplyResult {
  /** Writes done, in order. */
  done: ListWrite[];
  /** Ids of the lists created, by name. */
  created: Map<string, string>;
}

/** A lists write failed; `done` says what was written before it. */
export class ListsApplyError extends ZonewallError {
  constructor(message: string, readonly done: ListWrite[], options: { cause?: unknown } = {}) {
    super('ERR_APPLY', message, options);
  }
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** True for a refusal because another write is still processing (`429`). */
function isBusy(err: unknown): boolean {
  return err instanceof ServiceError && err.status === 429;
}

/**
 * Runs `writes` in order; `created` holds the ids of lists an earlier call created (the `before`
 * run's, for the `after` run).
 */
export async function applyListWrites(api: ListsApi, writes: readonly ListWrite[], options: ListsApplyOptions = {}, created = new Map<string, string>()): Promise<ListsApplyResult> {
  const ctx = { api, sleep: options.sleep ?? defaultSleep, pollMs: options.pollMs ?? 250, attempts: options.attempts ?? 8, progress: options.progress ?? (() => {}) };
  const done: ListWrite[] = [];
  const kinds = new Map<string, ListKind>();
  for (const write of writes) {
    try {
      if (write.op === 'create-list') kinds.set(write.name, write.kind);
      await runWrite(ctx, write, created, kinds);
      done.push(write);
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      throw new ListsApplyError(`list ${write.name}: ${write.op} failed: ${why}`, done, { cause: err });
    }
  }
  return { done, created };
}

type Ctx = { api: ListsApi; sleep: (ms: number) => Promise<void>; pollMs: number; attempts: number; progress: (p: ListProgress) => void };

/** Sends one call: 429 is waited out and sent again; a lost answer calls `settle` (re-read) first. */
async function send<T>(ctx: Ctx, call: () => Promise<T>, settle: () => Promise<T | 'resend'>): Promise<T> {
  // Once an answer is lost, every later attempt settles first: the lost write may have completed meanwhile.
  let lost = false;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (attempt >= ctx.attempts || !(isBusy(err) || isUnknownOutcome(err))) throw err;
      lost ||= isUnknownOutcome(err);
      await ctx.sleep(Math.min(5000, ctx.pollMs * 2 ** (attempt - 1)));
      if (!lost) continue;
      const settled = await settle();
      if (settled !== 'resend') return settled;
    }
  }
}

async function runWrite(ctx: Ctx, write: ListWrite, created: Map<string, string>, kinds: Map<string, ListKind>): Promise<void> {
  const { api } = ctx;
  const findList = async (name: string) => (await api.readLists()).lists.find((l) => l.name === name);
  ctx.progress({ list: write.name, op: write.op });
  switch (write.op) {
    case 'create-list': {
      const body: ListCreateBody = { name: write.name, kind: write.kind, description: write.description };
      const list = await send(ctx, () => api.createList(body), async () => {
        const found = await findList(write.name);
        return found === undefined ? 'resend' : { id: found.id };
      });
      created.set(write.name, list.id);
      return;
    }
    case 'update-list':
      await send(ctx, () => api.updateList(write.id, { description: write.description }), async () => 'resend');
      return;
    case 'delete-list':
      await send(ctx, () => api.deleteList(write.id), async () => ((await findList(write.name)) === undefined ? undefined : 'resend'));
      return;
    case 'add-items': {
      const id = write.id ?? created.get(write.name);
      if (id === undefined) throw new ZonewallError('ERR_INTERNAL', `no id for list ${write.name}: it was neither read nor created`);
      let pending = write.items;
      const op = await send(ctx, () => api.postItems(id, pending), async () => {
        // Items already there with their comment (and exclude_exact_hostname) are not posted again.
        const list = await findList(write.name);
        const kind = list?.kind ?? kinds.get(write.name) ?? 'ip';
        const have = new Map((list?.items ?? []).map((i) => [listItemKey(i.value), `${i.comment ?? ''}\u0000${i.excludeExact ?? true}`]));
        pending = pending.filter((b) => have.get(keyOfBody(kind, b)) !== `${b.comment ?? ''}\u0000${'hostname' in b ? b.hostname.exclude_exact_hostname ?? true : true}`);
        return pending.length === 0 ? { operation_id: '' } : 'resend';
      });
      await awaitOperation(ctx, op.operation_id, write, pending.length);
      return;
    }
    case 'remove-items': {
      let pending = write.items;
      const op = await send(ctx, () => api.deleteItems(write.id, pending), async () => {
        const list = await findList(write.name);
        const have = new Set((list?.items ?? []).map((i) => i.id));
        pending = pending.filter((i) => have.has(i.id));
        return pending.length === 0 ? { operation_id: '' } : 'resend';
      });
      await awaitOperation(ctx, op.operation_id, write, pending.length);
      return;
    }
  }
}

function keyOfBody(kind: ListKind, body: ListItemBody): string {
  const raw = 'ip' in body ? body.ip : 'asn' in body ? body.asn : body.hostname.url_hostname;
  const normal = normalizeListItem(kind, raw);
  return listItemKey(normal.ok ? normal.value : String(raw));
}

/** Polls a bulk operation until it is completed; `failed` throws its error. An empty id: nothing was sent. */
async function awaitOperation(ctx: Ctx, operationId: string, write: ListWrite, items: number): Promise<void> {
  if (operationId === '') return;
  let wait = ctx.pollMs;
  for (;;) {
    // A lost answer of a poll is asked again: reading an operation changes nothing.
    const op = await send(ctx, () => ctx.api.operation(operationId), async () => 'resend');
    ctx.progress({ list: write.name, op: write.op, status: op.status, items });
    if (op.status === 'completed') return;
    if (op.status === 'failed') throw new ZonewallError('ERR_APPLY', `bulk operation ${operationId} failed: ${op.error}`);
    await ctx.sleep(wait);
    wait = Math.min(5000, wait * 2);
  }
}
