/**
 * The Rulesets API entry point of the `http_request_firewall_managed` phase over HTTP: GET (404
 * 10003 until created), PUT (creates, replaces every rule, fills id/version/last_updated, keeps ids of
 * kept rules), refusals (unknown rulesets and rules, bad actions, bad expressions, plan), versions,
 * and the managed rulesets list/get.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ids, codes, entrypointPath, execute, result, startWafKit, type WafKit } from '../migration/kit.js';

let kit: WafKit;
let n = 0;
beforeAll(async () => { kit = await startWafKit(); });
afterAll(async () => { await kit.h.cleanup(); });
const zone = (plan: 'free' | 'pro' | 'business' | 'enterprise' = 'enterprise') => kit.zone(`rs${++n}.example`, plan);

interface Rule { id: string; ref: string; version: string; last_updated: string; enabled: boolean; action: string; action_parameters: any; expression: string; description: string }
interface Ruleset { id: string; name: string; version: string; kind: string; phase: string; last_updated: string; rules: Rule[] }

describe('GET and PUT of the entry point', () => {
  it('answers 404 with 10003 until the first PUT creates it', async () => {
    const z = await zone();
    const missing = await kit.getEntrypoint(z);
    expect([missing.status, missing.body.errors]).toEqual([404, [{ code: 10003, message: 'could not find entrypoint ruleset in the http_request_firewall_managed phase' }]]);
    const put = result<Ruleset>(await kit.put(z, { name: 'zone', description: 'managed', rules: [execute(Ids.managed, { overrides: { rules: [{ id: '5f6744fa026a4638bda5b3d7d5e015dd', action: 'log', enabled: true }] } })] }));
    expect(put).toMatchObject({ name: 'zone', description: 'managed', kind: 'zone', phase: 'http_request_firewall_managed', version: '1', source: 'firewall_managed' });
    expect(put.id).toMatch(/^[0-9a-f]{32}$/);
    const [rule] = put.rules;
    expect(rule).toMatchObject({ version: '1', action: 'execute', expression: 'true', enabled: true, description: '' });
    expect(rule!.id).toMatch(/^[0-9a-f]{32}$/);
    expect(rule!.ref).toBe(rule!.id);
    expect(rule!.last_updated).toBe(put.last_updated);
    // The service writes microseconds (`2025-03-21T11:02:08.769537Z`).
    expect(put.last_updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/);
    expect(rule!.action_parameters).toEqual({ id: Ids.managed, version: 'latest', overrides: { rules: [{ id: '5f6744fa026a4638bda5b3d7d5e015dd', action: 'log', enabled: true }] } });
    expect(result(await kit.getEntrypoint(z))).toEqual(put);
  });

  it('keeps rule ids across PUTs that keep the rule (by ref, then id) and bumps versions on change', async () => {
    const z = await zone();
    const v1 = result<Ruleset>(await kit.put(z, { rules: [{ ...execute(Ids.managed), ref: 'managed' }, execute(Ids.owasp)] }));
    const [managed, owasp] = v1.rules;
    const v2 = result<Ruleset>(await kit.put(z, { rules: [
      { ...execute(Ids.owasp), id: owasp!.id, description: 'OWASP' },
      { ...execute(Ids.managed, {}, false), ref: 'managed' },
      execute(Ids.free),
    ] }));
    expect(v2.version).toBe('2');
    expect(v2.rules.map((r) => [r.id, r.version])).toEqual([[owasp!.id, '2'], [managed!.id, '2'], [v2.rules[2]!.id, '1']]);
    expect(v2.rules[2]!.id).not.toBe(managed!.id);
    const same = result<Ruleset>(await kit.put(z, { rules: v2.rules }));
    expect([same.version, same.last_updated]).toEqual(['2', v2.last_updated]);
    const fewer = result<Ruleset>(await kit.put(z, { rules: [v2.rules[1]] }));
    expect([fewer.version, fewer.rules.map((r) => [r.id, r.version])]).toEqual(['3', [[managed!.id, '2']]]);
  });

  it('accepts a GET body sent back as is', async () => {
    const z = await zone();
    const created = result<Ruleset>(await kit.put(z, { rules: [execute(Ids.managed)] }));
    const again = result<Ruleset>(await kit.put(z, created));
    expect(again).toEqual(created);
  });

  it('refuses an id that is not one of its rules', async () => {
    const z = await zone();
    const bad = await kit.put(z, { rules: [{ ...execute(Ids.managed), id: 'ffffffffffffffffffffffffffffffff' }] });
    expect([bad.status, codes(bad)]).toEqual([400, [20205]]);
  });

  it('refuses unknown rulesets, unknown rule ids, bad actions and bad expressions with every reason at once', async () => {
    const z = await zone();
    const bad = await kit.put(z, { rules: [
      execute('00000000000000000000000000000000'),
      execute(Ids.managed, { overrides: { rules: [{ id: '11111111111111111111111111111111', action: 'block' }] } }),
      { action: 'block', expression: 'true' },
      execute(Ids.owasp, { overrides: { action: 'allow' } }),
      { ...execute(Ids.managed), expression: 'http.host eq' },
    ] });
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => [e.code, e.source?.pointer])).toEqual([
      [20201, '/rules/0/action_parameters/id'],
      [20202, '/rules/1/action_parameters/overrides/rules/0/id'],
      [20203, '/rules/2/action'],
      [20203, '/rules/3/action_parameters/overrides/action'],
      [10015, '/rules/4/expression'],
    ]);
    expect(bad.body.errors[4]!.message).toMatch(/^Filter parsing error \(1:\d+\):/);
    expect((await kit.getEntrypoint(z)).status).toBe(404);
  });

  it('checks expressions against the managed phase', async () => {
    const z = await zone();
    const ok = await kit.put(z, { rules: [{ ...execute(Ids.managed), expression: 'http.request.uri.path matches "^/api/" and ip.src.country ne "T1"' }] });
    expect(ok.status).toBe(200);
  });

  it('lets a Free zone deploy only the Free managed ruleset', async () => {
    const z = await zone('free');
    const bad = await kit.put(z, { rules: [execute(Ids.owasp)] });
    expect([bad.status, codes(bad)]).toEqual([400, [20204]]);
    expect(bad.body.errors[0]!.message).toContain(Ids.free);
    expect((await kit.put(z, { rules: [execute(Ids.free)] })).status).toBe(200);
  });

  it('answers a phase it does not serve as one without an entry point, and refuses writes to it', async () => {
    const z = await zone();
    const get = await kit.api('GET', `/zones/${z}/rulesets/phases/http_request_sbfm/entrypoint`);
    expect([get.status, get.body.errors]).toEqual([404, [{ code: 10003, message: 'could not find entrypoint ruleset in the http_request_sbfm phase' }]]);
    const put = await kit.api('PUT', `/zones/${z}/rulesets/phases/http_request_sbfm/entrypoint`, { rules: [] });
    expect([put.status, codes(put)]).toEqual([400, [20213]]);
  });
});

describe('versions', () => {
  it('lists every version and returns each with its rules', async () => {
    const z = await zone();
    result(await kit.put(z, { rules: [execute(Ids.managed)] }));
    result(await kit.put(z, { rules: [execute(Ids.managed), execute(Ids.owasp)] }));
    const list = result<Ruleset[]>(await kit.api('GET', `${entrypointPath(z)}/versions`));
    expect(list.map((v) => v.version)).toEqual(['2', '1']);
    expect(list[0]).not.toHaveProperty('rules');
    expect(result<Ruleset>(await kit.api('GET', `${entrypointPath(z)}/versions/1`)).rules).toHaveLength(1);
    expect(codes(await kit.api('GET', `${entrypointPath(z)}/versions/9`))).toEqual([20207]);
  });
});

describe('rulesets', () => {
  it('lists the managed rulesets and the zone entry point', async () => {
    const z = await zone();
    expect(result<{ id: string }[]>(await kit.api('GET', `/zones/${z}/rulesets`)).map((r) => r.id)).toEqual([Ids.managed, Ids.owasp, Ids.free, Ids.exposedCredentials]);
    const entry = result<Ruleset>(await kit.put(z, { rules: [execute(Ids.managed)] }));
    const list = result<{ id: string; kind: string }[]>(await kit.api('GET', `/zones/${z}/rulesets`));
    expect(list.map((r) => [r.id, r.kind])).toEqual([[entry.id, 'zone'], [Ids.managed, 'managed'], [Ids.owasp, 'managed'], [Ids.free, 'managed'], [Ids.exposedCredentials, 'managed']]);
    expect(result<Ruleset>(await kit.api('GET', `/zones/${z}/rulesets/${entry.id}`)).rules).toHaveLength(1);
  });

  it('shows a managed ruleset with its rules, categories and the OWASP threshold rule', async () => {
    const z = await zone();
    const owasp = result<{ rules: { id: string; categories: string[]; score_threshold?: number; action: string }[] }>(await kit.api('GET', `/zones/${z}/rulesets/${Ids.owasp}`));
    expect(owasp.rules.find((r) => r.id === Ids.threshold)).toMatchObject({ action: 'block', score_threshold: 40 });
    expect(owasp.rules.some((r) => r.categories.includes('paranoia-level-4'))).toBe(true);
    expect(codes(await kit.api('GET', `/zones/${z}/rulesets/abc`))).toEqual([20206]);
  });
});
