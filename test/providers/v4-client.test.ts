import { describe, it, expect } from 'vitest';
import { V4Client } from '../../src/providers/v4/client.js';
import { ProviderError, ServiceError } from '../../src/providers/v4/errors.js';
import { FakeTransport, error, ok } from './fake-transport.js';

function seed(fake: FakeTransport, n: number): void {
  for (let i = 0; i < n; i++) fake.filters.push({ id: fake.newId(), expression: `ip.src eq 192.0.2.${i % 250}`, paused: false, ref: `f${i}` });
}

describe('V4Client.call', () => {
  it('unwraps the envelope into result, messages and result_info', async () => {
    const fake = new FakeTransport();
    fake.canned.set('GET /x', ok({ a: 1 }, [{ message: 'note' }]));
    const got = await new V4Client(fake).call('GET', '/x');
    expect(got.result).toEqual({ a: 1 });
    expect(got.messages).toEqual([{ message: 'note' }]);
  });

  it('turns a refusal into a ServiceError with the service status, codes and messages', async () => {
    const fake = new FakeTransport();
    fake.canned.set('POST /zones/z/filters', error(400, 10102, 'config duplicates an already existing config'));
    const err = await new V4Client(fake).call('POST', '/zones/z/filters', { body: [] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    const e = err as ServiceError;
    expect(e.status).toBe(400);
    expect(e.hasCode(10102)).toBe(true);
    expect(e.code).toBe('ERR_API');
    expect(e.outcome).toBe('not-applied');
    expect(e.message).toContain('POST /zones/z/filters refused with HTTP 400: config duplicates an already existing config (10102)');
  });

  it('classifies 401/403 as ERR_AUTH and a 5xx write as outcome unknown', async () => {
    const fake = new FakeTransport();
    fake.canned.set('GET /a', error(403, 10000, 'Authentication error'));
    fake.canned.set('POST /b', error(502, 10500, 'bad gateway'));
    const client = new V4Client(fake);
    const auth = (await client.call('GET', '/a').catch((e: unknown) => e)) as ServiceError;
    expect(auth.code).toBe('ERR_AUTH');
    const lost = (await client.call('POST', '/b', { body: [] }).catch((e: unknown) => e)) as ServiceError;
    expect(lost.outcome).toBe('unknown');
  });

  it('refuses an answer that is not a v4 envelope', async () => {
    const fake = new FakeTransport();
    fake.canned.set('GET /x', { status: 200, headers: {}, body: 'hello' as never });
    await expect(new V4Client(fake).call('GET', '/x')).rejects.toBeInstanceOf(ProviderError);
  });

  it('reads messages of another shape as what they say: a string, one object, null items, no message (a TypeError or undefined before)', async () => {
    const fake = new FakeTransport();
    const answer = (messages: unknown) => ({ status: 200, headers: {}, body: { success: true, errors: [], messages, result: {} } as never });
    const client = new V4Client(fake);
    const read = async (messages: unknown) => {
      fake.canned.set('GET /x', answer(messages));
      return (await client.call('GET', '/x')).messages;
    };
    expect(await read('a note')).toEqual([{ message: 'a note' }]);
    expect(await read({ code: 1, message: 'one' })).toEqual([{ code: 1, message: 'one' }]);
    expect(await read([null, { message: 'kept' }])).toEqual([{ message: 'kept' }]);
    expect(await read([{ code: 7 }])).toEqual([{ code: 7, message: '' }]);
    expect(await read(null)).toEqual([]);
  });

  it('a refusal whose errors are of another shape is one line saying what the service said', async () => {
    const fake = new FakeTransport();
    const refused = async (errors: unknown) => {
      fake.canned.set('GET /x', { status: 400, headers: {}, body: { success: false, errors, messages: [], result: null } as never });
      const err = await new V4Client(fake).call('GET', '/x').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceError);
      return (err as ServiceError).message;
    };
    expect(await refused('down')).toBe('GET /x refused with HTTP 400: down');
    expect(await refused([null])).toBe('GET /x refused with HTTP 400: no reason given');
    expect(await refused([{ code: '7003', message: 'm', error_chain: { message: 'inner' } }])).toBe('GET /x refused with HTTP 400: m (7003): inner');
    expect(await refused([{ code: 7003 }, 42])).toBe('GET /x refused with HTTP 400: error 7003; error 42');
    expect(await refused([{ message: ['a', 'b'] }])).toBe('GET /x refused with HTTP 400: ["a","b"]');
    expect(await refused([{ detail: 'why' }])).toBe('GET /x refused with HTTP 400: {"detail":"why"}');
  });

  it('a list page whose result_info is null is read until a short page (a TypeError before)', async () => {
    const fake = new FakeTransport();
    fake.canned.set('GET /l', { status: 200, headers: {}, body: { success: true, errors: [], messages: [], result: [{ id: 'a' }], result_info: null } as never });
    expect(await new V4Client(fake).listAll('/l')).toEqual([{ id: 'a' }]);
  });

  it('repeats array query values as repeated keys', async () => {
    const fake = new FakeTransport();
    fake.canned.set('DELETE /x', ok([]));
    await new V4Client(fake).call('DELETE', '/x', { query: { id: ['a', 'b'], skip: undefined } });
    expect(fake.log[0].query?.toString()).toBe('id=a&id=b');
  });
});

describe('V4Client.listAll', () => {
  it.each([
    [0, 1],
    [1, 1],
    [100, 1],
    [101, 2],
    [250, 3],
  ])('reads %i objects in %i request(s) of per_page=100', async (n, requests) => {
    const fake = new FakeTransport();
    seed(fake, n);
    const items = await new V4Client(fake).listAll<{ id: string }>('/zones/z/filters');
    expect(items.map((i) => i.id)).toEqual(fake.filters.map((f) => f.id));
    expect(fake.stats.requests).toBe(requests);
    expect(fake.log.every((r) => r.query?.get('per_page') === '100')).toBe(true);
  });

  it('reads until a short page when the service gives no totals', async () => {
    const fake = new FakeTransport();
    fake.omitTotals = true;
    seed(fake, 230);
    const items = await new V4Client(fake).listAll<{ id: string }>('/zones/z/filters');
    expect(items).toHaveLength(230);
    expect(fake.stats.requests).toBe(3);
  });

  it('keeps the first copy of an object seen on two pages', async () => {
    const fake = new FakeTransport();
    seed(fake, 150);
    // Between page 1 and page 2 an object is inserted at the front: the last of page 1 reappears.
    fake.fault = (req) => {
      if (req.query?.get('page') === '2') fake.filters.unshift({ id: fake.newId(), expression: 'true', paused: false });
      return undefined;
    };
    const items = await new V4Client(fake).listAll<{ id: string }>('/zones/z/filters');
    expect(new Set(items.map((i) => i.id)).size).toBe(items.length);
  });

  it.each([false, true])('joins the pages as they are when the service cannot change while read (totals left out: %s)', async (omitTotals) => {
    const fake = Object.assign(new FakeTransport(), { fixed: true });
    fake.omitTotals = omitTotals;
    seed(fake, 250);
    const ids = fake.filters.map((f) => f.id);
    expect(await new V4Client(fake).listAll<{ id: string }>('/zones/z/filters').then((items) => items.map((i) => i.id))).toEqual(ids);
    // Nothing is looked for: an object that did appear on two pages (which `fixed` rules out) would stay twice.
    fake.fault = (req) => {
      if (req.query?.get('page') === '2') fake.filters.unshift({ id: fake.newId(), expression: 'true', paused: false });
      return undefined;
    };
    const items = await new V4Client(fake).listAll<{ id: string }>('/zones/z/filters');
    expect(items).toHaveLength(251);
    expect(new Set(items.map((i) => i.id)).size).toBe(250);
  });
});
