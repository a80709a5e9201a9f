/**
 * Lists faults through the HTTP provider against the real engine behind `zonewall serve`, with the
 * fault proxy in front (unmatched calls pass through): a bulk item write whose answer is lost after
 * the server applied it, and a 429 while an operation is processing. apply's list writes
 * (`applyListWrites` over `listsApiOf`) converge with nothing duplicated or lost.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyListWrites } from '../../src/apply/index.js';
import { listsApiOf, readLiveAccount } from '../../src/cli/commands/lists-run.js';
import { validateAccountManifestText } from '../../src/manifest/index.js';
import { diffLists } from '../../src/plan/index.js';
import { apiPath, openFaultHarness, type FaultHarness, type Intercepted } from './faults-harness.js';

let h: FaultHarness;
let accountId: string;
beforeEach(async () => {
  h = await openFaultHarness('lists-faults.example');
  accountId = (await h.provider.resolveAccount('zonewall engine')).id;
});
afterEach(async () => { await h.close(); });

const manifest = 'account: zonewall engine\nlists:\n  office:\n    kind: ip\n    items: [192.0.2.0/24, { value: 198.51.100.7, comment: vpn }]\n  asns: { kind: asn, items: [64496, 64511] }\n';
const desired = () => validateAccountManifestText(manifest, 'account.yaml').account!;
const noSleep = async () => {};
const isItems = (uri: string) => /\/rules\/lists\/[0-9a-f]{32}\/items(\?|$)/.test(uri);
const isLists = (uri: string) => /\/rules\/lists(\?|$)/.test(uri);

/** The account's lists and items as the engine itself has them (not through the faults). */
async function engineLists(): Promise<[string, string[]][]> {
  const res = await h.engine.dispatch({ method: 'GET', path: `/accounts/${accountId}/rules/lists`, query: new URLSearchParams() });
  const lists = (res.body as { result: { id: string; name: string }[] }).result;
  const out: [string, string[]][] = [];
  for (const l of lists) {
    const items = await h.engine.dispatch({ method: 'GET', path: `/accounts/${accountId}/rules/lists/${l.id}/items`, query: new URLSearchParams() });
    out.push([l.name, (items.body as { result: { ip?: string; asn?: number }[] }).result.map((i) => String(i.ip ?? i.asn)).sort()]);
  }
  return out.sort((a, b) => a[0].localeCompare(b[0]));
}

/** Sends the call to the real engine, then drops the connection: the write took effect, its answer is lost. */
function appliedThenLost(counter: { n: number }) {
  return async (req: Intercepted): Promise<never> => {
    counter.n++;
    const path = new URL(req.uri, 'http://x').pathname.replace(/^\/client\/v4/, '');
    await h.engine.dispatch({ method: req.method, path, body: await req.json() });
    throw new Error('connection reset after the write');
  };
}

async function applyAll() {
  const plan = diffLists(desired(), await readLiveAccount(h.provider, 'zonewall engine'));
  const api = listsApiOf(h.provider, 'zonewall engine');
  const created = new Map<string, string>();
  await applyListWrites(api, plan.writes.before, { sleep: noSleep, pollMs: 0 }, created);
  await applyListWrites(api, plan.writes.after, { sleep: noSleep, pollMs: 0 }, created);
}

const Expected: [string, string[]][] = [['asns', ['64496', '64511']], ['office', ['192.0.2.0/24', '198.51.100.7']]];

describe('lists faults through the HTTP provider (zonewall serve behind a fault proxy)', () => {
  it('a bulk item write whose answer is lost after the server applied it is settled by re-reading: nothing duplicated or lost', async () => {
    const lost = { n: 0 };
    h.faults.on('POST', (uri) => isItems(uri), appliedThenLost(lost));
    await applyAll();
    expect(lost.n).toBe(1);
    expect(h.faults.pending()).toEqual([]);
    expect(await engineLists()).toEqual(Expected);
    // Plans clean: the lost write was neither sent twice nor dropped.
    expect(diffLists(desired(), await readLiveAccount(h.provider, 'zonewall engine')).summary).toMatchObject({ create: 0, update: 0, delete: 0, unchanged: 2, itemsAdded: 0, itemsRemoved: 0 });
  });

  it('a list create whose answer is lost is found by name, not created twice', async () => {
    const lost = { n: 0 };
    h.faults.on('POST', (uri) => isLists(uri), appliedThenLost(lost));
    await applyAll();
    expect(lost.n).toBe(1);
    expect(await engineLists()).toEqual(Expected);
  });

  it('a scripted 429 on an item write is waited out and the write sent again', async () => {
    const busy = { success: false, errors: [{ code: 10429, message: 'another bulk operation of the account is still processing' }], messages: [], result: null };
    h.faults.on('POST', (uri) => isItems(uri), [429, busy], 2);
    await applyAll();
    expect(h.faults.pending()).toEqual([]);
    expect(await engineLists()).toEqual(Expected);
    expect(diffLists(desired(), await readLiveAccount(h.provider, 'zonewall engine')).summary).toMatchObject({ unchanged: 2, itemsAdded: 0 });
  });
});

describe('a real 429 while a bulk operation is processing (the engine keeps operations pending for a poll)', () => {
  it('the refused item write is waited out and sent again once the operation completed: nothing duplicated or lost', async () => {
    await h.close();
    h = await openFaultHarness('lists-busy.example', { listOperationPolls: 1 });
    accountId = (await h.provider.resolveAccount('zonewall engine')).id;
    let blocker: string | undefined;
    const real = async (req: Intercepted): Promise<[number, object]> => {
      const res = await h.engine.dispatch({ method: req.method, path: new URL(req.uri, 'http://x').pathname.replace(/^\/client\/v4/, ''), body: await req.json() });
      return [res.status, res.body as object];
    };
    const statuses: number[] = [];
    h.faults
      // Another writer's bulk operation (the same items) is still processing when ours arrives: the engine answers 429.
      .on('POST', (uri) => isItems(uri), async (req) => {
        const path = new URL(req.uri, 'http://x').pathname.replace(/^\/client\/v4/, '');
        const other = await h.engine.dispatch({ method: 'POST', path, body: await req.json() });
        blocker = (other.body as { result: { operation_id: string } }).result.operation_id;
        const answer = await real(req);
        statuses.push(answer[0]);
        return answer;
      })
      // The other writer polls its operation to the end; our write, sent again, is accepted.
      .on('POST', (uri) => isItems(uri), async (req) => {
        for (let i = 0; i < 3; i++) await h.engine.dispatch({ method: 'GET', path: `/accounts/${accountId}/rules/lists/bulk_operations/${blocker!}`, query: new URLSearchParams() });
        const answer = await real(req);
        statuses.push(answer[0]);
        return answer;
      });
    await applyAll();
    expect(statuses).toEqual([429, 200]);
    expect(h.faults.pending()).toEqual([]);
    expect(await engineLists()).toEqual(Expected);
    expect(diffLists(desired(), await readLiveAccount(h.provider, 'zonewall engine')).summary).toMatchObject({ unchanged: 2, itemsAdded: 0 });
  });
});
