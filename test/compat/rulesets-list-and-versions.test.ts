/**
 * The Rulesets API's list and versions routes through the official client (npm `cloudflare` 7.3.0)
 * against `zonewall serve`, normal and `--strict`, beyond the entry points' own versions (which
 * official-client*.test.ts cover): `rulesets.list` with the client's cursor pagination parameters
 * (`per_page` 1..50, `cursor`), and raw HTTP for the page's `result_info` and bad parameters; a
 * managed ruleset's versions (`rulesets.versions.list/get` on the id `rulesets.get` answers);
 * `rulesets.phases.versions.list/get` in the three served phases; and the first two on the workerd
 * runtime too.
 */

const Managed = 'efb7b8c949ac4650a09736fc376e9aee';
const Owasp = '4814384a9e5d4991b9815dcfc25d2f1f';
const Free = '77454fe2d30c4220b5701f6fdfb893ba';
const ExposedCredentials = 'c2e184081120413c86c3ab7e14069605';
import Cloudflare from 'cloudflare';
import type { Phase, RulesetGetResponse, RulesetListResponse } from 'cloudflare/resources/rulesets/rulesets';
import type { PhaseUpdateParams } from 'cloudflare/resources/rulesets/phases/phases';
import type { VersionGetResponse, VersionListResponse } from 'cloudflare/resources/rulesets/versions';
import type { VersionGetResponse as PhaseVersionGetResponse, VersionListResponse as PhaseVersionListResponse } from 'cloudflare/resources/rulesets/phases/versions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startHarness, startWorkerdHarness, type Harness, type HttpHarness } from '../engine/helpers.js';

describe.each([false, true])('rulesets list and versions with the official client (strict: %s)', (strict) => {
  let h: Harness;
  let cf: Cloudflare;
  beforeAll(async () => {
    h = await startHarness({ strict });
    cf = new Cloudflare({ apiToken: TOKEN, apiKey: null, apiEmail: null, baseURL: h.server.url, maxRetries: 0 });
  });
  afterAll(async () => { await h.cleanup(); });

  it('rulesets.list takes per_page and cursor: every ruleset once, page by page, in the unpaged order', async () => {
    const zone_id = await h.zone(`list-pages-${String(strict)}.example`, 'enterprise');
    await cf.rulesets.phases.update('http_request_firewall_custom', { zone_id, rules: [{ action: 'block', expression: 'true', ref: 'a' }] });
    await cf.rulesets.phases.update('http_ratelimit', {
      zone_id, rules: [{ action: 'block', expression: 'true', ref: 'b', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5 } }],
    });
    const all: RulesetListResponse[] = [];
    for await (const r of cf.rulesets.list({ zone_id })) all.push(r);
    expect(all.length).toBeGreaterThan(3);
    for (const perPage of [1, 2, 50]) {
      const paged: string[] = [];
      for await (const r of cf.rulesets.list({ zone_id, per_page: perPage })) paged.push(r.id);
      expect(paged, `per_page ${perPage}`).toEqual(all.map((r) => r.id));
    }
    const first = await h.api('GET', `/zones/${zone_id}/rulesets?per_page=2`);
    expect((first.body.result as unknown[]).length).toBe(2);
    const info = first.body.result_info as unknown as { cursor: string; cursors: { after: string } };
    expect(info.cursors.after).toEqual(expect.any(String));
    expect(info.cursor).toBe(info.cursors.after);
    const last = await h.api('GET', `/zones/${zone_id}/rulesets?per_page=50`);
    expect(last.body.result_info).toBeUndefined();
    const empty = await h.api('GET', `/zones/${zone_id}/rulesets?per_page=&cursor=`);
    expect((empty.body.result as { id: string }[]).map((r) => r.id)).toEqual(all.map((r) => r.id));
  });

  it('refuses per_page outside 1..50 and a cursor it did not give, naming the parameter', async () => {
    const zone_id = await h.zone(`list-bad-${String(strict)}.example`, 'enterprise');
    for (const query of ['per_page=0', 'per_page=51', 'per_page=two', 'cursor=nope!', `cursor=${Buffer.from('f'.repeat(32)).toString('base64url')}`]) {
      const reply = await h.api('GET', `/zones/${zone_id}/rulesets?${query}`);
      expect([reply.status, reply.body.success], query).toEqual([400, false]);
      expect(reply.body.errors[0]).toMatchObject({ code: 10017, source: { pointer: `?${query.split('=')[0]}` } });
    }
    await expect(cf.rulesets.list({ zone_id, per_page: 51 }).then(() => undefined)).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
  });

  it('answers a managed ruleset\'s versions: the list holds the version rulesets.get shows, and that version has its rules', async () => {
    const zone_id = await h.zone(`managed-versions-${String(strict)}.example`, 'enterprise');
    const managed: RulesetGetResponse = await cf.rulesets.get(Managed, { zone_id });
    const versions: VersionListResponse[] = [];
    for await (const v of cf.rulesets.versions.list(Managed, { zone_id })) versions.push(v);
    expect(versions).toEqual([{ id: Managed, name: managed.name, description: managed.description, source: 'firewall_managed', kind: 'managed', version: managed.version, last_updated: managed.last_updated, phase: managed.phase }]);
    const version: VersionGetResponse = await cf.rulesets.versions.get(managed.version, { ruleset_id: Managed, zone_id });
    expect(version).toEqual(managed);
    await expect(cf.rulesets.versions.get('1', { ruleset_id: Managed, zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
    await expect(cf.rulesets.versions.delete(managed.version, { ruleset_id: Managed, zone_id })).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
    await expect(cf.rulesets.versions.list('f'.repeat(32), { zone_id }).then(() => undefined)).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
  });

  it('a Free zone sees only the managed rulesets its plan may deploy: the others are left out of the list and 404 (not entitled)', async () => {
    const zone_id = await h.zone(`free-entitled-${String(strict)}.example`, 'free');
    const listed: string[] = [];
    for await (const r of cf.rulesets.list({ zone_id })) listed.push(r.id);
    expect(listed).toEqual([Free]);
    for (const id of [Managed, Owasp, ExposedCredentials]) {
      await expect(cf.rulesets.get(id, { zone_id }), id).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
      await expect(cf.rulesets.versions.list(id, { zone_id }).then(() => undefined), id).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
    }
    const free: RulesetGetResponse = await cf.rulesets.get(Free, { zone_id });
    expect(free.rules.length).toBeGreaterThan(0);
    const pro = await h.zone(`pro-entitled-${String(strict)}.example`, 'pro');
    const proListed: string[] = [];
    for await (const r of cf.rulesets.list({ zone_id: pro })) proListed.push(r.id);
    expect(proListed).toEqual([Managed, Owasp, Free, ExposedCredentials]);
  });

  type PhaseRule = NonNullable<PhaseUpdateParams['rules']>[number];
  // Each phase's rule, and its second rule (the managed phase deploys a managed ruleset once: the second deploys another).
  const phaseRules: [Phase, PhaseRule, PhaseRule?][] = [
    ['http_request_firewall_custom', { action: 'block', expression: 'true' }],
    ['http_ratelimit', { action: 'block', expression: 'true', ratelimit: { characteristics: ['cf.colo.id', 'ip.src'], period: 60, requests_per_period: 5 } }],
    ['http_request_firewall_managed', { action: 'execute', expression: 'true', action_parameters: { id: Managed } },
      { action: 'execute', expression: 'true', action_parameters: { id: Owasp } }],
  ];
  it.each(phaseRules)('rulesets.phases.versions.list and get on %s: [] before, then every version newest first, each with its rules', async (phase, rule, other = rule) => {
    const zone_id = await h.zone(`phase-versions-${phase}-${String(strict)}.example`, 'enterprise');
    const before: PhaseVersionListResponse[] = [];
    for await (const v of cf.rulesets.phases.versions.list(phase, { zone_id })) before.push(v);
    expect(before).toEqual([]);
    await expect(cf.rulesets.phases.versions.get('1', { zone_id, ruleset_phase: phase })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
    await cf.rulesets.phases.update(phase, { zone_id, rules: [{ ...rule, ref: 'one' }] });
    await cf.rulesets.phases.update(phase, { zone_id, rules: [{ ...rule, ref: 'one' }, { ...other, ref: 'two', enabled: false }] });
    const versions: PhaseVersionListResponse[] = [];
    for await (const v of cf.rulesets.phases.versions.list(phase, { zone_id })) versions.push(v);
    expect(versions.map((v) => [v.version, v.kind, v.phase, 'rules' in v])).toEqual([['2', 'zone', phase, false], ['1', 'zone', phase, false]]);
    const first: PhaseVersionGetResponse = await cf.rulesets.phases.versions.get('1', { zone_id, ruleset_phase: phase });
    const second: PhaseVersionGetResponse = await cf.rulesets.phases.versions.get('2', { zone_id, ruleset_phase: phase });
    expect([first.rules.map((r) => r.ref), second.rules.map((r) => r.ref)]).toEqual([['one'], ['one', 'two']]);
    expect(second.rules[0]!.id).toBe(first.rules[0]!.id);
    await expect(cf.rulesets.phases.versions.get('3', { zone_id, ruleset_phase: phase })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
  });
});

describe('the same on the workerd runtime', () => {
  let h: HttpHarness;
  beforeAll(async () => { h = await startWorkerdHarness(); }, 120_000);
  afterAll(async () => { await h?.cleanup(); });

  it('pages rulesets.list with per_page and answers a managed ruleset\'s versions', async () => {
    const cf = new Cloudflare({ apiToken: TOKEN, apiKey: null, apiEmail: null, baseURL: h.server.url, maxRetries: 0 });
    const zone_id = await h.zone('workerd-list.example', 'enterprise');
    await cf.rulesets.phases.update('http_request_firewall_custom', { zone_id, rules: [{ action: 'block', expression: 'true', ref: 'a' }] });
    const all: string[] = [];
    for await (const r of cf.rulesets.list({ zone_id })) all.push(r.id);
    const paged: string[] = [];
    for await (const r of cf.rulesets.list({ zone_id, per_page: 2 })) paged.push(r.id);
    expect(paged).toEqual(all);
    const versions: VersionListResponse[] = [];
    for await (const v of cf.rulesets.versions.list(Managed, { zone_id })) versions.push(v);
    expect(versions.map((v) => [v.id, v.kind])).toEqual([[Managed, 'managed']]);
  });
});
