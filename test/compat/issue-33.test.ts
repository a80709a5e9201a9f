/**
 * Issue 33 through the official client (npm `cloudflare` 7.3.0) against `zonewall serve`, normal and
 * `--strict`: each item's typed call, type-checked against the client's types.
 */
import Cloudflare from 'cloudflare';
import type { TraceCreateResponse, TraceItem } from 'cloudflare/resources/request-tracers/traces';
import type { PhaseUpdateResponse } from 'cloudflare/resources/rulesets/phases/phases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startHarness, type Harness } from '../engine/helpers.js';

function client(h: Harness): Cloudflare {
  return new Cloudflare({ apiToken: TOKEN, apiKey: null, apiEmail: null, baseURL: h.server.url, maxRetries: 0 });
}

describe.each([false, true])('issue 33 with the official client (strict: %s)', (strict) => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ strict }); });
  afterAll(async () => { await h.cleanup(); });

  it('requestTracers.traces.create answers a TraceCreateResponse: phase -> ruleset -> rule, on the zone of the URL', async () => {
    const zone_id = await h.zone('trace.example', 'business');
    const cf = client(h);
    const zone = await cf.zones.get({ zone_id });
    const account_id = zone.account.id!;
    await cf.rulesets.phases.update('http_request_firewall_custom', { zone_id, rules: [
      { action: 'skip', expression: 'http.request.uri.path eq "/health"', ref: 'health', action_parameters: { phase: 'current' } },
      { action: 'block', expression: 'http.user_agent contains "sqlmap"', ref: 'sqlmap', description: 'scanners' },
    ] }) as PhaseUpdateResponse.Ruleset;
    const trace: TraceCreateResponse = await cf.requestTracers.traces.create({
      account_id, method: 'GET', url: 'https://www.trace.example/products',
      headers: { 'User-Agent': 'sqlmap/1.7' }, context: { geoloc: { iso_code: 'GB', city: 'London' }, bot_score: 10 }, protocol: 'HTTP/1.1',
    });
    expect(trace.status_code).toBe(403);
    const phase: TraceItem | undefined = trace.trace?.find((s) => s.step_name === 'http_request_firewall_custom');
    expect(phase).toMatchObject({ type: 'phase', matched: true });
    const rules: TraceItem[] = phase?.trace?.[0]?.trace ?? [];
    expect(rules.map((r) => [r.type, r.action, r.matched, r.expression])).toEqual([
      ['rule', 'skip', false, 'http.request.uri.path eq "/health"'],
      ['rule', 'block', true, 'http.user_agent contains "sqlmap"'],
    ]);
    expect(rules[1]?.description).toBe('scanners');
    // What the service's tracer cannot tell is zonewall's extension, gone under --strict.
    expect('zonewall' in trace).toBe(!strict);
    const health = await cf.requestTracers.traces.create({ account_id, method: 'GET', url: 'https://trace.example/health' });
    expect(health.status_code).toBe(200);
    expect(health.trace?.[0]?.trace?.[0]?.trace?.map((r) => r.matched)).toEqual([true]);
  });
});
