/**
 * Issue 15's entry point divergences, on both served phases over HTTP: `?dry_run=true` is a dry
 * run (validated, nothing saved, `result: null`; issue 31, more in `dry-run.test.ts`); GET of the entry point
 * of a phase the engine does not serve answers the real 404 10003; `name` is immutable on a PUT once
 * the entry point exists. And PITR: a bookmark restores the custom phase with its versions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ids, execute, startWafKit, type WafKit } from '../migration/kit.js';
import { Phase, entry, refusal, result, rule, type Ruleset } from './custom-kit.js';

let kit: WafKit;
let n = 0;
beforeAll(async () => { kit = await startWafKit(); });
afterAll(async () => { await kit.h.cleanup(); });
const zone = () => kit.zone(`div${++n}.example`, 'enterprise');
const managed = (z: string) => `/zones/${z}/rulesets/phases/http_request_firewall_managed/entrypoint`;

describe('dry_run is never a silent save', () => {
  it.each([
    ['managed', managed, { rules: [execute(Ids.managed)] }],
    ['custom', entry, { rules: [rule('block')] }],
  ] as const)('PUT ?dry_run=true of the %s entry point answers result null and saves nothing', async (_phase, path, body) => {
    const z = await zone();
    const reply = await kit.h.api('PUT', `${path(z)}?dry_run=true`, body);
    expect([reply.status, reply.body.success, reply.body.result]).toEqual([200, true, null]);
    expect(refusal(await kit.h.api('GET', path(z)))).toEqual([404, 10003, undefined]);
    const created = result<Ruleset>(await kit.h.api('PUT', path(z), body));
    expect((await kit.h.api('PUT', `${path(z)}?dry_run=true`, { rules: [] })).body.result).toBeNull();
    expect(result<Ruleset>(await kit.h.api('GET', path(z)))).toEqual(created);
  });

  it('refuses a dry_run that is neither true nor false (10017), saving nothing', async () => {
    const z = await zone();
    expect(refusal(await kit.h.api('PUT', `${entry(z)}?dry_run=yes`, { rules: [rule('block')] }))).toEqual([400, 10017, '?dry_run']);
    expect(refusal(await kit.h.api('GET', entry(z)))).toEqual([404, 10003, undefined]);
  });

  it('still takes the WAF migration parameter on the managed entry point', async () => {
    const z = await zone();
    const reply = await kit.h.api('PUT', `${managed(z)}?phase_two=1`, { rules: [execute(Ids.managed)] });
    expect(reply.status).toBe(200);
  });
});

describe('entry point of a phase the engine does not serve', () => {
  it.each(['http_ratelimit', 'http_request_sbfm', 'ddos_l7'])('answers GET of %s with the real 404 10003', async (phase) => {
    const z = await zone();
    const reply = await kit.h.api('GET', `/zones/${z}/rulesets/phases/${phase}/entrypoint`);
    expect([reply.status, reply.body.errors]).toEqual([404, [{ code: 10003, message: `could not find entrypoint ruleset in the ${phase} phase` }]]);
    expect(result(await kit.h.api('GET', `/zones/${z}/rulesets/phases/${phase}/entrypoint/versions`))).toEqual([]);
  });
});

describe('name is immutable on a PUT', () => {
  it.each([
    ['managed', managed, execute(Ids.managed)],
    ['custom', entry, rule('block')],
  ] as const)('refuses a rename of the %s entry point (20212) and keeps the name', async (_phase, path, r) => {
    const z = await zone();
    result(await kit.h.api('PUT', path(z), { name: 'first', rules: [r] }));
    expect(refusal(await kit.h.api('PUT', path(z), { name: 'second', rules: [r] }))).toEqual([400, 20212, '/name']);
    const now = result<Ruleset>(await kit.h.api('GET', path(z)));
    expect([now.name, now.version]).toEqual(['first', '1']);
  });
});

describe('PITR covers the custom phase', () => {
  it('restores the entry point, its rules and its versions to a bookmark', async () => {
    const z = await zone();
    const v1 = result<Ruleset>(await kit.h.api('PUT', entry(z), { rules: [rule('block', undefined, { ref: 'a' })] }));
    const mark = await kit.h.engine.bookmark(z);
    result(await kit.h.api('POST', `/zones/${z}/rulesets/${v1.id}/rules`, rule('js_challenge', undefined, { ref: 'b' })));
    expect(result<Ruleset>(await kit.h.api('GET', entry(z))).version).toBe('2');
    await kit.h.engine.restore(z, mark);
    expect(result<Ruleset>(await kit.h.api('GET', entry(z)))).toEqual(v1);
    expect(result<Ruleset[]>(await kit.h.api('GET', `${entry(z)}/versions`)).map((v) => v.version)).toEqual(['1']);
    const early = await kit.h.engine.bookmark(z);
    expect(early).toBeTruthy();
    expect((await kit.h.engine.dispatch({ method: 'DELETE', path: `/zones/${z}/rulesets/${v1.id}` })).status).toBe(204);
    await kit.h.engine.restore(z, early);
    expect(result<Ruleset>(await kit.h.api('GET', entry(z))).rules.map((r) => r.ref)).toEqual(['a']);
  });

  it(`starts with no ${Phase} entry point (restoring to before it existed removes it)`, async () => {
    const z = await zone();
    const mark = await kit.h.engine.bookmark(z);
    result(await kit.h.api('PUT', entry(z), { rules: [rule('block')] }));
    await kit.h.engine.restore(z, mark);
    expect(refusal(await kit.h.api('GET', entry(z)))).toEqual([404, 10003, undefined]);
  });
});
