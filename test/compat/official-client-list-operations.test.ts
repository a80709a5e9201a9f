/**
 * The asynchronous side of the Lists API through the official client (npm `cloudflare` 7.3.0)
 * against a real server on 127.0.0.1, normal and `--strict`: `bulkOperations.get` answering
 * `pending`, `running`, then `completed` (the engine's operation-polls hook), another item write
 * meanwhile refused with the client's `RateLimitError` (one pending operation per account) unless
 * it is malformed (`BadRequestError` first, whatever the state), and an
 * operation that fails (the account's item quota) typed as the client's failed operation, having
 * changed no item. Each answer is type-checked against the client's types.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Cloudflare from 'cloudflare';
import type { BulkOperationGetResponse } from 'cloudflare/resources/rules/lists/bulk-operations';
import type { ItemListResponse } from 'cloudflare/resources/rules/lists/items';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine, startServer, type RunningServer } from '../../src/engine/index.js';
import { TOKEN } from '../engine/helpers.js';

const hex32 = /^[0-9a-f]{32}$/;
const rfc3339 = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/;

describe.each([false, true])('list bulk operations through the official client (strict: %s)', (strict) => {
  let dir: string;
  let engine: Engine;
  let server: RunningServer;
  let cf: Cloudflare;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zw-list-ops-'));
    engine = await Engine.open({ dir, strict, listOperationPolls: 2, logError: () => undefined });
    server = await startServer(engine, { port: 0, credentials: [{ type: 'token', token: TOKEN, zones: '*' }] });
    cf = new Cloudflare({ apiToken: TOKEN, apiKey: null, apiEmail: null, baseURL: server.url, maxRetries: 0 });
  });
  afterAll(async () => {
    await server.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('answers pending, running, completed; refuses another write meanwhile with RateLimitError; the write was applied', async () => {
    const account = await engine.createAccount(`ops ${String(strict)}`, { plan: 'enterprise' });
    const account_id = account.id;
    const list = await cf.rules.lists.create({ account_id, name: 'office', kind: 'ip' });
    const write = await cf.rules.lists.items.create(list.id, { account_id, body: [{ ip: '192.0.2.1', comment: 'desk' }] });
    expect(write.operation_id).toMatch(hex32);
    const busy = await cf.rules.lists.items.create(list.id, { account_id, body: [{ ip: '192.0.2.2' }] }).catch((e: unknown) => e);
    expect(busy).toBeInstanceOf(Cloudflare.RateLimitError);
    expect((busy as InstanceType<typeof Cloudflare.RateLimitError>).errors).toEqual([expect.objectContaining({ code: 10314, message: expect.stringContaining(write.operation_id) })]);
    // A malformed write is refused as malformed (BadRequestError, 400), not told to wait: the body comes first.
    const malformed = await cf.rules.lists.items.create(list.id, { account_id, body: [{ ip: '192.0.2.300' }] }).catch((e: unknown) => e);
    expect(malformed).toBeInstanceOf(Cloudflare.BadRequestError);
    expect((malformed as InstanceType<typeof Cloudflare.BadRequestError>).errors).toEqual([expect.objectContaining({ code: 10307 })]);
    const polls: BulkOperationGetResponse[] = [];
    for (let i = 0; i < 3; i++) polls.push(await cf.rules.lists.bulkOperations.get(write.operation_id, { account_id }));
    expect(polls.map((p) => p.status)).toEqual(['pending', 'running', 'completed']);
    expect(polls.map((p) => p.id)).toEqual([write.operation_id, write.operation_id, write.operation_id]);
    const done = polls[2]!;
    expect('completed' in done ? done.completed : '').toMatch(rfc3339);
    const items: ItemListResponse[] = [];
    for await (const item of cf.rules.lists.items.list(list.id, { account_id })) items.push(item);
    expect(items).toEqual([{ id: expect.stringMatching(hex32), ip: '192.0.2.1', comment: 'desk', created_on: expect.stringMatching(rfc3339), modified_on: expect.stringMatching(rfc3339) }]);
    // Once the operation has reported completed, the next write goes through.
    const next = await cf.rules.lists.items.create(list.id, { account_id, body: [{ ip: '192.0.2.2' }] });
    expect(next.operation_id).toMatch(hex32);
  });

  it('fails an operation past the account\'s item quota (status failed, error, completed time), changing no item', async () => {
    const account = await engine.createAccount(`quota ${String(strict)}`, { plan: 'pro' });
    const account_id = account.id;
    const list = await cf.rules.lists.create({ account_id, name: 'big', kind: 'ip' });
    const seed = await cf.rules.lists.items.update(list.id, { account_id, body: [{ ip: '198.51.100.1' }] });
    for (let i = 0; i < 3; i++) await cf.rules.lists.bulkOperations.get(seed.operation_id, { account_id });
    const many = Array.from({ length: 10_001 }, (_, i) => ({ ip: `10.${Math.floor(i / 65536)}.${Math.floor(i / 256) % 256}.${i % 256}` }));
    const write = await cf.rules.lists.items.update(list.id, { account_id, body: many });
    let op: BulkOperationGetResponse = await cf.rules.lists.bulkOperations.get(write.operation_id, { account_id });
    while (op.status === 'pending' || op.status === 'running') op = await cf.rules.lists.bulkOperations.get(write.operation_id, { account_id });
    expect(op.status).toBe('failed');
    if (op.status !== 'failed') return;
    expect([op.id, op.completed]).toEqual([write.operation_id, expect.stringMatching(rfc3339)]);
    expect(op.error).toContain('exceeded the maximum number of list items');
    const got = await cf.rules.lists.get(list.id, { account_id });
    expect(got.num_items).toBe(1);
    const items: ItemListResponse[] = [];
    for await (const item of cf.rules.lists.items.list(list.id, { account_id })) items.push(item);
    expect(items.map((i) => ('ip' in i ? i.ip : ''))).toEqual(['198.51.100.1']);
  });
});
