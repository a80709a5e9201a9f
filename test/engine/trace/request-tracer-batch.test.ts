/**
 * The request tracer's batch (`POST /accounts/{account_id}/request-tracer/trace/batch`, zonewall's
 * extension, issue 32): each result is exactly what the tracer route answers for the same body, in
 * order; `matched_only` leaves out the rule steps that did not match; refusals point into the
 * batch; under `serve --strict` the route is the real API's unknown path (404, 7003). On a real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineAccount } from '../../../src/engine/index.js';
import { codes, result, startHarness, type Harness } from '../helpers.js';

const tracer = `/accounts/${EngineAccount.id}/request-tracer/trace`;
const batch = `${tracer}/batch`;

/** Varied requests: firewall rules (log, bypass, allow, block), custom rules (skip, block, challenge), the previous WAF, geo, cookies, extension fields. */
const requests = [
  { url: 'https://batch.example/', method: 'GET' },
  { url: 'https://www.batch.example/products?q=1', method: 'GET', headers: { 'User-Agent': 'sqlmap/1.7' } },
  { url: 'https://batch.example/admin', method: 'GET', context: { geoloc: { iso_code: 'FR' } } },
  { url: 'https://batch.example/admin', method: 'GET', context: { geoloc: { iso_code: 'GB' } }, cookies: { session: 'abc' } },
  { url: 'https://batch.example/admin', method: 'GET', zonewall: { ip: '203.0.113.7' } },
  { url: 'https://batch.example/api/items', method: 'POST', headers: { 'X-Tenant': 't1' }, body: { plain_text: 'a=1' } },
  { url: 'https://batch.example/old', method: 'GET', zonewall: { ip: '198.51.100.9' } },
  { url: 'https://batch.example/login', method: 'GET', context: { threat_score: 80 } },
  { url: 'http://shop.batch.example/cart?item=%3Cscript%3E', method: 'PUT', headers: { 'User-Agent': 'curl/8' } },
  { url: 'https://batch.example/?id=1%27%20OR%201=1--', method: 'GET', headers: { 'User-Agent': 'Mozilla/5.0' } },
];

/** A result without the rule steps that did not match (what `matched_only` answers). */
function matchedOnly(step: any): any {
  if (step.trace === undefined) return step;
  return { ...step, trace: step.trace.filter((s: any) => s.type !== 'rule' || s.matched === true).map(matchedOnly) };
}

describe('request tracer batch (zonewall extension)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    const zone = await h.zone('batch.example', 'enterprise');
    await h.zone('other.example', 'business');
    result(await h.api('POST', `/zones/${zone}/firewall/rules`, [
      { action: 'log', filter: { expression: 'http.request.method eq "POST"' } },
      { action: 'bypass', products: ['waf'], filter: { expression: 'starts_with(http.request.uri.path, "/api")' } },
      { action: 'allow', filter: { expression: 'ip.src eq 198.51.100.9' } },
      { action: 'block', filter: { expression: 'http.request.uri.path eq "/old"' } },
      { action: 'js_challenge', filter: { expression: 'cf.threat_score gt 50' } },
    ]));
    result(await h.api('PUT', `/zones/${zone}/rulesets/phases/http_request_firewall_custom/entrypoint`, { rules: [
      { ref: 'office', action: 'skip', expression: 'ip.src in {203.0.113.0/24}', action_parameters: { ruleset: 'current' } },
      { ref: 'scanners', action: 'block', expression: 'http.user_agent contains "sqlmap"', action_parameters: { response: { status_code: 418, content_type: 'text/plain', content: 'no' } } },
      { ref: 'admin', action: 'managed_challenge', expression: 'starts_with(http.request.uri.path, "/admin") and ip.src.country ne "GB"' },
      { ref: 'off', action: 'block', expression: 'true', enabled: false },
    ] }));
  });
  afterAll(async () => { await h.cleanup(); });

  it('answers each request exactly as the tracer route does, in order; matched_only keeps only the matched rule steps', async () => {
    const one = await Promise.all(requests.map(async (r) => result<any>(await h.api('POST', tracer, r))));
    const all = result<any>(await h.api('POST', batch, { requests }));
    expect(all.results).toEqual(one);
    // The set is varied: several statuses and deciders.
    expect(new Set(one.map((r) => r.status_code)).size).toBeGreaterThanOrEqual(3);
    expect([...new Set(one.map((r) => r.zonewall.action))]).toEqual(expect.arrayContaining([null, 'allow', 'block', 'managed_challenge', 'js_challenge']));
    const matched = result<any>(await h.api('POST', batch, { requests, matched_only: true }));
    expect(matched.results).toEqual(one.map((r) => ({ ...r, trace: r.trace.map(matchedOnly) })));
    expect(JSON.stringify(matched.results).length).toBeLessThan(JSON.stringify(one).length);
  });

  it('refuses an empty or oversized batch, a request of another zone and a bad request, pointing into the batch', async () => {
    const empty = await h.api('POST', batch, { requests: [] });
    expect([empty.status, codes(empty), empty.body.errors[0]?.source?.pointer]).toEqual([400, [10014], '/requests']);
    const big = await h.api('POST', batch, { requests: Array.from({ length: 1001 }, () => requests[0]) });
    expect([big.status, big.body.errors[0]?.source?.pointer]).toEqual([400, '/requests']);
    const other = await h.api('POST', batch, { requests: [requests[0], { url: 'https://other.example/', method: 'GET' }] });
    expect([other.status, codes(other), other.body.errors[0]?.source?.pointer]).toEqual([400, [10014], '/requests/1/url']);
    expect(other.body.errors[0]?.message).toMatch(/other\.example.*one zone/);
    const bad = await h.api('POST', batch, { requests: [requests[0], requests[1], { url: 'https://batch.example/', method: 'GET', nope: 1 }] });
    expect([bad.status, bad.body.errors.map((e: any) => e.source?.pointer)]).toEqual([400, ['/requests/2/nope']]);
    const unknown = await h.api('POST', batch, { requests: [{ url: 'https://elsewhere.example/', method: 'GET' }] });
    expect([unknown.status, unknown.body.errors[0]?.source?.pointer]).toEqual([400, '/url']);
    const first = await h.api('POST', batch, { requests: [{ method: 'GET' }] });
    expect([first.status, first.body.errors[0]?.source?.pointer]).toEqual([400, '/requests/0/url']);
    const field = await h.api('POST', batch, { requests, extra: true });
    expect([field.status, field.body.errors[0]?.source?.pointer]).toEqual([400, '/extra']);
  });
});

describe('request tracer batch under serve --strict', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ strict: true });
    await h.zone('batch.example', 'business');
  });
  afterAll(async () => { await h.cleanup(); });

  it('is the real API\'s unknown path (404, 7003), while the tracer route answers', async () => {
    const refused = await h.api('POST', batch, { requests });
    expect([refused.status, codes(refused)]).toEqual([404, [7003, 7000]]);
    expect((await h.api('POST', tracer, requests[0])).status).toBe(200);
  });
});
