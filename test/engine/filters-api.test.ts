/**
 * The filters API over HTTP: every operation, pagination and query filters, field limits,
 * duplicates (10102 with the existing id, compared on the canonical form, sets as sets), bulk atomicity.
 * Runs on both runtimes of the zone objects: the built-in host and workerd (`serve --runtime workerd`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, result, startHarness, startWorkerdHarness, type HttpHarness } from './helpers.js';

const runtimes: [string, typeof startWorkerdHarness][] = [['built-in runtime', startHarness], ['workerd runtime', startWorkerdHarness]];

for (const [runtime, start] of runtimes) describe(runtime, () => {
  let h: HttpHarness;
  let z: string;
  beforeAll(async () => {
    h = await start();
    z = await h.zone('filters.example');
  });
  afterAll(async () => { await h.cleanup(); });

  const F = (path: string): string => `/zones/${z}/filters${path}`;

  describe('create', () => {
    it('creates an array in one call and echoes the fields (empty description/ref left out)', async () => {
      const created = result(await h.api('POST', F(''), [
        { expression: 'http.request.uri.path contains "/a"', description: 'path a', ref: 'A-1' },
        { expression: 'http.request.uri.path contains "/b"', paused: true },
      ]));
      expect(created[0]).toEqual({ id: created[0].id, paused: false, description: 'path a', ref: 'A-1', expression: 'http.request.uri.path contains "/a"' });
      expect(created[1]).toEqual({ id: created[1].id, paused: true, expression: 'http.request.uri.path contains "/b"' });
    });

    it('refuses a duplicate expression with 10102 and the existing id, also in another spelling', async () => {
      const [orig] = result(await h.api('POST', F(''), [{ expression: 'ip.src eq 192.0.2.10' }]));
      const same = await h.api('POST', F(''), [{ expression: 'ip.src == 192.0.2.10' }]);
      expect(same.status).toBe(400);
      expect(same.body.errors[0]).toMatchObject({ code: 10102, meta: { id: orig.id } });
      expect(same.body.errors[0]!.message).toMatch(/^config duplicates an already existing config/);
    });

    it('refuses a duplicate whose set is written in another order (sets compare as sets)', async () => {
      const [orig] = result(await h.api('POST', F(''), [{ expression: 'ip.src in {192.0.2.1 192.0.2.2}' }]));
      const same = await h.api('POST', F(''), [{ expression: 'ip.src in {192.0.2.2 192.0.2.1 192.0.2.2}' }]);
      expect(same.status).toBe(400);
      expect(same.body.errors[0]).toMatchObject({ code: 10102, meta: { id: orig.id } });
      expect((await h.api('POST', F(''), [{ expression: 'ip.src in {192.0.2.2 192.0.2.3}' }])).status).toBe(200);
    });

    it('refuses duplicates inside one request and creates none of the batch', async () => {
      const reply = await h.api('POST', F(''), [{ expression: 'ip.src eq 192.0.2.20' }, { expression: 'ip.src eq 192.0.2.20' }]);
      expect(codes(reply)).toEqual([10102]);
      expect(result(await h.api('GET', F('?expression=192.0.2.20')))).toEqual([]);
    });

    it('names every invalid field with a pointer, and unknown fields', async () => {
      const reply = await h.api('POST', F(''), [
        { expression: 'x'.repeat(4097) },
        { expression: 'ip.src eq 192.0.2.30', description: 'd'.repeat(501), ref: 'r'.repeat(51), paused: 'no', colour: 'red' },
        {},
      ]);
      expect(reply.status).toBe(400);
      const pointers = reply.body.errors.map((e) => e.source?.pointer);
      expect(pointers).toEqual(expect.arrayContaining(['/0/expression', '/1/description', '/1/ref', '/1/paused', '/1/colour', '/2/expression']));
      expect(reply.body.errors.find((e) => e.source?.pointer === '/0/expression')!.message).toMatch(/4097 characters long; the limit is 4096/);
      expect(reply.body.errors.find((e) => e.source?.pointer === '/1/colour')!.message).toMatch(/unknown field "colour"/);
    });

    it('gives the engine\'s parse error with line and column', async () => {
      const reply = await h.api('POST', F(''), [{ expression: 'ip.src eq 192.0.2.1 and\nhttp.host eq' }]);
      expect(reply.body.errors[0]!.code).toBe(10015);
      expect(reply.body.errors[0]!.message).toMatch(/^Filter parsing error \(2:\d+\):/);
      expect(reply.body.errors[0]!.meta).toMatchObject({ line: 2 });
    });

    it('requires a JSON array', async () => {
      const reply = await h.api('POST', F(''), { expression: 'ip.src eq 192.0.2.40' });
      expect(reply.body.errors[0]).toMatchObject({ code: 10014, message: expect.stringMatching(/JSON array/) });
    });
  });

  describe('list', () => {
    let zl: string;
    beforeAll(async () => {
      zl = await h.zone('filters-list.example');
      const body = Array.from({ length: 30 }, (_, i) => ({
        expression: `http.request.uri.path eq "/p${i}"`, description: i % 2 === 0 ? `Even ${i}` : `odd ${i}`, ref: `r${i}`, paused: i >= 28,
      }));
      result(await h.api('POST', `/zones/${zl}/filters`, body));
    });

    it('pages by 25 by default with result_info', async () => {
      const first = await h.api('GET', `/zones/${zl}/filters`);
      expect(first.body.result).toHaveLength(25);
      expect(first.body.result_info).toEqual({ page: 1, per_page: 25, count: 25, total_count: 30, total_pages: 2 });
      const second = await h.api('GET', `/zones/${zl}/filters?page=2`);
      expect(second.body.result_info).toEqual({ page: 2, per_page: 25, count: 5, total_count: 30, total_pages: 2 });
      expect((second.body.result as any[])[4].ref).toBe('r29');
    });

    it('refuses per_page outside 5..100 and page below 1', async () => {
      for (const q of ['per_page=101', 'per_page=4', 'page=0', 'per_page=abc']) {
        const reply = await h.api('GET', `/zones/${zl}/filters?${q}`);
        expect(reply.status, q).toBe(400);
        expect(codes(reply)).toEqual([10017]);
      }
      expect((await h.api('GET', `/zones/${zl}/filters?per_page=100`)).body.result).toHaveLength(30);
    });

    it('filters by paused, expression and description (case-insensitive substrings), ref and id (exact)', async () => {
      expect(result(await h.api('GET', `/zones/${zl}/filters?paused=true`)).map((f: any) => f.ref)).toEqual(['r28', 'r29']);
      expect(result(await h.api('GET', `/zones/${zl}/filters?expression=%22%2FP1%22`)).map((f: any) => f.ref)).toEqual(['r1']);
      expect(result(await h.api('GET', `/zones/${zl}/filters?description=EVEN&per_page=100`))).toHaveLength(15);
      const [r7] = result(await h.api('GET', `/zones/${zl}/filters?ref=r7`));
      expect(r7.description).toBe('odd 7');
      expect(result(await h.api('GET', `/zones/${zl}/filters?ref=R7`))).toEqual([]);
      expect(result(await h.api('GET', `/zones/${zl}/filters?id=${r7.id}`))).toEqual([r7]);
    });
  });

  describe('update and delete', () => {
    it('updates one filter (PUT replaces; id in the body must match)', async () => {
      const [f] = result(await h.api('POST', F(''), [{ expression: 'ip.src eq 192.0.2.50', description: 'old' }]));
      const updated = result(await h.api('PUT', F(`/${f.id}`), { id: f.id, expression: 'ip.src eq 192.0.2.51', paused: true }));
      expect(updated).toEqual({ id: f.id, paused: true, expression: 'ip.src eq 192.0.2.51' });
      const mismatch = await h.api('PUT', F(`/${f.id}`), { id: 'a'.repeat(32), expression: 'ip.src eq 192.0.2.52' });
      expect(mismatch.body.errors[0]!.source).toEqual({ pointer: '/id' });
      expect(codes(await h.api('PUT', F(`/${'e'.repeat(32)}`), { expression: 'ip.src eq 192.0.2.53' }))).toEqual([10002]);
    });

    it('bulk-updates atomically: one missing id changes nothing', async () => {
      const [a, b] = result(await h.api('POST', F(''), [{ expression: 'ip.src eq 192.0.2.60' }, { expression: 'ip.src eq 192.0.2.61' }]));
      const bad = await h.api('PUT', F(''), [{ id: a.id, expression: 'ip.src eq 192.0.2.62' }, { id: 'b'.repeat(32), expression: 'ip.src eq 192.0.2.63' }]);
      expect(bad.status).toBe(404);
      expect(result(await h.api('GET', F(`/${a.id}`))).expression).toBe('ip.src eq 192.0.2.60');
      // Swapping two expressions is not a duplicate.
      const swapped = result(await h.api('PUT', F(''), [{ id: a.id, expression: b.expression }, { id: b.id, expression: a.expression }]));
      expect(swapped.map((f: any) => f.expression)).toEqual([b.expression, a.expression]);
      const noId = await h.api('PUT', F(''), [{ expression: 'ip.src eq 192.0.2.64' }]);
      expect(noId.body.errors[0]!.source).toEqual({ pointer: '/0/id' });
    });

    it('deletes one (result {id}) and many (?id=A&id=B; unknown ids skipped)', async () => {
      const [a, b, c] = result(await h.api('POST', F(''), [{ expression: 'ip.src eq 192.0.2.70' }, { expression: 'ip.src eq 192.0.2.71' }, { expression: 'ip.src eq 192.0.2.72' }]));
      expect(result(await h.api('DELETE', F(`/${a.id}`)))).toEqual({ id: a.id });
      expect(codes(await h.api('DELETE', F(`/${a.id}`)))).toEqual([10002]);
      const bulk = await h.api('DELETE', F(`?id=${b.id}&id=${c.id}&id=${'d'.repeat(32)}`));
      expect(bulk.status).toBe(200);
      expect(result(bulk)).toEqual([{ id: b.id }, { id: c.id }]);
      expect(result(await h.api('DELETE', F('')))).toEqual([]);
      expect(codes(await h.api('DELETE', F('?id=a,b')))).toEqual([10017]);
    });

    it('refuses to let a rule\'s filter start using matches below business', async () => {
      const zp = await h.zone('filters-pro.example', 'pro');
      const [f] = result(await h.api('POST', `/zones/${zp}/filters`, [{ expression: 'http.request.uri.path eq "/x"' }]));
      // A filter alone may use matches: filters are not tied to a rule.
      result(await h.api('POST', `/zones/${zp}/filters`, [{ expression: 'http.request.uri.path matches "^/y"' }]));
      result(await h.api('POST', `/zones/${zp}/firewall/rules`, [{ filter: { id: f.id }, action: 'block' }]));
      const reply = await h.api('PUT', `/zones/${zp}/filters/${f.id}`, { expression: 'http.request.uri.path matches "^/x"' });
      expect(codes(reply)).toEqual([10201]);
    });
  });
});
