/**
 * Dry runs (issue 31): `?dry_run=true` on every write route, over HTTP and in-process. A ruleset
 * write is validated exactly as the write (the same answer code and errors), leaves the zone as it
 * was, answers `result: null` (200) or stays 204. The other write routes take it as zonewall's
 * extension, which `serve --strict` does not serve (refused with 10017, nothing written).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './helpers.js';
import { entry, refusal, result, rule, startCustomKit, type CustomKit, type Ruleset } from './rulesets/custom-kit.js';
import { entrypointPath, execute, Ids } from './migration/kit.js';

/** A write to try: method, path, body. */
type Write = [method: string, path: string, body: unknown];

let kit: CustomKit;
let strict: Harness;
beforeAll(async () => {
  kit = await startCustomKit();
  strict = await startHarness({ strict: true });
});
afterAll(async () => {
  await kit.h.cleanup();
  await strict.cleanup();
});

/** Everything a zone serves that a write may change, read back whole. */
async function snapshot(call: CustomKit['transports'][number][1], z: string): Promise<unknown[]> {
  const paths = [entry(z), entrypointPath(z), `/zones/${z}/rulesets`, `/zones/${z}/filters`, `/zones/${z}/firewall/rules`, `/zones/${z}/pagerules`, `/zones/${z}/waf_migration/status`];
  return Promise.all(paths.map(async (p) => (await call('GET', p)).body));
}

describe.each([['http'], ['dispatch']] as const)('dry runs of the Rulesets API (%s)', (transport) => {
  const call = (...a: Parameters<CustomKit['transports'][number][1]>) => kit.transports.find(([n]) => n === transport)![1](...a);

  async function seeded(): Promise<{ z: string; ruleset: Ruleset }> {
    const z = await kit.zone();
    const ruleset = result<Ruleset>(await call('PUT', entry(z), { rules: [rule('block'), rule('log', 'http.host eq "a.example"')] }));
    return { z, ruleset };
  }

  it.each([
    ['PUT the entry point', (z: string): Write => ['PUT', entry(z), { rules: [rule('challenge')] }]],
    ['PUT the ruleset by id', (z: string, rs: Ruleset): Write => ['PUT', `/zones/${z}/rulesets/${rs.id}`, { rules: [] }]],
    ['POST a rule', (z: string, rs: Ruleset): Write => ['POST', `/zones/${z}/rulesets/${rs.id}/rules`, rule('managed_challenge')]],
    ['PATCH a rule', (z: string, rs: Ruleset): Write => ['PATCH', `/zones/${z}/rulesets/${rs.id}/rules/${rs.rules[0]!.id}`, rule('js_challenge')]],
    ['DELETE a rule', (z: string, rs: Ruleset): Write => ['DELETE', `/zones/${z}/rulesets/${rs.id}/rules/${rs.rules[0]!.id}`, undefined]],
  ] as const)('%s: 200, result null, nothing saved', async (_name, make) => {
    const { z, ruleset } = await seeded();
    const before = await snapshot(call, z);
    const [method, path, body] = make(z, ruleset);
    const reply = await call(method, `${path}?dry_run=true`, body);
    expect([reply.status, reply.body.success, reply.body.result, reply.body.errors]).toEqual([200, true, null, []]);
    expect(await snapshot(call, z)).toEqual(before);
    // The same write without dry_run does change the zone (so the case could fail).
    expect((await call(method, path, body)).status).toBe(200);
    expect(await snapshot(call, z)).not.toEqual(before);
  });

  it('DELETE of the ruleset and POST of a new one: 204 stays 204, 200 answers null, nothing saved', async () => {
    const { z, ruleset } = await seeded();
    const before = await snapshot(call, z);
    expect((await call('DELETE', `/zones/${z}/rulesets/${ruleset.id}?dry_run=true`)).status).toBe(204);
    expect(await snapshot(call, z)).toEqual(before);
    const fresh = await kit.zone();
    const created = await call('POST', `/zones/${fresh}/rulesets?dry_run=true`, { name: 'zone', kind: 'zone', phase: 'http_request_firewall_custom', rules: [rule('block')] });
    expect([created.status, created.body.result]).toEqual([200, null]);
    expect(refusal(await call('GET', entry(fresh)))).toEqual([404, 10003, undefined]);
  });

  it.each([
    ['a bad expression', (z: string): Write => ['PUT', entry(z), { rules: [rule('block', 'http.host eq')] }]],
    ['an unknown action', (z: string): Write => ['PUT', entry(z), { rules: [rule('deny')] }]],
    ['a second zone ruleset of a phase', (z: string): Write => ['POST', `/zones/${z}/rulesets`, { name: 'x', kind: 'zone', phase: 'http_request_firewall_custom' }]],
  ] as const)('refuses %s exactly as the write does', async (_name, make) => {
    const { z } = await seeded();
    const [method, path, body] = make(z);
    const dry = await call(method, `${path}?dry_run=true`, body);
    const real = await call(method, path, body);
    expect(dry.status).toBeGreaterThanOrEqual(400);
    expect([dry.status, dry.body.errors]).toEqual([real.status, real.body.errors]);
  });

  it('refuses managed rulesets enabled on an unmigrated business zone (11007), as the write', async () => {
    const z = (await kit.h.engine.createZone(`biz-${transport}.example`, { plan: 'business', waf: 'previous' })).id;
    const body = { rules: [execute(Ids.owasp)] };
    const dry = await call('PUT', `${entrypointPath(z)}?dry_run=true`, body);
    expect(dry.body.errors.map((e) => e.code)).toEqual([11007]);
    expect(dry.body.errors).toEqual((await call('PUT', entrypointPath(z), body)).body.errors);
  });
});

describe('dry runs of the other write routes (a zonewall extension)', () => {
  let ext = 0;
  it.each([
    ['POST filters', (z: string, _name: string): Write => ['POST', `/zones/${z}/filters`, [{ expression: 'http.host eq "a.example"' }]]],
    ['POST firewall rules', (z: string, _name: string): Write => ['POST', `/zones/${z}/firewall/rules`, [{ action: 'block', filter: { expression: 'http.host eq "a.example"' } }]]],
    ['POST a Page Rule', (z: string, name: string): Write => ['POST', `/zones/${z}/pagerules`, { targets: [{ target: 'url', constraint: { operator: 'matches', value: `${name}/*` } }], actions: [{ id: 'disable_security' }] }]],
  ] as const)('%s: validated, result null, nothing saved', async (_name, make) => {
    const [, call] = kit.transports[0]!;
    const name = `ext${++ext}.example`;
    const z = (await kit.h.engine.createZone(name, { plan: 'enterprise' })).id;
    const before = await snapshot(call, z);
    const [method, path, body] = make(z, name);
    const reply = await call(method, `${path}?dry_run=true`, body);
    expect([reply.status, reply.body.success, reply.body.result]).toEqual([200, true, null]);
    expect(await snapshot(call, z)).toEqual(before);
  });

  it('refuses a bad filter on a dry run as the write does', async () => {
    const [, call] = kit.transports[0]!;
    const z = await kit.zone();
    const body = [{ expression: 'http.host eq' }];
    const dry = await call('POST', `/zones/${z}/filters?dry_run=true`, body);
    expect(dry.status).toBe(400);
    expect(dry.body.errors).toEqual((await call('POST', `/zones/${z}/filters`, body)).body.errors);
  });

  it('is absent under --strict: refused with 10017, nothing written; the Rulesets API keeps its dry run', async () => {
    const z = await strict.zone('strict-dry.example');
    const reply = await strict.api('POST', `/zones/${z}/filters?dry_run=true`, [{ expression: 'http.host eq "a.example"' }]);
    expect([reply.status, reply.body.errors[0]?.code]).toEqual([400, 10017]);
    expect((await strict.api('GET', `/zones/${z}/filters`)).body.result).toEqual([]);
    const put = await strict.api('PUT', `${entry(z)}?dry_run=true`, { rules: [rule('block')] });
    expect([put.status, put.body.result]).toEqual([200, null]);
    expect(refusal(await strict.api('GET', entry(z)))).toEqual([404, 10003, undefined]);
  });
});
