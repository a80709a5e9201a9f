/**
 * The firewall rules API over HTTP beyond creation flows: fields and defaults, every action,
 * products for bypass, list filters and pages, PUT / bulk PUT / PATCH, atomic bulk writes,
 * timestamps, and repointing away from a locked filter (which keeps it).
 * Runs on both runtimes of the zone objects: the built-in host and workerd (`serve --runtime workerd`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, result, startHarness, startWorkerdHarness, type HttpHarness } from './helpers.js';

const runtimes: [string, typeof startWorkerdHarness][] = [['built-in runtime', startHarness], ['workerd runtime', startWorkerdHarness]];

for (const [runtime, start] of runtimes) describe(runtime, () => {
  let h: HttpHarness;
  let z: string;
  let filterId: string;
  let otherFilterId: string;
  beforeAll(async () => {
    h = await start();
    z = await h.zone('rules.example');
    [filterId, otherFilterId] = result(await h.api('POST', `/zones/${z}/filters`, [
      { expression: 'http.request.uri.path contains "/wp-login"' }, { expression: 'ip.src eq 192.0.2.200' },
    ])).map((f: any) => f.id);
  });
  afterAll(async () => { await h.cleanup(); });

  const R = (path = ''): string => `/zones/${z}/firewall/rules${path}`;

  describe('fields', () => {
    it('accepts every real action; bypass needs products and only bypass takes them', async () => {
      const actions = ['log', 'allow', 'challenge', 'managed_challenge', 'js_challenge', 'block'];
      const created = result(await h.api('POST', R(), [
        ...actions.map((action) => ({ filter: { id: filterId }, action })),
        { filter: { id: filterId }, action: 'bypass', products: ['waf', 'uaBlock'] },
      ]));
      expect(created.map((r: any) => r.action)).toEqual([...actions, 'bypass']);
      expect(created[6].products).toEqual(['waf', 'uaBlock']);
      expect(created[0].products).toBeUndefined();
      const noProducts = await h.api('POST', R(), [{ filter: { id: filterId }, action: 'bypass' }]);
      expect(noProducts.body.errors[0]!.source).toEqual({ pointer: '/0/products' });
      const wrong = await h.api('POST', R(), [{ filter: { id: filterId }, action: 'block', products: ['waf'] }]);
      expect(wrong.body.errors[0]!.source).toEqual({ pointer: '/0/products' });
      const badProduct = await h.api('POST', R(), [{ filter: { id: filterId }, action: 'bypass', products: ['cdn'] }]);
      expect(badProduct.body.errors[0]!.source).toEqual({ pointer: '/0/products/0' });
    });

    it('keeps description, ref, priority and RFC 3339 timestamps; checks limits', async () => {
      const [rule] = result(await h.api('POST', R(), [{ filter: { id: filterId }, action: 'block', priority: 10, description: 'Block WP', ref: 'wp-1' }]));
      expect(rule).toMatchObject({ priority: 10, description: 'Block WP', ref: 'wp-1', paused: false });
      expect(Date.parse(rule.created_on)).not.toBeNaN();
      expect(rule.created_on).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/);
      expect(rule.modified_on).toBe(rule.created_on);
      const reply = await h.api('POST', R(), [
        { filter: { id: filterId }, action: 'block', priority: -1 },
        { filter: { id: filterId }, action: 'block', priority: 2147483648 },
        { filter: { id: filterId }, action: 'block', description: 'x'.repeat(501), ref: 'y'.repeat(51) },
        { filter: { id: filterId }, action: 'block', id: 'a'.repeat(32) },
        { action: 'block' },
      ]);
      expect(reply.body.errors.map((e) => e.source?.pointer)).toEqual(['/0/priority', '/1/priority', '/2/description', '/2/ref', '/3/id', '/4/filter']);
    });
  });

  describe('list and get', () => {
    it('lists with query filters and pages, embedding each rule\'s filter', async () => {
      const zl = await h.zone('rules-list.example');
      const [f] = result(await h.api('POST', `/zones/${zl}/filters`, [{ expression: 'ip.src eq 192.0.2.1' }]));
      const body = Array.from({ length: 12 }, (_, i) => ({ filter: { id: f.id }, action: i < 4 ? 'challenge' : 'block', description: `Rule ${i}`, ref: `r${String(i).padStart(2, '0')}`, paused: i === 11 }));
      result(await h.api('POST', `/zones/${zl}/firewall/rules`, body));
      const page = await h.api('GET', `/zones/${zl}/firewall/rules?per_page=5&page=3`);
      expect(page.body.result_info).toEqual({ page: 3, per_page: 5, count: 2, total_count: 12, total_pages: 3 });
      expect((page.body.result as any[])[0].filter).toEqual({ id: f.id, paused: false, expression: 'ip.src eq 192.0.2.1' });
      expect(result(await h.api('GET', `/zones/${zl}/firewall/rules?action=challenge`))).toHaveLength(4);
      expect(result(await h.api('GET', `/zones/${zl}/firewall/rules?description=rule 1`)).map((r: any) => r.description)).toEqual(['Rule 1', 'Rule 10', 'Rule 11']);
      expect(result(await h.api('GET', `/zones/${zl}/firewall/rules?paused=true`))).toHaveLength(1);
      expect(codes(await h.api('GET', `/zones/${zl}/firewall/rules?action=deny`))).toEqual([10017]);
      expect(codes(await h.api('GET', `/zones/${zl}/firewall/rules/${'0'.repeat(32)}`))).toEqual([10001]);
      expect((await h.api('GET', `/zones/${zl}/firewall/rules/${'0'.repeat(32)}`)).status).toBe(404);
    });

    it('lists rules in evaluation order (priority, null last, then action precedence), across pages', async () => {
      const zo = await h.zone('rules-order.example');
      const [f] = result(await h.api('POST', `/zones/${zo}/filters`, [{ expression: 'ip.src eq 192.0.2.1' }]));
      const rule = (description: string, action: string, priority?: number, ref?: string) => ({
        filter: { id: f.id }, action, description, ...(priority !== undefined ? { priority } : {}), ...(action === 'bypass' ? { products: ['waf'] } : {}),
        ...(ref !== undefined ? { ref } : {}),
      });
      // Ties (same priority and action) go by ref (issue 32), not by creation: block-null-2 is created last but its ref sorts first.
      result(await h.api('POST', `/zones/${zo}/firewall/rules`, [
        rule('block-null', 'block', undefined, 'tie-b'), rule('allow-null', 'allow'), rule('block-5', 'block', 5), rule('log-5', 'log', 5),
        rule('challenge-1', 'challenge', 1), rule('bypass-5', 'bypass', 5), rule('block-null-2', 'block', undefined, 'tie-a'),
      ]));
      const expected = ['challenge-1', 'log-5', 'bypass-5', 'block-5', 'allow-null', 'block-null-2', 'block-null'];
      const all = result(await h.api('GET', `/zones/${zo}/firewall/rules`));
      expect(all.map((r: any) => r.description)).toEqual(expected);
      const p1 = result(await h.api('GET', `/zones/${zo}/firewall/rules?per_page=5&page=1`));
      const p2 = result(await h.api('GET', `/zones/${zo}/firewall/rules?per_page=5&page=2`));
      expect([...p1, ...p2].map((r: any) => r.description)).toEqual(expected);
      const blocks = result(await h.api('GET', `/zones/${zo}/firewall/rules?action=block`));
      expect(blocks.map((r: any) => r.description)).toEqual(['block-5', 'block-null-2', 'block-null']);
    });

    it('says plainly that an empty array creates nothing', async () => {
      const reply = await h.api('POST', R(), []);
      expect(reply.status).toBe(400);
      expect(reply.body.errors[0]!.message).toBe('the request body is an empty array; it must be a JSON array of firewall rule objects, with at least one');
    });
  });

  describe('updates', () => {
    it('PUT replaces a rule and accepts the echoed GET shape', async () => {
      const [rule] = result(await h.api('POST', R(), [{ filter: { id: filterId }, action: 'block', description: 'd', priority: 5 }]));
      const echoed = { ...rule, action: 'managed_challenge' };
      const updated = result(await h.api('PUT', R(`/${rule.id}`), echoed));
      expect(updated).toMatchObject({ id: rule.id, action: 'managed_challenge', description: 'd', priority: 5, created_on: rule.created_on });
      const replaced = result(await h.api('PUT', R(`/${rule.id}`), { action: 'block', filter: { id: otherFilterId } }));
      expect(replaced).toMatchObject({ priority: null, filter: { id: otherFilterId } });
      expect(replaced.description).toBeUndefined();
      const inline = await h.api('PUT', R(`/${rule.id}`), { action: 'block', filter: { expression: 'ip.src eq 192.0.2.9' } });
      expect(inline.body.errors[0]!.source).toEqual({ pointer: '/filter/id' });
    });

    it('bulk PUT is all-or-nothing', async () => {
      const [a, b] = result(await h.api('POST', R(), [{ filter: { id: filterId }, action: 'block' }, { filter: { id: filterId }, action: 'block' }]));
      const reply = await h.api('PUT', R(), [
        { id: a.id, action: 'allow', filter: { id: filterId } },
        { id: b.id, action: 'allow', filter: { id: 'c'.repeat(32) } },
      ]);
      expect(codes(reply)).toEqual([10016]);
      expect(result(await h.api('GET', R(`/${a.id}`))).action).toBe('block');
      const ok = result(await h.api('PUT', R(), [{ id: a.id, action: 'allow', filter: { id: filterId } }, { id: b.id, action: 'js_challenge', filter: { id: filterId } }]));
      expect(ok.map((r: any) => r.action)).toEqual(['allow', 'js_challenge']);
    });

    it('PATCH edits one rule or many (priorities) and answers arrays', async () => {
      const [a, b] = result(await h.api('POST', R(), [{ filter: { id: filterId }, action: 'block' }, { filter: { id: filterId }, action: 'block' }]));
      const one = result(await h.api('PATCH', R(`/${a.id}`), { priority: 3 }));
      expect(one).toHaveLength(1);
      expect(one[0]).toMatchObject({ id: a.id, priority: 3, action: 'block' });
      const many = result(await h.api('PATCH', R(), [{ id: a.id, priority: 2 }, { id: b.id, priority: 1 }]));
      expect(many.map((r: any) => r.priority)).toEqual([2, 1]);
      const bad = await h.api('PATCH', R(), [{ id: a.id, priority: 7 }, { priority: 1 }]);
      expect(bad.body.errors[0]!.source).toEqual({ pointer: '/1/id' });
      expect(result(await h.api('GET', R(`/${a.id}`))).priority).toBe(2);
      const toBypass = await h.api('PATCH', R(`/${a.id}`), { action: 'bypass' });
      expect(toBypass.body.errors[0]!.source).toEqual({ pointer: '/products' });
    });

    it('repointing a rule away from its inline filter keeps the filter, as the real service does', async () => {
      const [rule] = result(await h.api('POST', R(), [{ filter: { expression: 'http.request.uri.query contains "sqlmap"' }, action: 'block' }]));
      const repointed = await h.api('PUT', R(`/${rule.id}`), { action: 'block', filter: { id: otherFilterId } });
      expect(result(repointed).filter.id).toBe(otherFilterId);
      expect(repointed.body.messages).toEqual([]);
      expect(result(await h.api('GET', `/zones/${z}/filters/${rule.filter.id}`)).expression).toBe('http.request.uri.query contains "sqlmap"');
    });
  });
});
