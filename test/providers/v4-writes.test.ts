import { describe, it, expect } from 'vitest';
import { V4Client } from '../../src/providers/v4/client.js';
import { V4Limits } from '../../src/providers/v4/constants.js';
import { ProviderError, ServiceError } from '../../src/providers/v4/errors.js';
import * as writes from '../../src/providers/v4/firewall.js';
import type { FilterBody, FirewallRuleBody } from '../../src/plan/index.js';
import { FakeTransport, error } from './fake-transport.js';

const filterBodies = (n: number, prefix = 'f'): FilterBody[] =>
  Array.from({ length: n }, (_, i) => ({ expression: `http.request.uri.path eq "/${prefix}${i}"`, paused: false, ref: `${prefix}${i}` }));
const ruleBodies = (n: number): FirewallRuleBody[] =>
  Array.from({ length: n }, (_, i) => ({ action: 'block', priority: i + 1, paused: false, ref: `r${i}`, filter: { id: `${i}`.padStart(32, 'a') } }));

describe('batched writes', () => {
  it('creates N filters in ceil(N / 100) POSTs of at most 100, keeping input order', async () => {
    const fake = new FakeTransport();
    const created = await writes.createFilters(new V4Client(fake), 'z', filterBodies(250));
    expect(fake.count('POST', '/filters')).toBe(3);
    expect(fake.log.map((r) => (r.body as unknown[]).length)).toEqual([100, 100, 50]);
    expect(created.map((f) => f.ref)).toEqual(filterBodies(250).map((b) => b.ref));
    expect(fake.filters).toHaveLength(250);
  });

  it('updates and deletes in batches (PUT arrays, DELETE ?id=..), dropping repeated ids', async () => {
    const fake = new FakeTransport();
    const client = new V4Client(fake);
    const rules = await writes.createFirewallRules(client, 'z', ruleBodies(120));
    await writes.updateFirewallRules(client, 'z', rules.map((r) => ({ ...(r as FirewallRuleBody & { id: string }), paused: true })));
    expect(fake.count('PUT', '/firewall/rules')).toBe(2);
    expect(fake.rules.every((r) => r.paused === true)).toBe(true);
    await writes.deleteFirewallRules(client, 'z', [...rules.map((r) => r.id), rules[0].id]);
    const deletes = fake.log.filter((r) => r.method === 'DELETE');
    expect(deletes.map((r) => r.query?.getAll('id').length)).toEqual([100, 20]);
    expect(fake.rules).toHaveLength(0);
  });

  it('sends nothing for an empty batch', async () => {
    const fake = new FakeTransport();
    const client = new V4Client(fake);
    expect(await writes.createFilters(client, 'z', [])).toEqual([]);
    await writes.deleteFilters(client, 'z', []);
    expect(fake.stats.requests).toBe(0);
  });

  it('states the batch size it uses', () => {
    expect(V4Limits.batchSize).toBe(100);
    expect(V4Limits.perPage).toBe(100);
  });
});

describe('idempotent creates after a lost answer', () => {
  it('re-reads by ref and does not resend a batch the service applied', async () => {
    const fake = new FakeTransport();
    fake.fault = (req, i) => (req.method === 'POST' && i === 0 ? 'lost-after-apply' : undefined);
    const created = await writes.createFilters(new V4Client(fake), 'z', filterBodies(3));
    expect(fake.count('POST', '/filters')).toBe(1);
    expect(fake.count('GET', '/filters')).toBe(1);
    expect(fake.filters).toHaveLength(3);
    expect(created.map((f) => f.id)).toEqual(fake.filters.map((f) => f.id));
    expect(fake.backoffs).toBe(1);
  });

  it('sends only the objects that are missing', async () => {
    const fake = new FakeTransport();
    const bodies = filterBodies(4);
    // The first POST is lost and applied only in part (two of four): only the other two are resent.
    fake.fault = (req, i) => {
      if (i !== 0) return undefined;
      fake.filters.push({ ...bodies[0], id: fake.newId() }, { ...bodies[2], id: fake.newId() });
      return 'lost-before-apply';
    };
    const created = await writes.createFilters(new V4Client(fake), 'z', bodies);
    const posts = fake.log.filter((r) => r.method === 'POST');
    expect((posts[1].body as FilterBody[]).map((b) => b.ref)).toEqual(['f1', 'f3']);
    expect(fake.filters.map((f) => f.ref).sort()).toEqual(['f0', 'f1', 'f2', 'f3']);
    expect(created.map((f) => f.ref)).toEqual(['f0', 'f1', 'f2', 'f3']);
  });

  it('matches a filter without ref by its expression (the service keeps expressions unique)', async () => {
    const fake = new FakeTransport();
    fake.fault = (req, i) => (req.method === 'POST' && i === 0 ? 'lost-after-apply' : undefined);
    await writes.createFilters(new V4Client(fake), 'z', [{ expression: 'ip.src eq 192.0.2.1', paused: false }]);
    expect(fake.filters).toHaveLength(1);
    expect(fake.count('POST', '/filters')).toBe(1);
  });

  it('does not resend firewall rules without a ref, and says so', async () => {
    const fake = new FakeTransport();
    fake.fault = (req) => (req.method === 'POST' ? 'lost-after-apply' : undefined);
    const bodies = ruleBodies(2).map(({ ref: _ref, ...rest }) => rest);
    const err = await writes.createFirewallRules(new V4Client(fake), 'z', bodies).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ProviderError);
    expect((err as ProviderError).outcome).toBe('unknown');
    expect((err as Error).message).toContain('no ref');
    expect(fake.count('POST', '/firewall/rules')).toBe(1);
  });

  it('gives up after a bounded number of lost answers', async () => {
    const fake = new FakeTransport();
    fake.fault = (req) => (req.method === 'POST' ? 'lost-before-apply' : undefined);
    const err = await writes.createFilters(new V4Client(fake), 'z', filterBodies(1)).catch((e: unknown) => e);
    expect((err as Error).message).toContain(`gave up after ${V4Limits.createAttempts} attempts`);
    expect(fake.count('POST', '/filters')).toBe(V4Limits.createAttempts);
    expect(fake.filters).toHaveLength(0);
  });

  it('does not retry a definite refusal', async () => {
    const fake = new FakeTransport();
    fake.fault = (req) => (req.method === 'POST' ? error(400, 10015, 'Filter parsing error') : undefined);
    await expect(writes.createFilters(new V4Client(fake), 'z', filterBodies(1))).rejects.toBeInstanceOf(ServiceError);
    expect(fake.stats.requests).toBe(1);
  });

  it('treats a 5xx answer to a POST as a lost answer', async () => {
    const fake = new FakeTransport();
    let first = true;
    fake.fault = (req) => {
      if (req.method !== 'POST' || !first) return undefined;
      first = false;
      fake.filters.push({ ...filterBodies(1)[0], id: fake.newId() });
      return error(503, 10500, 'upstream timed out');
    };
    await writes.createFilters(new V4Client(fake), 'z', filterBodies(1));
    expect(fake.filters).toHaveLength(1);
    expect(fake.count('POST', '/filters')).toBe(1);
  });
});
