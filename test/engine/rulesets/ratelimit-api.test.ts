/**
 * The `http_ratelimit` entry point (rate limiting rules), over the real HTTP server and the
 * in-process dispatch: the same operations as custom rules (PUT, single-rule POST/PATCH/DELETE with
 * `position`, ids kept, versions), the `ratelimit` object's validation, and every limit of the
 * per-plan table refused with the Rulesets API's error shape (code and pointer), nothing saved.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { codes, refusal, result, startCustomKit, type Call, type CustomKit, type Ruleset } from './custom-kit.js';
import type { PlanTier } from '../../../src/engine/index.js';

const Phase = 'http_ratelimit';
const entry = (z: string): string => `/zones/${z}/rulesets/phases/${Phase}/entrypoint`;

let kit: CustomKit;
beforeAll(async () => { kit = await startCustomKit(); });
afterAll(async () => { await kit.h.cleanup(); });

/** A rule every plan accepts: the Free row of the table. */
function rl(extra: Record<string, unknown> = {}, ratelimit: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    action: 'block', expression: 'http.request.uri.path eq "/login"',
    ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 10, requests_per_period: 5, mitigation_timeout: 10, ...ratelimit },
    ...extra,
  };
}

interface RlRule { id: string; ref: string; version: string; action: string; ratelimit: Record<string, unknown>; action_parameters?: unknown }

describe.each([['http'], ['dispatch']])('rate limiting entry point over %s', (transport) => {
  let call: Call;
  beforeAll(() => { call = kit.transports.find(([n]) => n === transport)![1]; });
  const zone = (plan: PlanTier = 'enterprise'): Promise<string> => kit.zone(plan);

  it('is created by a PUT and read back with the ratelimit object; a timeout left out is 0 (throttle)', async () => {
    const z = await zone('free');
    expect((await call('GET', entry(z))).status).toBe(404);
    const noTimeout = JSON.parse(JSON.stringify(rl({ ref: 'login' }, { mitigation_timeout: undefined })));
    // 0 = throttle, which a Free block may not do.
    expect(refusal(await call('PUT', entry(z), { rules: [noTimeout] }))).toEqual([400, 20204, '/rules/0/ratelimit/mitigation_timeout']);
    const rs = result<Ruleset & { rules: RlRule[] }>(await call('PUT', entry(z), { rules: [rl({ ref: 'login' })] }));
    expect(rs).toMatchObject({ kind: 'zone', phase: Phase, version: '1', name: 'default' });
    expect(rs.rules[0]).toMatchObject({ ref: 'login', action: 'block', ratelimit: { mitigation_timeout: 10, requests_to_origin: false } });
    const ez = await zone('enterprise');
    const thr = result<Ruleset & { rules: RlRule[] }>(await call('PUT', entry(ez), { rules: [noTimeout] }));
    expect(thr.rules[0]!.ratelimit.mitigation_timeout).toBe(0);
    const listed = result<{ phase: string }[]>(await call('GET', `/zones/${ez}/rulesets`));
    expect(listed.map((r) => r.phase)).toContain(Phase);
  });

  it('fills requests_to_origin and keeps ids across PUTs; single-rule operations work with position', async () => {
    const z = await zone('enterprise');
    const v1 = result<Ruleset & { rules: RlRule[] }>(await call('PUT', entry(z), { rules: [rl({ ref: 'login' }), rl({ ref: 'api' }, { characteristics: ['cf.colo.id', 'http.request.headers["x-api-key"]'], period: 60, requests_per_period: 100, mitigation_timeout: 0 })] }));
    expect(v1.rules.map((r) => r.ref)).toEqual(['login', 'api']);
    expect(v1.rules[0]!.ratelimit).toEqual({ characteristics: ['cf.colo.id', 'ip.src'], period: 10, requests_per_period: 5, mitigation_timeout: 10, requests_to_origin: false });
    expect(result(await call('GET', entry(z)))).toEqual(v1);
    const same = result<Ruleset>(await call('PUT', entry(z), v1));
    expect(same.version).toBe('1');
    const added = result<Ruleset & { rules: RlRule[] }>(await call('POST', `/zones/${z}/rulesets/${v1.id}/rules`, { ...rl({ ref: 'first', action: 'managed_challenge' }, { mitigation_timeout: 0 }), position: { index: 1 } }));
    expect(added.rules.map((r) => r.ref)).toEqual(['first', 'login', 'api']);
    expect(added.rules[1]!.id).toBe(v1.rules[0]!.id);
    const patched = result<Ruleset & { rules: RlRule[] }>(await call('PATCH', `/zones/${z}/rulesets/${v1.id}/rules/${v1.rules[1]!.id}`, { position: { before: '' } }));
    expect(patched.rules.map((r) => r.ref)).toEqual(['api', 'first', 'login']);
    const deleted = result<Ruleset & { rules: RlRule[] }>(await call('DELETE', `/zones/${z}/rulesets/${v1.id}/rules/${added.rules[0]!.id}`));
    expect(deleted.rules.map((r) => [r.ref, r.id])).toEqual([['api', v1.rules[1]!.id], ['login', v1.rules[0]!.id]]);
    expect(deleted.version).toBe('4');
    const versions = result<Ruleset[]>(await call('GET', `${entry(z)}/versions`));
    expect(versions.map((v) => v.version)).toEqual(['4', '3', '2', '1']);
  });

  it('refuses a block response out of range or over 30 KB, and fills status 429 when left out', async () => {
    const z = await zone('enterprise');
    const ok = result<Ruleset & { rules: RlRule[] }>(await call('PUT', entry(z), { rules: [rl({ action_parameters: { response: { content_type: 'application/json', content: '{"slow":"down"}' } } })] }));
    expect(ok.rules[0]!.action_parameters).toEqual({ response: { status_code: 429, content_type: 'application/json', content: '{"slow":"down"}' } });
    const big = 'x'.repeat(30 * 1024 + 1);
    expect(refusal(await call('PUT', entry(z), { rules: [rl({ action_parameters: { response: { content_type: 'text/plain', content: big } } })] }))).toEqual([400, 10014, '/rules/0/action_parameters/response/content']);
    expect((await call('PUT', entry(z), { rules: [rl({ action_parameters: { response: { content_type: 'text/plain', content: 'y'.repeat(30 * 1024) } } })] })).status).toBe(200);
    expect(refusal(await call('PUT', entry(z), { rules: [rl({ action_parameters: { response: { status_code: 503, content_type: 'text/plain', content: 'x' } } })] }))).toEqual([400, 10014, '/rules/0/action_parameters/response/status_code']);
  });

  it.each([
    ['no cf.colo.id', {}, { characteristics: ['ip.src'] }, [10014, '/rules/0/ratelimit/characteristics']],
    ['cf.colo.id in the expression', { expression: 'cf.colo.id eq 10' }, {}, [10014, '/rules/0/expression']],
    ['ip.src with cf.unique_visitor_id', {}, { characteristics: ['cf.colo.id', 'ip.src', 'cf.unique_visitor_id'] }, [10014, '/rules/0/ratelimit/characteristics']],
    ['an unknown characteristic', {}, { characteristics: ['cf.colo.id', 'http.cookie'] }, [10014, '/rules/0/ratelimit/characteristics/1']],
    ['an upper-case header characteristic', {}, { characteristics: ['cf.colo.id', 'http.request.headers["X-Key"]'] }, [10014, '/rules/0/ratelimit/characteristics/1']],
    ['a period not in the list', {}, { period: 7 }, [10014, '/rules/0/ratelimit/period']],
    ['a timeout not in the list', {}, { mitigation_timeout: 5 }, [10014, '/rules/0/ratelimit/mitigation_timeout']],
    ['both thresholds', {}, { score_per_period: 10, score_response_header_name: 'x-score' }, [10014, '/rules/0/ratelimit/requests_per_period']],
    ['a score without its header', {}, { requests_per_period: undefined, score_per_period: 10 }, [10014, '/rules/0/ratelimit/score_response_header_name']],
    ['a list with requests_to_origin', { expression: 'ip.src in $office' }, { requests_to_origin: true }, [10014, '/rules/0/ratelimit/requests_to_origin']],
    ['a bad counting expression', {}, { counting_expression: 'http.response.code eq' }, [10015, '/rules/0/ratelimit/counting_expression']],
    ['the skip action', { action: 'skip' }, {}, [10014, '/rules/0/action']],
    ['no ratelimit', { ratelimit: undefined }, null, [10014, '/rules/0/ratelimit']],
  ])('refuses %s', async (_name, extra, ratelimit, [code, pointer]) => {
    const z = await zone('enterprise');
    const body = ratelimit === null ? { ...rl(), ...extra } : rl(extra, ratelimit);
    expect(refusal(await call('PUT', entry(z), { rules: [JSON.parse(JSON.stringify(body))] }))).toEqual([400, code, pointer]);
    expect((await call('GET', entry(z))).status).toBe(404);
  });

  it('holds the list restrictions to custom lists: a managed list ($cf.*) goes with requests_to_origin and response fields', async () => {
    const z = await zone('enterprise');
    const managed = rl({ expression: 'ip.src in $cf.open_proxies' }, { requests_to_origin: true, counting_expression: 'http.response.code eq 403 and ip.src in $cf.anonymizer' });
    expect((await call('PUT', entry(z), { rules: [managed] })).status).toBe(200);
    // A custom list in the counting expression needs cached requests counted, as one in the rule's expression does.
    const custom = rl({}, { requests_to_origin: true, counting_expression: 'ip.src in $office' });
    expect(refusal(await call('PUT', entry(z), { rules: [custom] }))).toEqual([400, 10014, '/rules/0/ratelimit/requests_to_origin']);
  });

  it('accepts response fields in a counting expression', async () => {
    const z = await zone('business');
    expect((await call('PUT', entry(z), { rules: [rl({}, { counting_expression: 'http.response.code in {401 403}', period: 60 })] })).status).toBe(200);
  });

  // Each row: the plan, a rule going one step past it, the pointer of the refusal (20204 unless quota).
  it.each([
    ['free', { expression: 'http.host eq "a.example"' }, {}, '/rules/0/expression'],
    ['pro', { expression: 'http.request.method eq "POST"' }, { period: 60 }, '/rules/0/expression'],
    ['business', { expression: 'any(http.request.headers["x"][*] eq "1")' }, { period: 60 }, '/rules/0/expression'],
    ['pro', {}, { characteristics: ['cf.colo.id', 'cf.unique_visitor_id'] }, '/rules/0/ratelimit/characteristics/1'],
    ['business', {}, { characteristics: ['cf.colo.id', 'http.request.headers["x-key"]'] }, '/rules/0/ratelimit/characteristics/1'],
    ['pro', {}, { counting_expression: 'http.response.code eq 401' }, '/rules/0/ratelimit/counting_expression'],
    ['free', {}, { period: 60 }, '/rules/0/ratelimit/period'],
    ['pro', {}, { period: 120 }, '/rules/0/ratelimit/period'],
    ['business', {}, { period: 900 }, '/rules/0/ratelimit/period'],
    ['free', {}, { mitigation_timeout: 60 }, '/rules/0/ratelimit/mitigation_timeout'],
    ['pro', {}, { mitigation_timeout: 86400 }, '/rules/0/ratelimit/mitigation_timeout'],
    ['business', { action: 'managed_challenge' }, { mitigation_timeout: 60 }, '/rules/0/ratelimit/mitigation_timeout'],
    ['business', {}, { mitigation_timeout: 0 }, '/rules/0/ratelimit/mitigation_timeout'],
    ['business', {}, { requests_per_period: undefined, score_per_period: 100, score_response_header_name: 'x-score' }, '/rules/0/ratelimit/score_per_period'],
    ['business', { action: 'log' }, {}, '/rules/0/action'],
  ] as const)('on %s refuses %j %j with 20204', async (plan, extra, ratelimit, pointer) => {
    const z = await zone(plan);
    const res = await call('PUT', entry(z), { rules: [JSON.parse(JSON.stringify(rl(extra, ratelimit)))] });
    expect(refusal(res)).toEqual([400, 20204, pointer]);
    const up = (['free', 'pro', 'business', 'enterprise'] as const)[['free', 'pro', 'business', 'enterprise'].indexOf(plan) + 1]!;
    const z2 = await zone(up);
    const okBody = JSON.parse(JSON.stringify(rl(extra, ratelimit))) as { action: string; ratelimit: { mitigation_timeout: number } };
    if (up !== 'enterprise' && okBody.action === 'managed_challenge') okBody.ratelimit.mitigation_timeout = 0;
    if (pointer.endsWith('mitigation_timeout') && up !== 'enterprise') return;
    expect((await call('PUT', entry(z2), { rules: [okBody] })).status).toBe(200);
  });

  it.each([['free', 1], ['pro', 2], ['business', 5], ['enterprise', 100]] as const)('holds at most the %s quota of %i rules, by PUT and by POST', async (plan, quota) => {
    const z = await zone(plan);
    const rules = Array.from({ length: quota }, (_, i) => rl({ ref: `r${i}` }));
    const rs = result<Ruleset>(await call('PUT', entry(z), { rules }));
    expect(rs.rules).toHaveLength(quota);
    expect(codes(await call('PUT', entry(z), { rules: [...rules, rl()] }))).toEqual([20210]);
    expect(refusal(await call('POST', `/zones/${z}/rulesets/${rs.id}/rules`, rl()))).toEqual([400, 20210, undefined]);
  });
});
