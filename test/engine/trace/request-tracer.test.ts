/**
 * The request tracer, `POST /accounts/{account_id}/request-tracer/trace` (issue 33): the zone found
 * from the URL's host within the account, the service's body and nested result (phase → ruleset →
 * rule), the zonewall extension only when not strict, and refusals with a pointer; the rate limiting
 * rules (`http_ratelimit`) after the custom rules, matched by expression (a single request never
 * exceeds a rate), in the tracer and in the engine's own `POST /zones/{id}/trace`. On a real server.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineAccount } from '../../../src/engine/index.js';
import { codes, result, startHarness, type Harness } from '../helpers.js';

const tracer = `/accounts/${EngineAccount.id}/request-tracer/trace`;

describe.each([false, true])('request tracer (strict %s)', (strict) => {
  let h: Harness;
  let zone: string;
  beforeAll(async () => {
    h = await startHarness({ strict });
    zone = await h.zone('tracer.example', 'business');
    result(await h.api('PUT', `/zones/${zone}/rulesets/phases/http_request_firewall_custom/entrypoint`, { rules: [
      { ref: 'office', description: 'office', action: 'skip', expression: 'ip.src in {203.0.113.0/24}', action_parameters: { ruleset: 'current' } },
      { ref: 'scanners', action: 'block', expression: 'http.user_agent contains "sqlmap"', action_parameters: { response: { status_code: 418, content_type: 'text/plain', content: 'no' } } },
      { ref: 'admin', action: 'managed_challenge', expression: 'starts_with(http.request.uri.path, "/admin") and ip.src.country ne "GB"' },
      { ref: 'off', action: 'block', expression: 'true', enabled: false },
    ] }));
  });
  afterAll(async () => { await h.cleanup(); });

  it('answers {status_code, trace} with phase -> ruleset -> rule steps; a subdomain finds its zone', async () => {
    const r = result<any>(await h.api('POST', tracer, { url: 'https://www.tracer.example/products', method: 'GET', headers: { 'User-Agent': 'sqlmap/1.7' } }));
    expect(r.status_code, JSON.stringify(r)).toBe(418);
    const phase = r.trace.find((s: any) => s.step_name === 'http_request_firewall_custom');
    expect(phase).toMatchObject({ type: 'phase', matched: true });
    const ruleset = phase.trace[0];
    expect(ruleset).toMatchObject({ type: 'ruleset', kind: 'zone', matched: true });
    expect(ruleset.trace.map((s: any) => [s.type, s.action, s.matched])).toEqual([['rule', 'skip', false], ['rule', 'block', true]]);
    expect(ruleset.trace[1]).toMatchObject({ expression: 'http.user_agent contains "sqlmap"', action_parameters: { response: { status_code: 418 } } });
    if (strict) expect(r).not.toHaveProperty('zonewall');
    else expect(r.zonewall).toMatchObject({ action: 'block', waf_state: expect.any(String) });
  });

  it('reads geoloc, cookies and the zonewall extension (ip)', async () => {
    const gb = result<any>(await h.api('POST', tracer, { url: 'https://tracer.example/admin', method: 'GET', context: { geoloc: { iso_code: 'GB' } }, cookies: { a: 'b' } }));
    expect(gb.status_code).toBe(200);
    const fr = result<any>(await h.api('POST', tracer, { url: 'https://tracer.example/admin', method: 'GET', context: { geoloc: { iso_code: 'FR' } } }));
    expect(fr.status_code).toBe(403);
    const office = result<any>(await h.api('POST', tracer, { url: 'https://tracer.example/admin', method: 'GET', zonewall: { ip: "203.0.113.7" } }));
    expect(office.status_code).toBe(200);
    const rules = office.trace[0].trace[0].trace;
    expect(rules.map((s: any) => [s.action, s.matched])).toEqual([['skip', true]]);
  });

  it('refuses an unknown host, another account and a bad body, with pointers', async () => {
    const none = await h.api('POST', tracer, { url: 'https://elsewhere.example/', method: 'GET' });
    expect([none.status, codes(none)]).toEqual([400, [10014]]);
    expect(none.body.errors[0]?.source?.pointer).toBe('/url');
    const other = await h.api('POST', `/accounts/${'1'.repeat(32)}/request-tracer/trace`, { url: 'https://tracer.example/', method: 'GET' });
    expect(other.status).toBe(400);
    const bad = await h.api('POST', tracer, { url: 'https://tracer.example/', method: 'GET', body: { plain_text: 'x', base64: 'eA==' }, nope: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e: any) => e.source?.pointer).sort()).toEqual(['/body', '/nope']);
  });

  it('lists the rate limiting rules after the custom rules: matched by expression, none acting; skipped after a custom skip of the phase or a block', async () => {
    const rl = await h.zone('ratelimit-tracer.example', 'business');
    result(await h.api('PUT', `/zones/${rl}/rulesets/phases/http_request_firewall_custom/entrypoint`, { rules: [
      { ref: 'partners', action: 'skip', expression: 'ip.src in {198.51.100.0/24}', action_parameters: { phases: ['http_ratelimit'] } },
      { ref: 'scanners', action: 'block', expression: 'http.user_agent contains "sqlmap"' },
    ] }));
    result(await h.api('PUT', `/zones/${rl}/rulesets/phases/http_ratelimit/entrypoint`, { rules: [
      { ref: 'login', action: 'block', expression: 'http.request.uri.path eq "/login"', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5, mitigation_timeout: 600 } },
      { ref: 'api', action: 'managed_challenge', expression: 'starts_with(http.request.uri.path, "/api/")', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 10, requests_per_period: 1, mitigation_timeout: 0 } },
      { ref: 'off', action: 'block', expression: 'true', enabled: false, ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 10, requests_per_period: 1, mitigation_timeout: 60 } },
    ] }));
    const login = result<any>(await h.api('POST', tracer, { url: 'https://ratelimit-tracer.example/login', method: 'POST' }));
    expect(login.status_code).toBe(200);
    expect(login.trace.map((s: any) => s.step_name).slice(0, 2)).toEqual(['http_request_firewall_custom', 'http_ratelimit']);
    const phase = login.trace[1];
    expect(phase).toMatchObject({ type: 'phase', matched: true, trace: [{ type: 'ruleset', kind: 'zone', matched: true }] });
    expect(phase.trace[0].trace.map((s: any) => [s.action, s.matched, s.expression])).toEqual([
      ['block', true, 'http.request.uri.path eq "/login"'], ['managed_challenge', false, 'starts_with(http.request.uri.path, "/api/")'],
    ]);
    if (!strict) expect(login.zonewall.action).toBeNull();
    // A custom skip of http_ratelimit, and a custom block, leave the phase without rules.
    for (const body of [{ url: 'https://ratelimit-tracer.example/login', method: 'GET', zonewall: { ip: '198.51.100.7' } }, { url: 'https://ratelimit-tracer.example/login', method: 'GET', headers: { 'User-Agent': 'sqlmap' } }]) {
      const r = result<any>(await h.api('POST', tracer, body));
      const skipped = r.trace.find((s: any) => s.step_name === 'http_ratelimit');
      expect(skipped).toMatchObject({ matched: false, trace: [{ type: 'ruleset', matched: false, trace: [] }] });
    }
    // The engine's own trace (a zonewall route, absent under strict): a rate_limiting_rules section naming the rules by ref.
    if (strict) return;
    const own = result<any>(await h.api('POST', `/zones/${rl}/trace`, { path: '/api/items' }));
    expect(own.action).toBeNull();
    expect(own.rate_limiting_rules).toEqual({ matched: [{ id: expect.any(String), ref: 'api', action: 'managed_challenge' }] });
    const partner = result<any>(await h.api('POST', `/zones/${rl}/trace`, { path: '/api/items', ip: '198.51.100.7' }));
    expect(partner.rate_limiting_rules).toEqual({ matched: [], skipped_by: 'a custom rule skips http_ratelimit' });
  });
});

