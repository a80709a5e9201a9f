/**
 * Plan-gated fields (issue 33, rules-language.md §2.1: attack scores Enterprise, subdivisions and
 * `is_in_european_union` Business, Bot Management and body fields Enterprise) in every kind's
 * expressions, not only custom rules': a filter (POST/PUT of the filters API: 10201 at the
 * expression; an inline filter of a rule POST: 10202 wrapping it, nothing created), a rate limiting
 * rule's counting expression, and the managed phase's rules, exceptions included (20204). Over the
 * real HTTP server; one table (`PlanGatedFields`) decides for all.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ids, execute, result, startWafKit, type WafKit } from './migration/kit.js';
import type { Reply } from './helpers.js';

let kit: WafKit;
let n = 0;
beforeAll(async () => { kit = await startWafKit(); });
afterAll(async () => { await kit.h.cleanup(); });

const zone = (plan: 'free' | 'pro' | 'business' | 'enterprise') => kit.zone(`gated${++n}.example`, plan, 'new');
const refusals = (reply: Reply) => [reply.status, reply.body.errors.map((e) => [e.code, e.source?.pointer])];

describe('plan-gated fields in filters', () => {
  it('POST /filters refuses a field the plan lacks with 10201 at the expression, naming the field and the plan it needs', async () => {
    const free = await zone('free');
    const reply = await kit.api('POST', `/zones/${free}/filters`, [{ expression: 'http.host eq "a.example"' }, { expression: 'cf.waf.score lt 20' }]);
    expect(refusals(reply)).toEqual([400, [[10201, '/1/expression']]]);
    expect(reply.body.errors[0]!.message).toBe(`the field cf.waf.score (attack scores) is not available to zone gated${n}.example on the free plan: it needs the enterprise plan or higher`);
    expect(reply.body.errors[0]!.meta).toEqual({ feature: 'field', field: 'cf.waf.score', plan: 'free', required_plan: 'enterprise' });
    expect(result<unknown[]>(await kit.api('GET', `/zones/${free}/filters`))).toEqual([]);
    const pro = await zone('pro');
    expect(refusals(await kit.api('POST', `/zones/${pro}/filters`, [{ expression: 'ip.src.subdivision_1_iso_code eq "GB-ENG"' }]))).toEqual([400, [[10201, '/0/expression']]]);
    const business = await zone('business');
    result(await kit.api('POST', `/zones/${business}/filters`, [{ expression: 'ip.src.subdivision_1_iso_code eq "GB-ENG"' }]));
    expect(refusals(await kit.api('POST', `/zones/${business}/filters`, [{ expression: 'cf.bot_management.score lt 30 and http.request.body.raw contains "x"' }])))
      .toEqual([400, [[10201, '/0/expression'], [10201, '/0/expression']]]);
  });

  it('PUT of one filter and of a batch refuses it too, and leaves the filter as it was', async () => {
    const pro = await zone('pro');
    const [f] = result<{ id: string }[]>(await kit.api('POST', `/zones/${pro}/filters`, [{ expression: 'http.host eq "a.example"' }]));
    expect(refusals(await kit.api('PUT', `/zones/${pro}/filters/${f!.id}`, { id: f!.id, expression: 'ip.src.is_in_european_union' }))).toEqual([400, [[10201, '/expression']]]);
    expect(refusals(await kit.api('PUT', `/zones/${pro}/filters`, [{ id: f!.id, expression: 'cf.waf.score.class eq "attack"' }]))).toEqual([400, [[10201, '/0/expression']]]);
    expect(result<{ expression: string }>(await kit.api('GET', `/zones/${pro}/filters/${f!.id}`)).expression).toBe('http.host eq "a.example"');
  });

  it('an inline filter of a firewall rule POST is refused as the filters API refuses it (10202 wrapping 10201): nothing is created', async () => {
    const free = await zone('free');
    const reply = await kit.api('POST', `/zones/${free}/firewall/rules`, [{ action: 'block', filter: { expression: 'cf.bot_management.score lt 30' } }]);
    expect(refusals(reply)).toEqual([400, [[10202, '/0/filter/expression']]]);
    expect(reply.body.errors[0]!.message).toContain('filter at index 0: the field cf.bot_management.score');
    expect(result<unknown[]>(await kit.api('GET', `/zones/${free}/filters`))).toEqual([]);
    expect(result<unknown[]>(await kit.api('GET', `/zones/${free}/firewall/rules`))).toEqual([]);
  });
});

describe('plan-gated fields in rate limiting rules', () => {
  const entry = (z: string) => `/zones/${z}/rulesets/phases/http_ratelimit/entrypoint`;
  const rule = (counting: string) => ({
    action: 'block', expression: 'http.request.uri.path eq "/login"',
    ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 10, requests_per_period: 5, mitigation_timeout: 10, counting_expression: counting },
  });

  it('refuses a gated field in the counting expression (20204 at it); the per-plan list still decides the expression', async () => {
    const business = await zone('business');
    expect(refusals(await kit.api('PUT', entry(business), { rules: [rule('cf.waf.score lt 20')] }))).toEqual([400, [[20204, '/rules/0/ratelimit/counting_expression']]]);
    const response = await kit.api('PUT', entry(business), { rules: [rule('http.response.code eq 401 and cf.bot_management.score lt 30')] });
    expect(response.body.errors.map((e) => e.message)).toEqual(["the field cf.bot_management.score needs the enterprise plan or higher; this zone's plan is business"]);
    result(await kit.api('PUT', entry(business), { rules: [rule('ip.src.subdivision_1_iso_code eq "GB-ENG"')] }));
    const enterprise = await zone('enterprise');
    result(await kit.api('PUT', entry(enterprise), { rules: [rule('cf.waf.score lt 20')] }));
    // In the expression the per-plan list refuses it once, not twice.
    const expr = await kit.api('PUT', entry(business), { rules: [{ ...rule(''), expression: 'cf.waf.score lt 20' }] });
    expect(expr.body.errors.map((e) => e.source?.pointer)).toEqual(['/rules/0/expression']);
  });
});

describe('plan-gated fields in the managed phase', () => {
  const skip = (expression: string) => ({ action: 'skip', ref: 'office', expression, action_parameters: { ruleset: 'current' } });

  it('refuses an exception or an execute rule whose expression uses a field the plan lacks, on PUT and single-rule POST', async () => {
    const pro = await zone('pro');
    expect(refusals(await kit.put(pro, { rules: [skip('cf.waf.score lt 20'), { ...execute(Ids.managed), ref: 'managed' }] }))).toEqual([400, [[20204, '/rules/0/expression']]]);
    expect(refusals(await kit.put(pro, { rules: [{ ...execute(Ids.managed), ref: 'managed', expression: 'ip.src.is_in_european_union' }] }))).toEqual([400, [[20204, '/rules/0/expression']]]);
    const rs = result<{ id: string }>(await kit.put(pro, { rules: [{ ...execute(Ids.managed), ref: 'managed' }] }));
    const post = await kit.api('POST', `/zones/${pro}/rulesets/${rs.id}/rules`, { ...skip('http.request.body.raw contains "x"'), position: { index: 1 } });
    expect(refusals(post)).toEqual([400, [[20204, '/expression']]]);
    const enterprise = await zone('enterprise');
    result(await kit.put(enterprise, { rules: [skip('cf.waf.score lt 20'), { ...execute(Ids.managed), ref: 'managed' }] }));
  });
});
