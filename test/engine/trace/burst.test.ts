/**
 * Bursts through rate limiting rules: the counting core (`RateLimitCounter`: sliding-window
 * estimate, mitigation timeout, throttle), the pure burst trace (`traceBurst`: keys by
 * characteristic, a missing header its own key, custom rules first, a skip of `http_ratelimit`,
 * cached requests and `requests_to_origin`, rule order), and the same over
 * `POST /zones/{id}/trace/burst` on a real server with rules written through the Rulesets API.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RateLimitCounter, traceBurst, type StoredRuleset, type ZoneTraceInput } from '../../../src/engine/index.js';
import { defaultSettings } from '../../../src/engine/previous-waf/model.js';
import { result, startCustomKit, type CustomKit } from '../rulesets/custom-kit.js';

function ruleset(...rules: Record<string, unknown>[]): StoredRuleset {
  return { id: 'r', name: 'default', description: '', version: '1', last_updated: '',
    rules: rules.map((r, i) => ({ id: `id${i}`, ref: `r${i}`, version: '1', last_updated: '', description: '', enabled: true, action: 'block', expression: 'true', ...r })) as StoredRuleset['rules'] };
}
const login = { ref: 'login', expression: 'http.request.uri.path eq "/login"', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5, mitigation_timeout: 600, requests_to_origin: false } };
const api = { ref: 'api', expression: 'starts_with(http.request.uri.path, "/api/")', ratelimit: { characteristics: ['cf.colo.id', 'http.request.headers["x-api-key"]'], period: 10, requests_per_period: 10, mitigation_timeout: 0, requests_to_origin: false } };
const zone = (customRules?: StoredRuleset): ZoneTraceInput => ({ wafState: 'new_only', plan: 'enterprise', firewallRules: [], entrypoint: undefined, customRules, previousWaf: defaultSettings() });

describe('RateLimitCounter', () => {
  it('acts on the request over the threshold and for the timeout after it, uncounted', () => {
    const c = new RateLimitCounter(60, 2, 600);
    expect([0, 10_000].map((t) => c.hit('a', t, true, true))).toEqual([undefined, undefined]);
    expect(c.hit('a', 20_000, true, true)).toBe(620_000);
    expect(c.hit('b', 20_000, true, true)).toBeUndefined();
    expect(c.hit('a', 619_999, true, true)).toBe(620_000);
    expect(c.hit('a', 620_000, true, true)).toBeUndefined();
  });

  it('weighs the previous window by the share of the period not yet elapsed', () => {
    const c = new RateLimitCounter(10, 4, 10);
    for (const t of [6000, 7000, 8000, 9000]) expect(c.hit('k', t, true, true)).toBeUndefined();
    // At 12.5 s: 4 * 0.75 + 1 = 4, not over; at 13 s: 4 * 0.7 + 2 = 4.8, over.
    expect(c.hit('k', 12_500, true, true)).toBeUndefined();
    expect(c.hit('k', 13_000, true, true)).toBe(23_000);
  });

  it('throttles: only the requests over the rate get the action, and they are not counted', () => {
    const c = new RateLimitCounter(10, 2, 0);
    expect([0, 1, 2, 3].map((s) => c.hit('k', s * 1000, true, true))).toEqual([undefined, undefined, -1, -1]);
    expect(c.hit('k', 20_000, true, true)).toBeUndefined();
  });

  it('counts requests the rule does not act on (a counting expression) without acting on them', () => {
    const c = new RateLimitCounter(10, 1, 10);
    expect(c.hit('k', 0, true, false)).toBeUndefined();
    expect(c.hit('k', 1, true, false)).toBeUndefined();
    expect(c.hit('k', 2, false, true)).toBe(10_002);
  });
});

describe('traceBurst', () => {
  it('resolves $name with the lists it is given, on the memoised and the plain path alike', () => {
    const listed = { ref: 'listed', expression: 'ip.src in $office', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 1, mitigation_timeout: 60, requests_to_origin: false } };
    const spec = { count: 4, over: 4, vary: { ip: ['192.0.2.7', '198.51.100.7'] } };
    const lists = { office: ['192.0.2.0/24'] };
    const memo = traceBurst(zone(), ruleset(listed), { path: '/' }, spec, { lists });
    expect([memo.first?.first_request, memo.acted]).toEqual([3, 1]);
    expect(traceBurst(zone(), ruleset(listed), { path: '/' }, spec, { lists, memo: false })).toEqual(memo);
    expect(traceBurst(zone(), ruleset(listed), { path: '/' }, spec).acted).toBe(0);
  });

  it('blocks the 6th login of one IP in 60 s for 10 minutes, and no one when the IPs differ', () => {
    const t = traceBurst(zone(), ruleset(login), { method: 'POST', path: '/login', ip: '198.51.100.7' }, { count: 6, over: 60 });
    expect(t.first).toEqual({ ref: 'login', action: 'block', first_request: 6, at: 50, until: 650, requests: 1, status_code: 429 });
    const spread = traceBurst(zone(), ruleset(login), { path: '/login' }, { count: 6, over: 60, vary: { ip: ['198.51.100.1', '198.51.100.2'] } });
    expect([spread.first, spread.acted]).toEqual([null, 0]);
  });

  it('throttles an API key past 10 in 10 s, counts keys apart, and a missing key as a key of its own', () => {
    const t = traceBurst(zone(), ruleset(api), { path: '/api/items', headers: { 'X-Api-Key': 'a' } }, { count: 15, over: 10 });
    expect([t.first?.first_request, t.first?.until, t.acted]).toEqual([11, null, 5]);
    const two = traceBurst(zone(), ruleset(api), { path: '/api/items' }, { count: 20, over: 10, vary: { headers: { 'X-Api-Key': ['a', 'b'] } } });
    expect(two.acted).toBe(0);
    const none = traceBurst(zone(), ruleset(api), { path: '/api/items' }, { count: 11, over: 10 });
    expect(none.first?.first_request).toBe(11);
    const empty = traceBurst(zone(), ruleset(api), { path: '/api/items' }, { count: 20, over: 10, vary: { headers: { 'X-Api-Key': [''] } } });
    expect(empty.acted).toBe(10);
  });

  it('counts IPv6 clients per /64', () => {
    const t = traceBurst(zone(), ruleset(login), { path: '/login' }, { count: 6, over: 60, vary: { ip: ['2001:db8::1', '2001:db8::2', '2001:db8::ffff:1'] } });
    expect(t.first?.first_request).toBe(6);
  });

  it('runs after the custom rules: a block there ends the request, a skip of http_ratelimit passes it', () => {
    const custom = (action: string, params?: unknown) => ruleset({ ref: 'c', action, expression: 'ip.src eq 192.0.2.9', ...(params !== undefined ? { action_parameters: params } : {}) });
    const blocked = traceBurst(zone(custom('block')), ruleset(login), { path: '/login', ip: '192.0.2.9' }, { count: 10, over: 10 });
    expect([blocked.ended_by_custom_rules, blocked.acted]).toEqual([10, 0]);
    const skipped = traceBurst(zone(custom('skip', { phases: ['http_ratelimit'] })), ruleset(login), { path: '/login', ip: '192.0.2.9' }, { count: 10, over: 10 });
    expect([skipped.skipped, skipped.acted, skipped.first]).toEqual([10, 0, null]);
    const other = traceBurst(zone(custom('skip', { phases: ['http_ratelimit'] })), ruleset(login), { path: '/login', ip: '192.0.2.10' }, { count: 10, over: 10 });
    expect(other.first?.first_request).toBe(6);
  });

  it('does not count cached requests for a rule that counts requests to the origin only', () => {
    const origin = { ...login, ratelimit: { ...login.ratelimit, requests_to_origin: true } };
    expect(traceBurst(zone(), ruleset(origin), { path: '/login' }, { count: 10, over: 10, cached: true }).acted).toBe(0);
    expect(traceBurst(zone(), ruleset(origin), { path: '/login' }, { count: 10, over: 10 }).acted).toBe(5);
    expect(traceBurst(zone(), ruleset(login), { path: '/login' }, { count: 10, over: 10, cached: true }).acted).toBe(5);
  });

  it('takes explicit times, and a log rule before a block: both act, the block stops', () => {
    const t = traceBurst(zone(), ruleset({ ...login, ref: 'audit', action: 'log' }, login), { path: '/login' }, { at: [0, 1, 2, 3, 4, 5, 100, 700] });
    expect(t.rules.map((r) => [r.ref, r.action, r.first_request, r.until, r.requests])).toEqual([['audit', 'log', 6, 605, 2], ['login', 'block', 6, 605, 2]]);
    expect(t.first?.ref).toBe('audit');
  });
});

describe('POST /zones/{id}/trace/burst', () => {
  let kit: CustomKit;
  beforeAll(async () => { kit = await startCustomKit(); });
  afterAll(async () => { await kit.h.cleanup(); });

  it('runs a burst through the zone\'s rules, over HTTP and in-process', async () => {
    for (const [, call] of kit.transports) {
      const z = await kit.zone('enterprise');
      expect((await call('PUT', `/zones/${z}/rulesets/phases/http_ratelimit/entrypoint`, { rules: [{ action: 'block', ...login }] })).status).toBe(200);
      const t = result(await call('POST', `/zones/${z}/trace/burst`, { request: { path: '/login', ip: '198.51.100.7' }, burst: { count: 6, over: 60 } }));
      expect(t.first).toMatchObject({ ref: 'login', first_request: 6, until: 650 });
      const bad = await call('POST', `/zones/${z}/trace/burst`, { request: { path: '/login', ip: 'x' }, burst: { count: 0, vary: { ip: ['a', 'b'], path: ['/'] } } });
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { source?: { pointer?: string } }) => e.source?.pointer)).toEqual(['/request/ip', '/burst/count', '/burst/vary']);
    }
  });
});
