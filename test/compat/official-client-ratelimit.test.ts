/**
 * Rate limiting rules (`http_ratelimit`) through the official TypeScript client (npm `cloudflare`
 * 7.3.0) against `zonewall serve`, normal and `--strict`: `client.rulesets.phases.*` and
 * `client.rulesets.rules.*` with the client's own `ratelimit` types, the per-plan refusals as the
 * client's typed errors, and versions.
 */
import Cloudflare from 'cloudflare';
import type { PhaseGetResponse, PhaseUpdateResponse } from 'cloudflare/resources/rulesets/phases/phases';
import type { RuleCreateResponse, RuleDeleteResponse, RuleEditResponse } from 'cloudflare/resources/rulesets/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startHarness, type Harness } from '../engine/helpers.js';

const phase = 'http_ratelimit';

function client(h: Harness): Cloudflare {
  return new Cloudflare({ apiToken: TOKEN, apiKey: null, apiEmail: null, baseURL: h.server.url, maxRetries: 0 });
}

describe.each([false, true])('rate limiting rules through the official client (strict: %s)', (strict) => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ strict }); });
  afterAll(async () => { await h.cleanup(); });

  it('puts the entry point, adds a rule at a position, edits and deletes one, and lists versions', async () => {
    const zone_id = await h.zone('rl.example', 'enterprise');
    const cf = client(h);
    await expect(cf.rulesets.phases.get(phase, { zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
    const put = (await cf.rulesets.phases.update(phase, {
      zone_id,
      rules: [{
        action: 'block', expression: 'http.request.uri.path eq "/login"', ref: 'login',
        ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5, mitigation_timeout: 600 },
      }],
    })) as PhaseUpdateResponse.Ruleset;
    expect([put.kind, put.phase, put.rules.map((r) => r.ref)]).toEqual(['zone', phase, ['login']]);
    const login = put.rules[0]!;
    expect('ratelimit' in login ? login.ratelimit : undefined).toEqual({ characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5, mitigation_timeout: 600, requests_to_origin: false });
    const added = (await cf.rulesets.rules.create(put.id, {
      zone_id, action: 'managed_challenge', expression: 'starts_with(http.request.uri.path, "/api/")', ref: 'api', position: { before: login.id! },
      ratelimit: { characteristics: ['cf.colo.id', 'http.request.headers["x-api-key"]'], period: 10, requests_per_period: 100, mitigation_timeout: 0 },
    })) as RuleCreateResponse.Ruleset;
    expect(added.rules.map((r) => r.ref)).toEqual(['api', 'login']);
    const edited = (await cf.rulesets.rules.edit(login.id!, {
      ruleset_id: put.id, zone_id, action: 'block', expression: 'http.request.uri.path eq "/login"', ref: 'login',
      ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 10, mitigation_timeout: 600 },
    })) as RuleEditResponse.Ruleset;
    const after = edited.rules.find((r) => r.id === login.id)!;
    expect(['ratelimit' in after ? after.ratelimit?.requests_per_period : undefined, after.version]).toEqual([10, '2']);
    const deleted = (await cf.rulesets.rules.delete(added.rules[0]!.id!, { ruleset_id: put.id, zone_id })) as RuleDeleteResponse.Ruleset;
    expect(deleted.rules.map((r) => [r.ref, r.id])).toEqual([['login', login.id]]);
    const got: PhaseGetResponse = await cf.rulesets.phases.get(phase, { zone_id });
    expect(got.version).toBe(deleted.version);
    const versions = [];
    for await (const v of cf.rulesets.versions.list(put.id, { zone_id })) versions.push(v.version);
    expect(versions).toEqual(['4', '3', '2', '1']);
  });

  it('refuses what the zone\'s plan lacks and a rule without cf.colo.id with the client\'s typed errors', async () => {
    const zone_id = await h.zone('rl-free.example', 'free');
    const cf = client(h);
    const ratelimit = { characteristics: ['cf.colo.id', 'ip.src'], period: 10, requests_per_period: 5, mitigation_timeout: 10 };
    const longer = cf.rulesets.phases.update(phase, { zone_id, rules: [{ action: 'block', expression: 'http.request.uri.path eq "/a"', ratelimit: { ...ratelimit, period: 60 } }] });
    await expect(longer).rejects.toMatchObject({ status: 400, errors: [expect.objectContaining({ code: 20204 })] });
    await expect(longer).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
    const noColo = cf.rulesets.phases.update(phase, { zone_id, rules: [{ action: 'block', expression: 'http.request.uri.path eq "/a"', ratelimit: { ...ratelimit, characteristics: ['ip.src'] } }] });
    await expect(noColo).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
    const two = cf.rulesets.phases.update(phase, { zone_id, rules: [1, 2].map((i) => ({ action: 'block' as const, expression: `http.request.uri.path eq "/${i}"`, ratelimit })) });
    await expect(two).rejects.toMatchObject({ status: 400, errors: [expect.objectContaining({ code: 20210 })] });
    const ok = (await cf.rulesets.phases.update(phase, { zone_id, rules: [{ action: 'block', expression: 'http.request.uri.path eq "/a"', ratelimit }] })) as PhaseUpdateResponse.Ruleset;
    expect(ok.rules).toHaveLength(1);
  });
});
