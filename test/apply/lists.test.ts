import { describe, expect, it } from 'vitest';
import type { BulkOperationJson, ListCreateBody, ListItemBody, ListUpdateBody } from '../../src/api/index.js';
import { applyListWrites, type ListsApi } from '../../src/apply/index.js';
import { validateAccountManifestText } from '../../src/manifest/index.js';
import { diffLists, type LiveAccount } from '../../src/plan/index.js';
import { ProviderError, ServiceError } from '../../src/providers/index.js';

/**
 * An account's lists in memory, with the service's asynchronous item writes (an operation is
 * `pending` for one poll, then `completed`; a write while one is pending is refused with 429) and
 * injected faults: a call that is applied but whose answer is lost.
 */
class FakeLists implements ListsApi {
  account: LiveAccount = { id: 'acc', name: 'acme', lists: [] };
  calls: string[] = [];
  /** Calls (by name) whose next answer is lost after they took effect. */
  lose = new Set<string>();
  /** Answer 429 to the next item write of these names. */
  busy = new Set<string>();
  /** Operations run on the service's clock: each call to the API is a tick; one completes after two ticks. */
  private ops = new Map<string, { ticks: number; apply: () => void; done: boolean }>();

  private tick(): void {
    for (const op of this.ops.values()) {
      if (op.done) continue;
      if (++op.ticks >= 2) { op.apply(); op.done = true; }
    }
  }
  private seq = 0;

  private answer<T>(name: string, value: T): T {
    this.calls.push(name);
    this.tick();
    if (this.lose.delete(name)) throw new ProviderError(`${name}: socket hang up`, { outcome: 'unknown' });
    return value;
  }

  private refuseIfBusy(name: string): void {
    if ([...this.ops.values()].some((o) => !o.done) || this.busy.delete(name)) {
      this.calls.push(`${name}:429`);
      this.tick();
      throw new ServiceError({ method: 'POST', path: '/items', status: 429, errors: [{ code: 10314, message: 'an item write is still processing' }] });
    }
  }

  async readLists(): Promise<LiveAccount> {
    this.calls.push('read');
    this.tick();
    return structuredClone(this.account);
  }

  async createList(body: ListCreateBody): Promise<{ id: string }> {
    const id = `l${++this.seq}`;
    this.account.lists.push({ id, name: body.name, kind: body.kind, description: body.description ?? '', items: [] });
    return this.answer('createList', { id });
  }

  async updateList(id: string, body: ListUpdateBody): Promise<void> {
    this.account.lists.find((l) => l.id === id)!.description = body.description ?? '';
    this.answer('updateList', undefined);
  }

  async deleteList(id: string): Promise<void> {
    this.account.lists = this.account.lists.filter((l) => l.id !== id);
    this.answer('deleteList', undefined);
  }

  private operationOf(apply: () => void): { operation_id: string } {
    const id = `op${++this.seq}`;
    this.ops.set(id, { ticks: 0, apply, done: false });
    return { operation_id: id };
  }

  async postItems(id: string, items: ListItemBody[]): Promise<{ operation_id: string }> {
    this.refuseIfBusy('postItems');
    const list = this.account.lists.find((l) => l.id === id)!;
    const op = this.operationOf(() => {
      for (const b of items) {
        const value = 'ip' in b ? b.ip : 'asn' in b ? b.asn : b.hostname.url_hostname;
        const have = list.items.find((i) => i.value === value);
        if (have !== undefined) {
          if (b.comment === undefined) delete have.comment; else have.comment = b.comment;
        } else list.items.push({ id: `i${++this.seq}`, value, ...(b.comment === undefined ? {} : { comment: b.comment }) });
      }
    });
    return this.answer('postItems', op);
  }

  async deleteItems(id: string, items: { id: string }[]): Promise<{ operation_id: string }> {
    this.refuseIfBusy('deleteItems');
    const list = this.account.lists.find((l) => l.id === id)!;
    const op = this.operationOf(() => { list.items = list.items.filter((i) => !items.some((x) => x.id === i.id)); });
    return this.answer('deleteItems', op);
  }

  async operation(id: string): Promise<BulkOperationJson> {
    this.calls.push('poll');
    const op = this.ops.get(id)!;
    const status = op.done ? 'completed' : 'pending';
    this.tick();
    return status === 'completed' ? { id, status, completed: '2026-01-01T00:00:00Z' } : { id, status };
  }
}

const manifest = 'account: acme\nlists:\n  office:\n    kind: ip\n    items: [192.0.2.0/24, { value: 198.51.100.7, comment: vpn }]\n  asns: { kind: asn, items: [64496] }\n';
const desired = () => validateAccountManifestText(manifest, 'a.yaml').account!;
const noSleep = async () => {};

async function applyAll(api: FakeLists, text = manifest) {
  const account = validateAccountManifestText(text, 'a.yaml').account!;
  const plan = diffLists(account, await api.readLists());
  const created = new Map<string, string>();
  await applyListWrites(api, plan.writes.before, { sleep: noSleep }, created);
  await applyListWrites(api, plan.writes.after, { sleep: noSleep }, created);
  return plan;
}

describe('applying lists', () => {
  it('creates the lists, waits for each bulk operation, and plans clean afterwards', async () => {
    const api = new FakeLists();
    const progress: string[] = [];
    const plan = diffLists(desired(), await api.readLists());
    await applyListWrites(api, plan.writes.before, { sleep: noSleep, progress: (p) => progress.push(`${p.list} ${p.op} ${p.status ?? ''}`.trim()) });
    expect(progress).toContain('office add-items pending');
    expect(progress).toContain('office add-items completed');
    expect(diffLists(desired(), await api.readLists()).summary).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 2 });
  });

  it('a one-item change is one item write', async () => {
    const api = new FakeLists();
    await applyAll(api);
    api.calls = [];
    await applyAll(api, manifest.replace('192.0.2.0/24', '192.0.2.0/25'));
    expect(api.calls.filter((c) => c === 'postItems' || c === 'deleteItems')).toEqual(['postItems', 'deleteItems']);
    expect(api.account.lists[0]!.items.map((i) => i.value).sort()).toEqual(['192.0.2.0/25', '198.51.100.7']);
  });

  it('a lost answer of an item write is re-read, never sent twice', async () => {
    const api = new FakeLists();
    api.lose.add('postItems');
    api.lose.add('createList');
    await applyAll(api);
    expect(api.account.lists.map((l) => l.name)).toEqual(['office', 'asns']);
    // The lost create was found by name; the lost POST's operation completes on the service and nothing is posted twice.
    expect(api.calls.filter((c) => c === 'createList')).toHaveLength(2);
    // One accepted POST per list: the office's lost one was settled by re-reading, not sent again.
    expect(api.calls.filter((c) => c === 'postItems')).toHaveLength(2);
    expect(api.account.lists[0]!.items).toHaveLength(2);
    expect(api.account.lists[0]!.items.map((i) => i.value).sort()).toEqual(['192.0.2.0/24', '198.51.100.7']);
    expect(diffLists(desired(), await api.readLists()).summary).toMatchObject({ create: 0, update: 0, unchanged: 2 });
  });

  it('a 429 while a write is processing is waited out and sent again', async () => {
    const api = new FakeLists();
    api.busy.add('postItems');
    await applyAll(api);
    expect(api.calls).toContain('postItems:429');
    expect(diffLists(desired(), await api.readLists()).summary).toMatchObject({ unchanged: 2 });
  });

  it('a lost answer of a delete is settled by re-reading: nothing is deleted twice', async () => {
    const api = new FakeLists();
    await applyAll(api);
    api.lose.add('deleteItems');
    api.lose.add('deleteList');
    await applyAll(api, 'account: acme\nlists:\n  office: { kind: ip, items: [192.0.2.0/24] }\n');
    expect(api.account.lists.map((l) => [l.name, l.items.length])).toEqual([['office', 1]]);
    expect(api.calls.filter((c) => c === 'deleteList')).toHaveLength(1);
  });
});
