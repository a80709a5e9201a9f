/**
 * Seed 000 over real HTTP: the recommended flow, sharing, the simplified flow and its atomicity,
 * the quota and unavailable-feature partial creation, locked filters, and the reversed delete
 * order. Each statement of the seed is named in its test.
 * Runs on both runtimes of the zone objects: the built-in host and workerd (`serve --runtime workerd`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, result, startHarness, startWorkerdHarness, type HttpHarness } from './helpers.js';

const runtimes: [string, typeof startWorkerdHarness][] = [['built-in runtime', startHarness], ['workerd runtime', startWorkerdHarness]];

for (const [runtime, start] of runtimes) describe(runtime, () => {
  let h: HttpHarness;
  beforeAll(async () => { h = await start(); });
  afterAll(async () => { await h.cleanup(); });

  const ADMIN = 'http.request.uri.path contains "/admin"';

  describe('recommended flow', () => {
    it('creates the filter through the filters API, then a rule that references its id', async () => {
      const z = await h.zone('recommended.example');
      const [filter] = result(await h.api('POST', `/zones/${z}/filters`, [{ expression: ADMIN }]));
      expect(filter).toMatchObject({ expression: ADMIN, paused: false });
      expect(filter.id).toMatch(/^[0-9a-f]{32}$/);
      const reply = await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { id: filter.id }, action: 'block' }]);
      expect(reply.status).toBe(200);
      const [rule] = result(reply);
      expect(rule).toMatchObject({ paused: false, action: 'block', priority: null, filter: { id: filter.id, expression: ADMIN, paused: false } });
      expect(rule.id).toMatch(/^[0-9a-f]{32}$/);
      expect(rule.filter.locked).toBeUndefined();
      expect(reply.body).toMatchObject({ success: true, errors: [], messages: [] });
    });

    it('shares one filter between many rules and never creates the filter again', async () => {
      const z = await h.zone('sharing.example');
      const [filter] = result(await h.api('POST', `/zones/${z}/filters`, [{ expression: 'ip.src eq 192.0.2.1' }]));
      const rules = result(await h.api('POST', `/zones/${z}/firewall/rules`, [
        { filter: { id: filter.id }, action: 'block', priority: 2 },
        { filter: { id: filter.id }, action: 'challenge', priority: 1 },
      ]));
      expect(rules.map((r: any) => r.filter.id)).toEqual([filter.id, filter.id]);
      const filters = await h.api('GET', `/zones/${z}/filters`);
      expect(filters.body.result_info).toMatchObject({ count: 1, total_count: 1 });
    });

    it('refuses a rule whose filter reference does not exist, creating nothing', async () => {
      const z = await h.zone('dangling.example');
      const reply = await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { id: 'f'.repeat(32) }, action: 'block' }]);
      expect(reply.status).toBe(400);
      expect(codes(reply)).toEqual([10016]);
      expect(reply.body.errors[0]!.source).toEqual({ pointer: '/0/filter/id' });
      expect(result(await h.api('GET', `/zones/${z}/firewall/rules`))).toEqual([]);
    });
  });

  describe('simplified flow', () => {
    it('creates the inline filter as if through the filters API, then the rule; they refer to each other', async () => {
      const z = await h.zone('simplified.example');
      const reply = await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { expression: ADMIN }, action: 'block' }]);
      const [rule] = result(reply);
      expect(rule).toMatchObject({ action: 'block', paused: false, priority: null, filter: { expression: ADMIN, paused: false, locked: true } });
      const filter = result(await h.api('GET', `/zones/${z}/filters/${rule.filter.id}`));
      expect(filter).toEqual(rule.filter);
      expect(result(await h.api('GET', `/zones/${z}/firewall/rules/${rule.id}`)).filter.id).toBe(filter.id);
    });

    it('creates neither when the filter is invalid, and names the position', async () => {
      const z = await h.zone('invalid-filter.example');
      const reply = await h.api('POST', `/zones/${z}/firewall/rules`, [
        { filter: { expression: ADMIN }, action: 'block' },
        { filter: { expression: 'http.request.uri.path contians "/x"' }, action: 'block' },
      ]);
      expect(reply.status).toBe(400);
      expect(reply.body.success).toBe(false);
      expect(reply.body.result).toBeNull();
      expect(reply.body.errors[0]!.message).toMatch(/^Filter parsing error \(1:23\)/);
      expect(reply.body.errors[0]!.source).toEqual({ pointer: '/1/filter/expression' });
      expect(result(await h.api('GET', `/zones/${z}/filters`))).toEqual([]);
      expect(result(await h.api('GET', `/zones/${z}/firewall/rules`))).toEqual([]);
    });

    it('creates neither when the rule is invalid (unknown action)', async () => {
      const z = await h.zone('invalid-rule.example');
      const reply = await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { expression: ADMIN }, action: 'deny' }]);
      expect(reply.status).toBe(400);
      expect(reply.body.errors[0]).toMatchObject({ code: 10014, source: { pointer: '/0/action' } });
      expect(result(await h.api('GET', `/zones/${z}/filters`))).toEqual([]);
    });

    it('refuses an inline filter that duplicates an existing filter (10202, existing id), creating nothing', async () => {
      const z = await h.zone('inline-dup.example');
      const [existing] = result(await h.api('POST', `/zones/${z}/filters`, [{ expression: ADMIN }]));
      const reply = await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { expression: 'http.request.uri.path contains "/admin"' }, action: 'block' }]);
      expect(reply.status).toBe(400);
      expect(reply.body.errors[0]).toMatchObject({ code: 10202, meta: { id: existing.id } });
      expect(reply.body.errors[0]!.error_chain![0]).toMatchObject({ code: 10102, meta: { id: existing.id } });
      expect(result(await h.api('GET', `/zones/${z}/firewall/rules`))).toEqual([]);
    });
  });

  describe('partial creation (quota, unavailable feature)', () => {
    it('quota exceeded: creates the inline filter, not the rule, and says which filter exists', async () => {
      const z = await h.zone('quota.example', 'free');
      const five = Array.from({ length: 5 }, (_, i) => ({ filter: { expression: `ip.src eq 192.0.2.${i + 1}` }, action: 'block' }));
      result(await h.api('POST', `/zones/${z}/firewall/rules`, five));
      const reply = await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { expression: 'ip.src eq 192.0.2.99' }, action: 'block' }]);
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ success: false, result: null });
      expect(codes(reply)).toEqual([10200]);
      expect(reply.body.errors[0]!.message).toMatch(/free plan allows 5 active firewall rules/);
      const created = reply.body.messages![0]!;
      expect(created).toMatchObject({ code: 10203, meta: { index: 0 } });
      const filterId = created.meta!.id as string;
      const filter = result(await h.api('GET', `/zones/${z}/filters/${filterId}`));
      expect(filter).toMatchObject({ expression: 'ip.src eq 192.0.2.99', locked: true });
      expect((await h.api('GET', `/zones/${z}/firewall/rules`)).body.result_info!.total_count).toBe(5);

      // To finish: resolve the quota (here: pause a rule), then reference the existing filter.
      const [first] = result(await h.api('GET', `/zones/${z}/firewall/rules?per_page=5`));
      result(await h.api('PATCH', `/zones/${z}/firewall/rules/${first.id}`, { paused: true }));
      const [rule] = result(await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { id: filterId }, action: 'block' }]));
      expect(rule.filter).toMatchObject({ id: filterId, locked: true });
    });

    it('quota exceeded in the recommended flow: nothing is created', async () => {
      const z = await h.zone('quota-ref.example', 'free');
      const filters = result(await h.api('POST', `/zones/${z}/filters`, Array.from({ length: 6 }, (_, i) => ({ expression: `ip.src eq 198.51.100.${i + 1}` }))));
      const reply = await h.api('POST', `/zones/${z}/firewall/rules`, filters.map((f: any) => ({ filter: { id: f.id }, action: 'block' })));
      expect(codes(reply)).toEqual([10200]);
      expect(reply.body.messages).toEqual([]);
      expect(result(await h.api('GET', `/zones/${z}/firewall/rules`))).toEqual([]);
    });

    it('paused rules do not count against the quota', async () => {
      const z = await h.zone('quota-paused.example', 'free');
      const rules = Array.from({ length: 7 }, (_, i) => ({ filter: { expression: `ip.src eq 203.0.113.${i + 1}` }, action: 'block', paused: i >= 5 }));
      expect(result(await h.api('POST', `/zones/${z}/firewall/rules`, rules))).toHaveLength(7);
      const all = result(await h.api('GET', `/zones/${z}/firewall/rules?paused=true`));
      const unpause = await h.api('PATCH', `/zones/${z}/firewall/rules/${all[0].id}`, { paused: false });
      expect(codes(unpause)).toEqual([10200]);
    });

    it('matches below business: the filter is created, the rule is not', async () => {
      const z = await h.zone('matches-pro.example', 'pro');
      const reply = await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { expression: 'http.request.uri.path matches "^/api/"' }, action: 'block' }]);
      expect(reply.status).toBe(400);
      expect(reply.body.errors[0]).toMatchObject({ code: 10201, meta: { feature: 'matches', plan: 'pro', required_plan: 'business' } });
      const filterId = reply.body.messages![0]!.meta!.id as string;
      expect(result(await h.api('GET', `/zones/${z}/filters/${filterId}`)).expression).toBe('http.request.uri.path matches "^/api/"');
      expect(result(await h.api('GET', `/zones/${z}/firewall/rules`))).toEqual([]);
      const onBusiness = await h.zone('matches-business.example', 'business');
      result(await h.api('POST', `/zones/${onBusiness}/firewall/rules`, [{ filter: { expression: 'http.request.uri.path matches "^/api/"' }, action: 'block' }]));
    });

    it('log below enterprise is the unavailable-feature case too', async () => {
      const z = await h.zone('log-business.example', 'business');
      const reply = await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { expression: ADMIN }, action: 'log' }]);
      expect(reply.body.errors[0]).toMatchObject({ code: 10201, source: { pointer: '/0/action' } });
      expect(reply.body.messages).toHaveLength(1);
      const e = await h.zone('log-enterprise.example', 'enterprise');
      expect(result(await h.api('POST', `/zones/${e}/firewall/rules`, [{ filter: { expression: ADMIN }, action: 'log' }]))[0].action).toBe('log');
    });
  });

  describe('locked filters and delete order', () => {
    it('refuses PUT and DELETE on a filter created by the simplified flow, with a clear error', async () => {
      const z = await h.zone('locked.example');
      const [rule] = result(await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { expression: ADMIN }, action: 'block' }]));
      const put = await h.api('PUT', `/zones/${z}/filters/${rule.filter.id}`, { expression: 'http.request.uri.path contains "/x"' });
      expect(put.status).toBe(400);
      expect(put.body.errors[0]).toMatchObject({ code: 10104, meta: { id: rule.filter.id } });
      expect(put.body.errors[0]!.message).toMatch(/simplified flow/);
      const del = await h.api('DELETE', `/zones/${z}/filters/${rule.filter.id}`);
      expect(codes(del)).toEqual([10104]);
      const bulk = await h.api('DELETE', `/zones/${z}/filters?id=${rule.filter.id}`);
      expect(codes(bulk)).toEqual([10104]);
      expect(result(await h.api('GET', `/zones/${z}/filters/${rule.filter.id}`)).expression).toBe(ADMIN);
    });

    it('keeps an inline filter when its rules are deleted, unless delete_filter_if_unused is sent', async () => {
      const z = await h.zone('locked-cleanup.example');
      const [rule] = result(await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { expression: ADMIN }, action: 'block' }]));
      const [second] = result(await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { id: rule.filter.id }, action: 'challenge' }]));
      const first = await h.api('DELETE', `/zones/${z}/firewall/rules/${rule.id}`, { delete_filter_if_unused: true });
      expect(result(first)).toEqual({ id: rule.id });
      expect(first.body.messages).toEqual([]);
      expect((await h.api('GET', `/zones/${z}/filters/${rule.filter.id}`)).status).toBe(200);
      // The last rule goes, nobody asked: the filter stays, and stays locked against the filters API.
      const plain = await h.api('DELETE', `/zones/${z}/firewall/rules/${second.id}`);
      expect(plain.body.messages).toEqual([]);
      expect(result(await h.api('GET', `/zones/${z}/filters/${rule.filter.id}`)).expression).toBe(ADMIN);
      expect(codes(await h.api('DELETE', `/zones/${z}/filters/${rule.filter.id}`))).toEqual([10104]);
      expect(codes(await h.api('POST', `/zones/${z}/filters`, [{ expression: ADMIN }]))).toEqual([10102]);
    });

    it('deletes an inline filter with the last rule when delete_filter_if_unused is sent (body or query)', async () => {
      const z = await h.zone('locked-if-unused.example');
      const [a, b] = result(await h.api('POST', `/zones/${z}/firewall/rules`, [
        { filter: { expression: ADMIN }, action: 'block' }, { filter: { expression: 'ip.src eq 192.0.2.1' }, action: 'block' },
      ]));
      const last = await h.api('DELETE', `/zones/${z}/firewall/rules/${a.id}`, { delete_filter_if_unused: true });
      expect(last.body.messages![0]).toMatchObject({ code: 10204, meta: { id: a.filter.id } });
      expect((await h.api('GET', `/zones/${z}/filters/${a.filter.id}`)).status).toBe(404);
      const bulk = await h.api('DELETE', `/zones/${z}/firewall/rules?id=${b.id}&delete_filter_if_unused=true`);
      expect(bulk.body.messages![0]).toMatchObject({ code: 10204, meta: { id: b.filter.id } });
      // The expression is free again.
      result(await h.api('POST', `/zones/${z}/filters`, [{ expression: ADMIN }]));
    });

    it('reverses the order for deletes: the filter cannot go before the rules that use it', async () => {
      const z = await h.zone('delete-order.example');
      const [filter] = result(await h.api('POST', `/zones/${z}/filters`, [{ expression: ADMIN }]));
      const rules = result(await h.api('POST', `/zones/${z}/firewall/rules`, [
        { filter: { id: filter.id }, action: 'block' }, { filter: { id: filter.id }, action: 'allow' },
      ]));
      const early = await h.api('DELETE', `/zones/${z}/filters/${filter.id}`);
      expect(early.status).toBe(400);
      expect(early.body.errors[0]).toMatchObject({ code: 10103, meta: { id: filter.id, firewall_rules: rules.map((r: any) => r.id) } });
      expect(early.body.errors[0]!.message).toContain(rules[0].id);
      const gone = await h.api('DELETE', `/zones/${z}/firewall/rules?id=${rules[0].id}&id=${rules[1].id}`);
      expect(result(gone)).toEqual(rules.map((r: any) => ({ id: r.id })));
      expect(result(await h.api('GET', `/zones/${z}/filters/${filter.id}`)).id).toBe(filter.id);
      expect(result(await h.api('DELETE', `/zones/${z}/filters/${filter.id}`))).toEqual({ id: filter.id });
    });

    it('delete_filter_if_unused deletes the filter only when no other rule uses it', async () => {
      const z = await h.zone('if-unused.example');
      const [filter] = result(await h.api('POST', `/zones/${z}/filters`, [{ expression: ADMIN }]));
      const [a, b] = result(await h.api('POST', `/zones/${z}/firewall/rules`, [{ filter: { id: filter.id }, action: 'block' }, { filter: { id: filter.id }, action: 'allow' }]));
      result(await h.api('DELETE', `/zones/${z}/firewall/rules/${a.id}`, { delete_filter_if_unused: true }));
      expect((await h.api('GET', `/zones/${z}/filters/${filter.id}`)).status).toBe(200);
      result(await h.api('DELETE', `/zones/${z}/firewall/rules/${b.id}`, { delete_filter_if_unused: true }));
      expect(codes(await h.api('GET', `/zones/${z}/filters/${filter.id}`))).toEqual([10002]);
    });
  });
});
