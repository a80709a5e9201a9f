/**
 * Issue 33 through the official client (npm `cloudflare` 7.3.0) against `zonewall serve` on both
 * runtimes (built-in and workerd), normal and `--strict`: each item's typed call, type-checked
 * against the client's types (the earlier items, versions.delete, microsecond last_updated, skip
 * phase current and 20204, are in official-client.test.ts).
 */
import Cloudflare from 'cloudflare';
import type { TraceCreateResponse, TraceItem } from 'cloudflare/resources/request-tracers/traces';
import type { PhaseUpdateResponse } from 'cloudflare/resources/rulesets/phases/phases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startHarness, startWorkerdHarness, type HttpHarness } from '../engine/helpers.js';

function client(h: HttpHarness): Cloudflare {
  return new Cloudflare({ apiToken: TOKEN, apiKey: null, apiEmail: null, baseURL: h.server.url, maxRetries: 0 });
}

// workerd strict is left out: its zones are made through POST /zones, an extension a strict server refuses.
describe.each([['built-in', false], ['built-in', true], ['workerd', false]] as const)('issue 33 with the official client (%s, strict: %s)', (runtime, strict) => {
  let h: HttpHarness;
  beforeAll(async () => { h = runtime === 'workerd' ? await startWorkerdHarness({ strict }) : await startHarness({ strict }); }, 120_000);
  afterAll(async () => { await h?.cleanup(); });

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

  it('refuses a plan-gated field on a lower plan with 20204 (the table validate --plan and plan check)', async () => {
    const zone_id = await h.zone('gated.example', 'pro');
    const cf = client(h);
    const put = cf.rulesets.phases.update('http_request_firewall_custom', { zone_id, rules: [
      { action: 'block', expression: 'ip.src.subdivision_1_iso_code eq "GB-ENG"', ref: 'england' },
    ] });
    await expect(put).rejects.toMatchObject({ status: 400, errors: [expect.objectContaining({ code: 20204 })] });
  });
});
