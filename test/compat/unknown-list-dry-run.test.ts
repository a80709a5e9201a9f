/**
 * A rule naming a list the account does not have, through the official client (7.3.0) against
 * `zonewall serve`: the refusal (10311) points at the expression that names it, as every other
 * field error does, in each kind that can name a list (custom rules, rate limiting rules with the
 * counting expression, managed-rules exceptions, single-rule calls, filters); and a dry run
 * (`dry_run: true`) answers the same refusal the write gets (it answered 200 with `result: null`:
 * the list check ran only on writes that persist).
 */
import Cloudflare from 'cloudflare';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startHarness, type Harness } from '../engine/helpers.js';

type Refusal = { status: number; errors: { code: number; message: string; source?: { pointer: string } }[] };

async function refusal(p: Promise<unknown>): Promise<Refusal> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  expect(err).toBeInstanceOf(Cloudflare.BadRequestError);
  const e = err as InstanceType<typeof Cloudflare.BadRequestError>;
  return { status: e.status as number, errors: e.errors as Refusal['errors'] };
}

describe('an unknown $list: the refusal names the field, and a dry run gets it too', () => {
  let h: Harness;
  let cf: Cloudflare;
  let zone: string;
  beforeAll(async () => {
    h = await startHarness({});
    zone = await h.zone('unknown-list.example', 'enterprise');
    cf = new Cloudflare({ apiToken: TOKEN, apiKey: null, apiEmail: null, baseURL: h.server.url, maxRetries: 0 });
  });
  afterAll(async () => { await h.cleanup(); });

  it('custom rules: an entry point PUT points at the rule that names it, dry run or not', async () => {
    const rules = [
      { action: 'block' as const, expression: 'http.request.uri.path eq "/"', ref: 'plain' },
      { action: 'block' as const, expression: 'ip.src in $nolist', ref: 'uses' },
    ];
    for (const dry_run of [false, true]) {
      const r = await refusal(cf.rulesets.phases.update('http_request_firewall_custom', { zone_id: zone, rules, ...(dry_run ? { dry_run } : {}) }));
      expect(r.errors).toEqual([expect.objectContaining({ code: 10311, source: { pointer: '/rules/1/expression' } })]);
      expect(r.errors[0]!.message).toContain('$nolist');
    }
    // Nothing was written either way.
    await expect(cf.rulesets.phases.get('http_request_firewall_custom', { zone_id: zone })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
  });

  it('rate limiting: a counting expression naming an unknown list is refused at it; a dry run too', async () => {
    const rule = {
      action: 'block' as const, expression: 'http.request.uri.path eq "/login"', ref: 'login',
      ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5, mitigation_timeout: 600, counting_expression: 'ip.src in $ghosts' },
    };
    for (const dry_run of [false, true]) {
      const r = await refusal(cf.rulesets.phases.update('http_ratelimit', { zone_id: zone, rules: [rule], ...(dry_run ? { dry_run } : {}) }));
      expect(r.errors).toEqual([expect.objectContaining({ code: 10311, source: { pointer: '/rules/0/ratelimit/counting_expression' } })]);
    }
  });

  it('a single-rule POST to the managed entry point (an exception) points at /expression; a dry run too', async () => {
    const managed = (await cf.rulesets.phases.update('http_request_firewall_managed', {
      zone_id: zone, rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }],
    })) as { id: string; rules: { id: string }[] };
    for (const dry_run of [false, true]) {
      const r = await refusal(cf.rulesets.rules.create(managed.id, {
        zone_id: zone, action: 'skip', expression: 'ip.src in $scanners', action_parameters: { ruleset: 'current' }, position: { before: managed.rules[0]!.id }, ...(dry_run ? { dry_run } : {}),
      }));
      expect(r.errors).toEqual([expect.objectContaining({ code: 10311, source: { pointer: '/expression' } })]);
    }
    expect(((await cf.rulesets.phases.get('http_request_firewall_managed', { zone_id: zone })) as { rules: unknown[] }).rules).toHaveLength(1);
  });

  it('a known list passes a dry run (200, result null) and the write', async () => {
    const account = (await cf.zones.get({ zone_id: zone })).account.id!;
    await cf.rules.lists.create({ account_id: account, name: 'known', kind: 'ip' });
    const rules = [{ action: 'block' as const, expression: 'ip.src in $known', ref: 'known' }];
    const dry = await h.api('PUT', `/zones/${zone}/rulesets/phases/http_request_firewall_custom/entrypoint?dry_run=true`, { rules });
    expect([dry.status, dry.body.result]).toEqual([200, null]);
    const put = (await cf.rulesets.phases.update('http_request_firewall_custom', { zone_id: zone, rules })) as { rules: { ref?: string }[] };
    expect(put.rules.map((r) => r.ref)).toEqual(['known']);
  });
});
