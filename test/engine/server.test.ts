/**
 * The HTTP layer: envelope on every answer, both credential styles, zone scopes, and bad input
 * (malformed JSON, wrong types, unknown fields, oversized bodies, unknown routes, wrong methods),
 * none of which changes anything or shows a stack trace. Runs on both runtimes of the zone objects:
 * the built-in host and workerd (`serve --runtime workerd`).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from 'undici';
import { EMAIL, KEY, TOKEN, codes, result, send, startHarness, startWorkerdHarness, type HttpHarness } from './helpers.js';

const runtimes: [string, (options: Parameters<typeof startHarness>[0]) => Promise<HttpHarness>][] = [
  ['built-in runtime', startHarness],
  ['workerd runtime', startWorkerdHarness],
];

for (const [runtime, start] of runtimes) describe(`serve, ${runtime}`, () => {
  let h: HttpHarness;
  let a: string;
  let b: string;
  const SCOPED = 'token-for-zone-a-only-42';
  beforeAll(async () => {
    h = await start({
      credentials: [
        { type: 'token', token: SCOPED, zones: ['a.example'] },
        { type: 'key', email: 'b-owner@example.com', key: 'key-for-zone-b-0000', zones: ['b.example'] },
      ],
      maxBodyBytes: 64 * 1024,
    });
    a = await h.zone('a.example');
    b = await h.zone('b.example');
  });
  afterAll(async () => { await h.cleanup(); });

  const anon = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => send(h.server.url, method, path, body, headers);

  describe('authentication', () => {
    it('accepts a bearer token and an X-Auth-Email + X-Auth-Key pair', async () => {
      expect((await anon('GET', `/zones/${a}/filters`, undefined, { authorization: `Bearer ${TOKEN}` })).status).toBe(200);
      expect((await anon('GET', `/zones/${a}/filters`, undefined, { 'x-auth-email': EMAIL, 'x-auth-key': KEY })).status).toBe(200);
    });

    it('answers 401 without credentials and 403 for wrong ones, in the envelope', async () => {
      const none = await anon('GET', `/zones/${a}/filters`);
      expect(none.status).toBe(401);
      expect(none.body).toEqual({ result: null, success: false, errors: [{ code: 9106, message: 'Missing X-Auth-Key, X-Auth-Email or Authorization headers' }], messages: [] });
      const badToken = await anon('GET', `/zones/${a}/filters`, undefined, { authorization: 'Bearer nope-nope-nope' });
      expect([badToken.status, codes(badToken)]).toEqual([403, [9109]]);
      const badKey = await anon('GET', `/zones/${a}/filters`, undefined, { 'x-auth-email': EMAIL, 'x-auth-key': 'wrong-key-value' });
      expect([badKey.status, codes(badKey)]).toEqual([403, [9103]]);
      const malformed = await anon('GET', `/zones/${a}/filters`, undefined, { 'x-auth-email': 'not-an-email', 'x-auth-key': KEY });
      expect(malformed.status).toBe(400);
      expect(malformed.body.errors[0]).toMatchObject({ code: 6003, error_chain: [{ code: 6102 }] });
      const basic = await anon('GET', `/zones/${a}/filters`, undefined, { authorization: 'Basic abc' });
      expect(malformed.status).toBe(400);
      expect(basic.body.errors[0]!.error_chain![0]!.code).toBe(6111);
    });

    it('keeps a credential to its zones: reads and writes elsewhere get 403 and change nothing', async () => {
      const mine = { authorization: `Bearer ${SCOPED}` };
      expect((await anon('GET', `/zones/${a}/firewall/rules`, undefined, mine)).status).toBe(200);
      const read = await anon('GET', `/zones/${b}/filters`, undefined, mine);
      expect([read.status, codes(read)]).toEqual([403, [10000]]);
      const write = await anon('POST', `/zones/${b}/filters`, [{ expression: 'ip.src eq 192.0.2.1' }], mine);
      expect(write.status).toBe(403);
      expect(result(await h.api('GET', `/zones/${b}/filters`))).toEqual([]);
      const keyB = { 'x-auth-email': 'B-Owner@example.com', 'x-auth-key': 'key-for-zone-b-0000' };
      expect((await anon('GET', `/zones/${b}/filters`, undefined, keyB)).status).toBe(200);
      expect((await anon('GET', `/zones/${a}/filters`, undefined, keyB)).status).toBe(403);
      const zones = result(await anon('GET', '/zones', undefined, mine));
      expect(zones.map((zone: any) => zone.name)).toEqual(['a.example']);
    });

    it('verifies tokens like the real service', async () => {
      const reply = await anon('GET', '/user/tokens/verify', undefined, { authorization: `Bearer ${TOKEN}` });
      expect(result(reply)).toMatchObject({ status: 'active' });
      expect(reply.body.messages![0]!.message).toBe('This API Token is valid and active');
    });
  });

  describe('bad input', () => {
    it('malformed JSON: 400 envelope, nothing created', async () => {
      const reply = await h.api('POST', `/zones/${a}/filters`, '[{"expression": ');
      expect(reply.status).toBe(400);
      expect(reply.body).toMatchObject({ success: false, result: null });
      expect(codes(reply)).toEqual([10011]);
      expect(result(await h.api('GET', `/zones/${a}/filters`))).toEqual([]);
    });

    it('wrong content type: 415', async () => {
      const reply = await h.api('POST', `/zones/${a}/filters`, '[{"expression":"ip.src eq 192.0.2.1"}]', { 'content-type': 'application/x-www-form-urlencoded' });
      expect([reply.status, codes(reply)]).toEqual([415, [10012]]);
    });

    it('wrong types and unknown fields name the field', async () => {
      const reply = await h.api('POST', `/zones/${a}/firewall/rules`, [{ filter: { expression: 42 }, action: 'block', paused: 'yes', colour: 'red' }]);
      expect(reply.status).toBe(400);
      const byPointer = Object.fromEntries(reply.body.errors.map((e) => [e.source!.pointer, e.message]));
      expect(byPointer['/0/filter/expression']).toMatch(/must be a string, got number/);
      expect(byPointer['/0/paused']).toMatch(/true or false/);
      expect(byPointer['/0/colour']).toMatch(/unknown field "colour"/);
    });

    it('oversized bodies: 413 envelope', async () => {
      const big = JSON.stringify([{ expression: 'ip.src eq 192.0.2.1', description: 'x'.repeat(70 * 1024) }]);
      const reply = await h.api('POST', `/zones/${a}/filters`, big);
      expect([reply.status, codes(reply)]).toEqual([413, [10013]]);
      expect(result(await h.api('GET', `/zones/${a}/filters`))).toEqual([]);
    });

    it('unknown routes: 404 with 7003 + 7000; unknown zones too', async () => {
      for (const path of ['/nope', `/zones/${a}/firewall/nope`, `/zones/${'9'.repeat(32)}/filters`]) {
        const reply = await h.api('GET', path);
        expect(reply.status, path).toBe(404);
        expect(codes(reply)).toEqual([7003, 7000]);
      }
      const outside = await request(`${h.server.url.replace('/client/v4', '')}/other`);
      expect(outside.statusCode).toBe(404);
      expect(((await outside.body.json()) as { success: boolean }).success).toBe(false);
    });

    it('wrong methods: 405 with Allow', async () => {
      const reply = await h.api('PATCH', `/zones/${a}/filters`, []);
      expect(reply.status).toBe(405);
      expect(reply.headers.allow).toBe('GET, POST, PUT, DELETE');
      expect(codes(reply)).toEqual([7001]);
    });

    it('never shows a stack trace', async () => {
      const replies = await Promise.all([
        h.api('POST', `/zones/${a}/filters`, '{'),
        h.api('PUT', `/zones/${a}/filters/${'1'.repeat(32)}`, null),
        h.api('POST', `/zones/${a}/firewall/rules`, [null, 'x', []]),
        h.api('GET', `/zones/${a}/filters/%E0%A4%A`),
      ]);
      for (const reply of replies) {
        expect(reply.body.success).toBe(false);
        expect(reply.text).not.toMatch(/\bat .*\.(ts|js):\d+/);
      }
    });
  });

  describe('expression validation', () => {
    it('answers like the real validate-expr endpoint', async () => {
      const good = await h.api('GET', `/filters/validate-expr?expression=${encodeURIComponent('ip.src eq 192.0.2.1')}`);
      expect(good.body).toMatchObject({ success: true, result: null });
      const bad = await h.api('POST', '/filters/validate-expr', { expression: 'ip.src eq 192.0.2.' });
      expect(bad.status).toBe(400);
      expect(bad.body.messages).toBeNull();
      expect(bad.body.errors[0]!.code).toBeUndefined();
      expect(bad.body.errors[0]!.message).toMatch(/^Filter parsing error \(1:\d+\)/);
    });
  });

  describe('zones over HTTP (engine extension)', () => {
    it('creates, lists, shows and deletes zones', async () => {
      const created = result(await h.api('POST', '/zones', { name: 'New.Example', plan_tier: 'pro' }));
      expect(created).toMatchObject({ name: 'new.example', plan_tier: 'pro', plan: { legacy_id: 'pro' }, status: 'active' });
      expect(codes(await h.api('POST', '/zones', { name: 'new.example' }))).toEqual([1061]);
      expect(result(await h.api('GET', `/zones/${created.id}`)).name).toBe('new.example');
      expect(result(await h.api('GET', '/zones?name=new.example')).map((z: any) => z.id)).toEqual([created.id]);
      expect(result(await h.api('DELETE', `/zones/${created.id}`))).toEqual({ id: created.id });
      expect((await h.api('GET', `/zones/${created.id}`)).status).toBe(404);
      const scoped = await anon('POST', '/zones', { name: 'c.example' }, { authorization: `Bearer ${SCOPED}` });
      expect(scoped.status).toBe(403);
      expect(codes(await h.api('POST', '/zones', { name: 'x', plan_tier: 'gold' }))).toEqual([10014]);
    });
  });
});
