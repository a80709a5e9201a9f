/**
 * Issue 33 through the official client (npm `cloudflare` 7.3.0) against `zonewall serve` on both
 * runtimes (built-in and workerd), normal and `--strict`: each item's typed call, type-checked
 * against the client's types: the request tracer, versions.delete, microsecond `last_updated`, a
 * skip of phase `current`, plan-gated fields in every kind (custom rules, filters, rate limiting
 * counting expressions, managed exceptions), an unknown list, and the migration check without
 * zonewall's fields under `--strict`. A strict server refuses `POST /zones` (an extension), so the
 * strict workerd runtime is started on a state directory holding its zones, which it imports.
 */
import Cloudflare from 'cloudflare';
import type { TraceCreateResponse, TraceItem } from 'cloudflare/resources/request-tracers/traces';
import type { FirewallFilter } from 'cloudflare/resources/filters/filters';
import type { PhaseGetResponse, PhaseUpdateResponse } from 'cloudflare/resources/rulesets/phases/phases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startHarness, startWorkerdHarness, type HttpHarness } from '../engine/helpers.js';
import type { PlanTier } from '../../src/engine/index.js';

function client(h: HttpHarness): Cloudflare {
  return new Cloudflare({ apiToken: TOKEN, apiKey: null, apiEmail: null, baseURL: h.server.url, maxRetries: 0 });
}

/** The zones of the cases, made before a strict workerd runtime starts (it imports them). */
const Zones: [string, PlanTier][] = [
  ['trace.example', 'business'], ['gated.example', 'pro'], ['versions.example', 'enterprise'], ['skip-current.example', 'enterprise'],
  ['gated-filters.example', 'pro'], ['gated-ratelimit.example', 'business'], ['gated-managed.example', 'pro'], ['unknown-list.example', 'enterprise'],
  ['check-free.example', 'free'],
];

describe.each([['built-in', false], ['built-in', true], ['workerd', false], ['workerd', true]] as const)('issue 33 with the official client (%s, strict: %s)', (runtime, strict) => {
  let h: HttpHarness;
  beforeAll(async () => {
    h = runtime === 'workerd' ? await startWorkerdHarness({ strict, ...(strict ? { zones: Zones } : {}) }) : await startHarness({ strict });
  }, 120_000);
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

  it('deletes a version that is not the latest with rulesets.versions.delete; last_updated has microseconds', async () => {
    const zone_id = await h.zone('versions.example', 'enterprise');
    const cf = client(h);
    const rules = [{ action: 'block' as const, expression: 'http.request.uri.path eq "/a"', ref: 'a' }];
    const v1 = (await cf.rulesets.phases.update('http_request_firewall_custom', { zone_id, rules })) as PhaseUpdateResponse.Ruleset;
    await cf.rulesets.phases.update('http_request_firewall_custom', { zone_id, rules: [{ ...rules[0]!, enabled: false }] });
    expect(v1.last_updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    await cf.rulesets.versions.delete('1', { ruleset_id: v1.id, zone_id });
    const versions = [];
    for await (const v of cf.rulesets.versions.list(v1.id, { zone_id })) versions.push(v.version);
    expect(versions).toEqual(['2']);
    await expect(cf.rulesets.versions.get('1', { ruleset_id: v1.id, zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
    await expect(cf.rulesets.versions.delete('2', { ruleset_id: v1.id, zone_id })).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
  });

  it('takes a skip of phase "current" (alone or with products) and returns it', async () => {
    const zone_id = await h.zone('skip-current.example', 'enterprise');
    const cf = client(h);
    await cf.rulesets.phases.update('http_request_firewall_custom', { zone_id, rules: [
      { action: 'skip', expression: 'ip.src in {192.0.2.0/24}', ref: 'office', action_parameters: { phase: 'current' } },
      { action: 'skip', expression: 'ip.src in {198.51.100.0/24}', ref: 'partner', action_parameters: { phase: 'current', products: ['waf'] } },
    ] });
    const got: PhaseGetResponse = await cf.rulesets.phases.get('http_request_firewall_custom', { zone_id });
    expect(got.rules.map((r) => r.action_parameters)).toEqual([{ phase: 'current' }, { phase: 'current', products: ['waf'] }]);
  });

  it('refuses a plan-gated field in a filter (create, update) with 10201, nothing saved', async () => {
    const zone_id = await h.zone('gated-filters.example', 'pro');
    const cf = client(h);
    const bad = cf.filters.create({ zone_id, body: [{ expression: 'ip.src.is_in_european_union' }] });
    await expect(bad).rejects.toMatchObject({ status: 400, errors: [expect.objectContaining({ code: 10201 })] });
    await expect(bad).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
    const created: FirewallFilter[] = [];
    for await (const f of cf.filters.create({ zone_id, body: [{ expression: 'http.host eq "a.example"' }] })) created.push(f);
    const update = cf.filters.update(created[0]!.id!, { zone_id, expression: 'cf.waf.score lt 20' });
    await expect(update).rejects.toMatchObject({ status: 400, errors: [expect.objectContaining({ code: 10201 })] });
    const filters: FirewallFilter[] = [];
    for await (const f of cf.filters.list({ zone_id })) filters.push(f);
    expect(filters.map((f) => f.expression)).toEqual(['http.host eq "a.example"']);
  });

  it('refuses a plan-gated field in a rate limiting counting expression and in a managed exception with 20204', async () => {
    const cf = client(h);
    const ratelimit = await h.zone('gated-ratelimit.example', 'business');
    const counting = cf.rulesets.phases.update('http_ratelimit', { zone_id: ratelimit, rules: [{
      action: 'block', expression: 'http.request.uri.path eq "/login"', ref: 'login',
      ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 10, requests_per_period: 5, mitigation_timeout: 10, counting_expression: 'cf.waf.score lt 20' },
    }] });
    await expect(counting).rejects.toMatchObject({ status: 400, errors: [expect.objectContaining({ code: 20204 })] });
    const managed = await h.zone('gated-managed.example', 'pro');
    const exception = cf.rulesets.phases.update('http_request_firewall_managed', { zone_id: managed, rules: [
      { action: 'skip', expression: 'cf.bot_management.score lt 30', ref: 'bots', action_parameters: { ruleset: 'current' } },
      { action: 'execute', expression: 'true', ref: 'managed', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } },
    ] });
    await expect(exception).rejects.toMatchObject({ status: 400, errors: [expect.objectContaining({ code: 20204 })] });
  });

  it('refuses a rule that uses a list the account does not have (10311)', async () => {
    const zone_id = await h.zone('unknown-list.example', 'enterprise');
    const cf = client(h);
    const bad = cf.rulesets.phases.update('http_request_firewall_custom', { zone_id, rules: [{ action: 'block', expression: 'ip.src in $office', ref: 'office' }] });
    await expect(bad).rejects.toMatchObject({ status: 400, errors: [expect.objectContaining({ code: 10311 })] });
  });

  it('answers the migration check with the seed\'s fields only under --strict, the reasons in messages', async () => {
    const zone_id = await h.zone('check-free.example', 'free');
    const cf = client(h);
    const body = await cf.get<{ result: Record<string, unknown>; messages: { code: number }[] }>(`/zones/${zone_id}/waf_migration/check?phase_two=1`);
    expect(Object.keys(body.result).sort()).toEqual(strict ? ['compatible', 'migration_state'] : ['compatible', 'migration_state', 'phase', 'reasons']);
    expect(body.result.compatible).toBe(false);
    if (strict) expect(body.messages.map((m) => m.code)).toEqual([11006]);
  });
});
