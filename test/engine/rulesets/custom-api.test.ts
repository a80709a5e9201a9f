/**
 * The `http_request_firewall_custom` entry point, every case over the real HTTP server and over
 * the in-process dispatch: creation (PUT, POST /rulesets and its real 20217), rule fields and ids,
 * single-rule POST/PATCH/DELETE with `position`, versions, DELETE of the ruleset, and the refusals
 * with their codes and pointers (the body refused whole, nothing saved).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Phase, codes, entry, refusal, result, rule, startCustomKit, type Call, type CustomKit, type Ruleset } from './custom-kit.js';

let kit: CustomKit;
beforeAll(async () => { kit = await startCustomKit(); });
afterAll(async () => { await kit.h.cleanup(); });

describe.each([['http'], ['dispatch']])('custom rules entry point over %s', (transport) => {
  let call: Call;
  beforeAll(() => { call = kit.transports.find(([n]) => n === transport)![1]; });
  const put = (z: string, body: unknown) => call('PUT', entry(z), body);

  it('answers 404 10003 until a PUT creates it, then returns the rules with their server fields', async () => {
    const z = await kit.zone();
    const missing = await call('GET', entry(z));
    expect([missing.status, missing.body.errors]).toEqual([404, [{ code: 10003, message: `could not find entrypoint ruleset in the ${Phase} phase` }]]);
    const rs = result<Ruleset>(await put(z, { rules: [rule('block', undefined, { ref: 'admin', description: 'no admin' }), rule('managed_challenge', 'ip.src eq 192.0.2.1')] }));
    expect(rs).toMatchObject({ name: 'default', description: '', kind: 'zone', phase: Phase, version: '1' });
    expect(rs).not.toHaveProperty('source');
    expect(rs.id).toMatch(/^[0-9a-f]{32}$/);
    const [a, b] = rs.rules;
    expect(a).toMatchObject({ ref: 'admin', version: '1', action: 'block', description: 'no admin', enabled: true, last_updated: rs.last_updated });
    expect(b!.ref).toBe(b!.id);
    expect(b).not.toHaveProperty('description');
    expect(b).not.toHaveProperty('action_parameters');
    expect(result(await call('GET', entry(z)))).toEqual(rs);
  });

  it('writes last_updated with microseconds, as the service does, each version later than the one before', async () => {
    const z = await kit.zone();
    const micro = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/;
    const stamps: string[] = [];
    for (const action of ['block', 'js_challenge', 'challenge', 'managed_challenge']) {
      const rs = result<Ruleset>(await put(z, { rules: [rule(action)] }));
      expect(rs.last_updated).toMatch(micro);
      expect(rs.rules[0]!.last_updated).toBe(rs.last_updated);
      stamps.push(rs.last_updated);
    }
    expect([...stamps].sort()).toEqual(stamps);
    expect(new Set(stamps).size).toBe(stamps.length);
    const versions = result<Ruleset[]>(await call('GET', `${entry(z)}/versions`));
    expect(versions.map((v) => v.last_updated)).toEqual([...stamps].reverse());
  });

  it('keeps ids of rules matched by ref or id, bumps versions only on change, and takes a GET body back', async () => {
    const z = await kit.zone();
    const v1 = result<Ruleset>(await put(z, { rules: [rule('block', undefined, { ref: 'a' }), rule('js_challenge')] }));
    const [a, b] = v1.rules;
    const v2 = result<Ruleset>(await put(z, { rules: [{ ...rule('js_challenge'), id: b!.id, description: 'moved' }, rule('block', undefined, { ref: 'a' })] }));
    expect(v2.version).toBe('2');
    expect(v2.rules.map((r) => [r.id, r.version])).toEqual([[b!.id, '2'], [a!.id, '1']]);
    const same = result<Ruleset>(await put(z, v2));
    expect([same.version, same.last_updated]).toEqual(['2', v2.last_updated]);
    const unknown = await put(z, { rules: [{ ...rule('block'), id: 'f'.repeat(32) }] });
    expect(refusal(unknown)).toEqual([400, 20205, '/rules/0/id']);
  });

  it('keeps name immutable once the entry point exists (20212), and takes it unchanged', async () => {
    const z = await kit.zone();
    result(await put(z, { name: 'edge', rules: [] }));
    expect(refusal(await put(z, { name: 'renamed', rules: [] }))).toEqual([400, 20212, '/name']);
    expect(result<Ruleset>(await call('GET', entry(z))).name).toBe('edge');
    expect(result<Ruleset>(await put(z, { name: 'edge', kind: 'zone', phase: Phase, rules: [rule('block')] })).version).toBe('2');
    expect(refusal(await put(z, { phase: 'http_request_firewall_managed', rules: [] }))).toEqual([400, 20212, '/phase']);
  });

  it('creates with POST /rulesets, refusing a second zone ruleset of the phase with the real 20217', async () => {
    const z = await kit.zone();
    const created = result<Ruleset>(await call('POST', `/zones/${z}/rulesets`, { name: 'custom', kind: 'zone', phase: Phase, rules: [rule('block')] }));
    expect(created).toMatchObject({ name: 'custom', kind: 'zone', phase: Phase, version: '1' });
    expect(created.rules).toHaveLength(1);
    const again = await call('POST', `/zones/${z}/rulesets`, { name: 'x', kind: 'zone', phase: Phase });
    expect([again.status, again.body.errors]).toEqual([400, [{ code: 20217, message: `'zone' is not a valid value for kind because exceeded maximum number of zone rulesets for phase ${Phase}`, source: { pointer: '/kind' } }]]);
    expect(refusal(await call('POST', `/zones/${z}/rulesets`, { name: 'x', kind: 'custom', phase: Phase }))).toEqual([400, 20213, '/kind']);
    expect(refusal(await call('POST', `/zones/${z}/rulesets`, { name: 'x', kind: 'zone', phase: 'http_request_sbfm' }))).toEqual([400, 20213, '/phase']);
    expect(refusal(await call('POST', `/zones/${z}/rulesets`, { kind: 'zone', phase: Phase }))).toEqual([400, 10014, '/name']);
    expect(result<Ruleset>(await call('GET', `/zones/${z}/rulesets/${created.id}`))).toEqual(created);
    const listed = result<Ruleset[]>(await call('GET', `/zones/${z}/rulesets`));
    expect(listed.find((r) => r.id === created.id)).toMatchObject({ phase: Phase, kind: 'zone' });
  });

  it('adds one rule at the end, or where position says (before, after, index)', async () => {
    const z = await kit.zone();
    const rs = result<Ruleset>(await put(z, { rules: [rule('block', undefined, { ref: 'a' }), rule('block', undefined, { ref: 'b' })] }));
    const [a, b] = rs.rules;
    const rules = `/zones/${z}/rulesets/${rs.id}/rules`;
    const refs = (r: Ruleset) => r.rules.map((x) => x.ref);
    expect(refs(result(await call('POST', rules, rule('log', undefined, { ref: 'end' }))))).toEqual(['a', 'b', 'end']);
    expect(refs(result(await call('POST', rules, rule('log', undefined, { ref: 'first', position: { before: '' } }))))).toEqual(['first', 'a', 'b', 'end']);
    expect(refs(result(await call('POST', rules, rule('log', undefined, { ref: 'pre-b', position: { before: b!.id } }))))).toEqual(['first', 'a', 'pre-b', 'b', 'end']);
    expect(refs(result(await call('POST', rules, rule('log', undefined, { ref: 'post-a', position: { after: a!.id } }))))).toEqual(['first', 'a', 'post-a', 'pre-b', 'b', 'end']);
    const last = result<Ruleset>(await call('POST', rules, rule('log', undefined, { ref: 'third', position: { index: 3 } })));
    expect(refs(last)).toEqual(['first', 'a', 'third', 'post-a', 'pre-b', 'b', 'end']);
    expect(last.version).toBe('6');
    expect(last.rules.find((r) => r.ref === 'a')!.id).toBe(a!.id);
  });

  it('refuses bad positions (20209), a used ref (20211) and an id on a new rule, saving nothing', async () => {
    const z = await kit.zone();
    const rs = result<Ruleset>(await put(z, { rules: [rule('block', undefined, { ref: 'a' })] }));
    const rules = `/zones/${z}/rulesets/${rs.id}/rules`;
    expect(refusal(await call('POST', rules, rule('block', undefined, { position: { index: 3 } })))).toEqual([400, 20209, '/position/index']);
    expect(refusal(await call('POST', rules, rule('block', undefined, { position: { index: 1, before: '' } })))).toEqual([400, 20209, '/position']);
    expect(refusal(await call('POST', rules, rule('block', undefined, { position: { after: 'nope' } })))).toEqual([400, 20209, '/position/after']);
    expect(refusal(await call('POST', rules, rule('block', undefined, { position: { index: 0 } })))).toEqual([400, 10014, '/position/index']);
    expect(refusal(await call('POST', rules, rule('block', undefined, { ref: 'a' })))).toEqual([400, 20211, '/ref']);
    expect(refusal(await call('POST', rules, rule('block', undefined, { id: 'a'.repeat(32) })))).toEqual([400, 10014, '/id']);
    expect(refusal(await call('POST', `/zones/${z}/rulesets/${'0'.repeat(32)}/rules`, rule('block')))).toEqual([404, 20206, undefined]);
    expect(result<Ruleset>(await call('GET', entry(z))).version).toBe('1');
  });

  it('PATCHes a rule with a complete definition, or moves it without a version bump', async () => {
    const z = await kit.zone();
    const rs = result<Ruleset>(await put(z, { rules: [rule('block', undefined, { ref: 'a', description: 'x' }), rule('challenge', 'ip.src eq 192.0.2.9', { ref: 'b' })] }));
    const [a, b] = rs.rules;
    const path = (id: string) => `/zones/${z}/rulesets/${rs.id}/rules/${id}`;
    const edited = result<Ruleset>(await call('PATCH', path(a!.id), rule('managed_challenge')));
    const ea = edited.rules[0]!;
    expect([ea.id, ea.ref, ea.version, ea.action, ea.description]).toEqual([a!.id, 'a', '2', 'managed_challenge', undefined]);
    const moved = result<Ruleset>(await call('PATCH', path(b!.id), { position: { index: 1 } }));
    expect(moved.rules.map((r) => [r.ref, r.version])).toEqual([['b', '1'], ['a', '2']]);
    expect(moved.version).toBe('3');
    expect(refusal(await call('PATCH', path('0'.repeat(32)), rule('block')))).toEqual([404, 20208, undefined]);
    expect(refusal(await call('PATCH', path(a!.id), rule('block', undefined, { ref: 'b' })))).toEqual([400, 20211, '/ref']);
    expect(refusal(await call('PATCH', path(a!.id), rule('block', undefined, { id: b!.id })))).toEqual([400, 10014, '/id']);
  });

  it('DELETEs one rule (200, the whole ruleset) and the ruleset (204, then 404 10003)', async () => {
    const z = await kit.zone();
    const rs = result<Ruleset>(await put(z, { rules: [rule('block', undefined, { ref: 'a' }), rule('block', undefined, { ref: 'b' })] }));
    const after = await call('DELETE', `/zones/${z}/rulesets/${rs.id}/rules/${rs.rules[0]!.id}`);
    expect(after.status).toBe(200);
    expect(result<Ruleset>(after).rules.map((r) => r.ref)).toEqual(['b']);
    expect(refusal(await call('DELETE', `/zones/${z}/rulesets/${rs.id}/rules/${rs.rules[0]!.id}`))).toEqual([404, 20208, undefined]);
    expect((await call('DELETE', `/zones/${z}/rulesets/${rs.id}`)).status).toBe(204);
    expect(refusal(await call('GET', entry(z)))).toEqual([404, 10003, undefined]);
    expect(result<Ruleset>(await put(z, { rules: [] })).version).toBe('1');
  });

  it('lists versions (by phase and by id) and returns each with its rules', async () => {
    const z = await kit.zone();
    expect(result(await call('GET', `${entry(z)}/versions`))).toEqual([]);
    expect(refusal(await call('GET', `${entry(z)}/versions/1`))).toEqual([404, 10003, undefined]);
    const v1 = result<Ruleset>(await put(z, { rules: [rule('block')] }));
    result(await call('POST', `/zones/${z}/rulesets/${v1.id}/rules`, rule('js_challenge')));
    const list = result<Ruleset[]>(await call('GET', `${entry(z)}/versions`));
    expect(list.map((v) => v.version)).toEqual(['2', '1']);
    expect(list[0]).not.toHaveProperty('rules');
    expect(result<Ruleset[]>(await call('GET', `/zones/${z}/rulesets/${v1.id}/versions`))).toEqual(list);
    expect(result<Ruleset>(await call('GET', `/zones/${z}/rulesets/${v1.id}/versions/1`)).rules).toHaveLength(1);
    expect(result<Ruleset>(await call('GET', `${entry(z)}/versions/2`)).rules).toHaveLength(2);
    expect(codes(await call('GET', `${entry(z)}/versions/9`))).toEqual([20207]);
  });

  it('deletes a version that is not the latest (204): gone from the list and GET, its number never reused', async () => {
    const z = await kit.zone();
    const v1 = result<Ruleset>(await put(z, { rules: [rule('block')] }));
    result(await put(z, { rules: [rule('block'), rule('js_challenge')] }));
    const byId = `/zones/${z}/rulesets/${v1.id}/versions`;
    const gone = await call('DELETE', `${byId}/1`);
    expect(gone.status).toBe(204);
    expect(result<Ruleset[]>(await call('GET', byId)).map((v) => v.version)).toEqual(['2']);
    expect(result<Ruleset[]>(await call('GET', `${entry(z)}/versions`)).map((v) => v.version)).toEqual(['2']);
    expect(codes(await call('GET', `${byId}/1`))).toEqual([20207]);
    expect(codes(await call('DELETE', `${byId}/1`))).toEqual([20207]);
    expect(refusal(await call('DELETE', `${byId}/2`))).toEqual([400, 20218, undefined]);
    expect(result<Ruleset>(await call('GET', `${byId}/2`)).rules).toHaveLength(2);
    result(await put(z, { rules: [rule('log')] }));
    expect((await call('DELETE', `${byId}/2`)).status).toBe(204);
    const v4 = result<Ruleset>(await put(z, { rules: [rule('challenge')] }));
    expect(v4.version).toBe('4');
    expect(result<Ruleset[]>(await call('GET', byId)).map((v) => v.version)).toEqual(['4', '3']);
    expect(codes(await call('DELETE', `${byId}/x`))).toEqual([20207]);
    expect(codes(await call('DELETE', `/zones/${z}/rulesets/${'f'.repeat(32)}/versions/1`))).toEqual([20206]);
    expect((await call('DELETE', `${byId}/3?dry_run=true`)).status).toBe(204);
    expect(result<Ruleset[]>(await call('GET', byId)).map((v) => v.version)).toEqual(['4', '3']);
  });
});

describe('custom rules refusals (the body refused whole, the field named)', () => {
  const put = (z: string, body: unknown) => kit.h.api('PUT', entry(z), body);
  const one = async (r: unknown, plan: 'free' | 'pro' | 'business' | 'enterprise' = 'enterprise') => refusal(await put(await kit.zone(plan), { rules: [rule('block'), r] }));

  it.each([
    ['an unknown action', rule('deny'), [400, 20203, '/rules/1/action']],
    ['execute (zone custom rulesets)', rule('execute', undefined, { action_parameters: { id: 'a'.repeat(32) } }), [400, 20203, '/rules/1/action']],
    ['allow (a firewall rules action)', rule('allow'), [400, 20203, '/rules/1/action']],
    ['a bad expression', rule('block', 'http.host eq'), [400, 10015, '/rules/1/expression']],
    ['an empty expression', rule('block', ''), [400, 10014, '/rules/1/expression']],
    ['parameters on a challenge', rule('challenge', undefined, { action_parameters: { response: {} } }), [400, 20203, '/rules/1/action_parameters']],
    ['a response status outside 400..499', rule('block', undefined, { action_parameters: { response: { status_code: 503, content_type: 'text/plain', content: 'x' } } }), [400, 10014, '/rules/1/action_parameters/response/status_code']],
    ['an unknown content type', rule('block', undefined, { action_parameters: { response: { status_code: 403, content_type: 'text/csv', content: 'x' } } }), [400, 10014, '/rules/1/action_parameters/response/content_type']],
    ['a response without content', rule('block', undefined, { action_parameters: { response: { status_code: 403, content_type: 'text/plain' } } }), [400, 10014, '/rules/1/action_parameters/response/content']],
    ['a response over 2 KB', rule('block', undefined, { action_parameters: { response: { status_code: 403, content_type: 'text/plain', content: 'x'.repeat(2049) } } }), [400, 10014, '/rules/1/action_parameters/response/content']],
    ['a skip without parameters', rule('skip'), [400, 10014, '/rules/1/action_parameters']],
    ['a skip of nothing', rule('skip', undefined, { action_parameters: {} }), [400, 10014, '/rules/1/action_parameters']],
    ['a skip of an unknown phase', rule('skip', undefined, { action_parameters: { phases: ['http_request_firewall_custom'] } }), [400, 10014, '/rules/1/action_parameters/phases/0']],
    ['a skip of a product in the wrong case', rule('skip', undefined, { action_parameters: { products: ['UABlock'] } }), [400, 10014, '/rules/1/action_parameters/products/0']],
    ['a skip of ruleset other than current', rule('skip', undefined, { action_parameters: { ruleset: 'all' } }), [400, 10014, '/rules/1/action_parameters/ruleset']],
    ['a skip of rulesets (not served here)', rule('skip', undefined, { action_parameters: { rulesets: ['a'] } }), [400, 20203, '/rules/1/action_parameters/rulesets']],
    ['a skip of phase other than current', rule('skip', undefined, { action_parameters: { phase: 'http_ratelimit' } }), [400, 10014, '/rules/1/action_parameters/phase']],
    ['a skip of phase current with ruleset (phase combines only with products)', rule('skip', undefined, { action_parameters: { phase: 'current', ruleset: 'current' } }), [400, 10014, '/rules/1/action_parameters/phase']],
    ['a skip of phase current with phases', rule('skip', undefined, { action_parameters: { phase: 'current', phases: ['http_ratelimit'] } }), [400, 10014, '/rules/1/action_parameters/phase']],
    ['logging on a block', rule('block', undefined, { logging: { enabled: false } }), [400, 10014, '/rules/1/logging']],
    ['an unknown field', rule('block', undefined, { priority: 1 }), [400, 10014, '/rules/1/priority']],
  ] as const)('refuses %s', async (_what, r, expected) => {
    expect(await one(r)).toEqual(expected);
  });

  it('refuses a ref used twice in one body (20211), creating nothing', async () => {
    const z = await kit.zone();
    expect(refusal(await put(z, { rules: [rule('block', undefined, { ref: 'x' }), rule('log', undefined, { ref: 'x' })] }))).toEqual([400, 20211, '/rules/1/ref']);
    expect(refusal(await kit.h.api('GET', entry(z)))).toEqual([404, 10003, undefined]);
  });

  it('lists every problem of a body at once and saves nothing', async () => {
    const z = await kit.zone();
    result(await put(z, { rules: [rule('block')] }));
    const reply = await put(z, { rules: [rule('deny'), rule('block', 'http.host eq'), rule('skip')] });
    expect(reply.body.errors.map((e) => e.source?.pointer)).toEqual(['/rules/0/action', '/rules/1/expression', '/rules/2/action_parameters']);
    expect(result<Ruleset>(await kit.h.api('GET', entry(z))).version).toBe('1');
  });

  it('accepts every action and parameter shape the phase takes', async () => {
    const z = await kit.zone();
    const rs = result<Ruleset>(await put(z, { rules: [
      rule('block', undefined, { action_parameters: { response: { status_code: 429, content_type: 'application/json', content: '{"error":"no"}' } } }),
      rule('challenge'), rule('js_challenge'), rule('managed_challenge'), rule('log', 'http.request.uri.path matches "^/api/"'),
      rule('skip', undefined, { action_parameters: { ruleset: 'current', phases: ['http_request_firewall_managed'], products: ['zoneLockdown', 'waf'] }, logging: { enabled: false } }),
      rule('block', undefined, { enabled: false }),
    ] }));
    expect(rs.rules.map((r) => r.action)).toEqual(['block', 'challenge', 'js_challenge', 'managed_challenge', 'log', 'skip', 'block']);
    expect(rs.rules[5]).toMatchObject({ action_parameters: { ruleset: 'current', phases: ['http_request_firewall_managed'], products: ['zoneLockdown', 'waf'] }, logging: { enabled: false } });
    expect(rs.rules[6]!.enabled).toBe(false);
  });

  it('accepts skip phase "current", alone or with products, and returns it as stored', async () => {
    const z = await kit.zone();
    const rs = result<Ruleset>(await put(z, { rules: [
      rule('skip', undefined, { action_parameters: { phase: 'current' } }),
      rule('skip', undefined, { action_parameters: { phase: 'current', products: ['waf'] } }),
    ] }));
    expect(rs.rules.map((r) => r.action_parameters)).toEqual([{ phase: 'current' }, { phase: 'current', products: ['waf'] }]);
    expect(result<Ruleset>(await kit.h.api('GET', entry(z))).rules.map((r) => r.action_parameters)).toEqual([{ phase: 'current' }, { phase: 'current', products: ['waf'] }]);
  });
});

describe('custom rules plan gates (20204) and quota (20210)', () => {
  const put = (z: string, body: unknown) => kit.h.api('PUT', entry(z), body);

  it('gates log to Enterprise, matches to Business, a custom response to Pro', async () => {
    const pro = await kit.zone('pro');
    expect(refusal(await put(pro, { rules: [rule('log')] }))).toEqual([400, 20204, '/rules/0/action']);
    expect(refusal(await put(pro, { rules: [rule('block', 'http.request.uri.path matches "^/a"')] }))).toEqual([400, 20204, '/rules/0/expression']);
    const free = await kit.zone('free');
    const response = { response: { status_code: 403, content_type: 'text/plain', content: 'no' } };
    expect(refusal(await put(free, { rules: [rule('block', undefined, { action_parameters: response })] }))).toEqual([400, 20204, '/rules/0/action_parameters/response']);
    result(await put(pro, { rules: [rule('block', undefined, { action_parameters: response })] }));
    const business = await kit.zone('business');
    result(await put(business, { rules: [rule('block', 'http.request.uri.path matches "^/a"')] }));
    const reply = await put(business, { rules: [rule('log')] });
    expect(reply.body.errors[0]!.message).toBe("the log action needs the enterprise plan or higher; this zone's plan is business");
  });

  it('gates plan fields: attack scores to Enterprise (the class to Business), subdivisions and EU to Business, bot management and body fields to Enterprise', async () => {
    const free = await kit.zone('free');
    const pro = await kit.zone('pro');
    const business = await kit.zone('business');
    const enterprise = await kit.zone('enterprise');
    expect(refusal(await put(free, { rules: [rule('block', 'cf.waf.score lt 20')] }))).toEqual([400, 20204, '/rules/0/expression']);
    const subdivision = await put(pro, { rules: [rule('block', 'ip.src.subdivision_1_iso_code eq "GB-ENG"')] });
    expect(refusal(subdivision)).toEqual([400, 20204, '/rules/0/expression']);
    expect(subdivision.body.errors[0]!.message).toBe("the field ip.src.subdivision_1_iso_code needs the business plan or higher; this zone's plan is pro");
    expect(refusal(await kit.h.api('GET', entry(pro)))).toEqual([404, 10003, undefined]);
    for (const expression of ['ip.geoip.is_in_european_union', 'ip.src.is_in_european_union', 'cf.waf.score.class eq "attack"']) {
      expect(refusal(await put(pro, { rules: [rule('block', expression)] })), expression).toEqual([400, 20204, '/rules/0/expression']);
      result(await put(business, { rules: [rule('block', expression)] }));
    }
    for (const expression of ['cf.waf.score.sqli lt 20', 'cf.bot_management.score lt 30', 'http.request.body.raw contains "x"', 'any(http.request.body.form.names[*] eq "a")']) {
      expect(refusal(await put(business, { rules: [rule('block', expression)] })), expression).toEqual([400, 20204, '/rules/0/expression']);
      result(await put(enterprise, { rules: [rule('block', expression)] }));
    }
    // One refusal per gated field; single-rule writes are gated too.
    const two = await put(free, { rules: [rule('block', 'cf.waf.score lt 20 and ip.src.is_in_european_union')] });
    expect(two.body.errors.map((e) => e.message)).toEqual([
      "the field cf.waf.score needs the enterprise plan or higher; this zone's plan is free",
      "the field ip.src.is_in_european_union needs the business plan or higher; this zone's plan is free",
    ]);
    const rs = result<Ruleset>(await put(free, { rules: [rule('block')] }));
    expect(refusal(await kit.h.api('POST', `/zones/${free}/rulesets/${rs.id}/rules`, rule('block', 'cf.bot_management.score lt 30')))).toEqual([400, 20204, '/expression']);
  });

  it('counts every rule, disabled ones too, against the tier quota, on PUT and on single-rule POST', async () => {
    const free = await kit.zone('free');
    const six = Array.from({ length: 6 }, (_, i) => rule('block', `ip.src eq 192.0.2.${i}`, { enabled: i < 3 }));
    expect(refusal(await put(free, { rules: six }))).toEqual([400, 20210, '/rules']);
    const rs = result<Ruleset>(await put(free, { rules: six.slice(0, 5) }));
    expect(refusal(await kit.h.api('POST', `/zones/${free}/rulesets/${rs.id}/rules`, rule('block', undefined, { enabled: false })))).toEqual([400, 20210, undefined]);
  });
});
