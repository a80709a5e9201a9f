/**
 * `serve --strict`: the engine answers with the real API's shapes only. Each zonewall extension the
 * normal server has (fields and routes) is shown present there and absent here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHttpProvider } from '../../src/providers/http/index.js';
import { TOKEN, codes, result, startHarness, type Harness } from './helpers.js';

let normal: Harness;
let strict: Harness;
beforeAll(async () => {
  normal = await startHarness();
  strict = await startHarness({ strict: true });
});
afterAll(async () => {
  await normal.cleanup();
  await strict.cleanup();
});

const INLINE = [{ filter: { expression: 'http.user_agent contains "sqlmap"' }, action: 'block' }];

describe.each([
  ['normal', () => normal, true],
  ['strict', () => strict, false],
] as const)('%s serve', (_name, h, extensions) => {
  it(extensions ? 'marks simplified-flow filters `locked`, in the filters API and inside rules' : 'never sends `locked`, though it still refuses the filter\'s PUT (10104)', async () => {
    const z = await h().zone('locked.example');
    const [rule] = result(await h().api('POST', `/zones/${z}/firewall/rules`, INLINE));
    const views = [
      rule.filter,
      result(await h().api('GET', `/zones/${z}/firewall/rules/${rule.id}`)).filter,
      result(await h().api('GET', `/zones/${z}/firewall/rules`))[0].filter,
      result(await h().api('GET', `/zones/${z}/filters/${rule.filter.id}`)),
      result(await h().api('GET', `/zones/${z}/filters`))[0],
    ];
    for (const v of views) expect('locked' in v).toBe(extensions);
    expect(codes(await h().api('PUT', `/zones/${z}/filters/${rule.filter.id}`, { expression: 'ip.src eq 192.0.2.1' }))).toEqual([10104]);
  });

  it(extensions ? 'adds `plan_tier` to zones' : 'answers zones without `plan_tier` (the tier is plan.legacy_id)', async () => {
    const z = await h().zone('tier.example', 'pro');
    const one = result(await h().api('GET', `/zones/${z}`));
    const listed = result(await h().api('GET', '/zones?name=tier.example'))[0];
    for (const v of [one, listed]) {
      expect('plan_tier' in v).toBe(extensions);
      expect(v.plan.legacy_id).toBe('pro');
      expect(v.account.id).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it(extensions ? 'serves zone create/delete, the trace and the burst' : 'has no zone create/delete (405: only GET) or trace and burst routes (404 7003)', async () => {
    const z = await h().zone('routes.example');
    const create = await h().api('POST', '/zones', { name: 'made-over-http.example' });
    const trace = await h().api('POST', `/zones/${z}/trace`, { path: '/' });
    const burst = await h().api('POST', `/zones/${z}/trace/burst`, { request: { path: '/' }, burst: { count: 3, over: 1 } });
    const del = await h().api('DELETE', `/zones/${z}`);
    if (extensions) {
      for (const r of [create, trace, burst, del]) expect(r.status).toBe(200);
      return;
    }
    expect([create.status, del.status]).toEqual([405, 405]);
    expect(create.headers.allow).toBe('GET');
    expect([trace.status, codes(trace)]).toEqual([404, [7003, 7000]]);
    // The burst route is zonewall's too: strict has none (it was served).
    expect([burst.status, codes(burst)]).toEqual([404, [7003, 7000]]);
    expect(result(await h().api('GET', `/zones/${z}`)).id).toBe(z);
    expect(result(await h().api('GET', '/zones?name=made-over-http.example'))).toEqual([]);
  });

  it(extensions ? 'adds `waf_state` to the migration status' : 'answers the migration status without `waf_state`', async () => {
    const z = await h().zone('status.example');
    const status = result(await h().api('GET', `/zones/${z}/waf_migration/status`));
    expect('waf_state' in status).toBe(extensions);
    expect(status.old_waf_status).toBe('enabled');
  });

  it(extensions ? 'adds `phase` and `reasons` to the migration check' : 'answers the migration check with `compatible` and `migration_state` only, the reasons in `messages`', async () => {
    const free = await h().zone('check-free.example', 'free');
    const reply = await h().api('GET', `/zones/${free}/waf_migration/check?phase_two=1`);
    const check = result(reply);
    expect(Object.keys(check).sort()).toEqual(extensions ? ['compatible', 'migration_state', 'phase', 'reasons'] : ['compatible', 'migration_state']);
    expect(check.compatible).toBe(false);
    const reasons = extensions ? check.reasons : reply.body.messages;
    expect(reasons).toEqual([{ code: 11006, message: expect.stringContaining('Free zones') }]);
    if (extensions) expect(reply.body.messages).toEqual([]);
    // A compatible zone's answer keeps errors and messages empty either way (seed 002).
    const pro = await h().zone('check-pro.example', 'pro');
    const ok = await h().api('GET', `/zones/${pro}/waf_migration/check?phase_two=1`);
    expect([result(ok).compatible, ok.body.errors, ok.body.messages]).toEqual([true, [], []]);
    // zonewall's own provider finds the reasons either way.
    const provider = openHttpProvider({ url: h().server.url, env: { ZONEWALL_API_TOKEN: TOKEN } });
    try {
      expect(await provider.checkMigration(free)).toMatchObject({ compatible: false, reasons: [expect.stringContaining('Free zones')] });
    } finally {
      await provider.close();
    }
  });
});
