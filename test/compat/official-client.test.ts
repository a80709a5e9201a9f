/**
 * Compatibility with the official TypeScript client (npm `cloudflare` 7.3.0, pinned): the real
 * `zonewall serve` server on 127.0.0.1 (ephemeral port), driven by the client as a user's code
 * would, normal and `--strict`. Every typed result is type-checked against the client's types (by
 * `npm test`'s typecheck) and its required fields are checked at run time. Where the client's types
 * are wrong about the real API, the test says so and keeps the seed's behaviour.
 */
import Cloudflare from 'cloudflare';
import type { FirewallFilter } from 'cloudflare/resources/filters/filters';
import type { PhaseGetResponse, PhaseUpdateResponse } from 'cloudflare/resources/rulesets/phases/phases';
import type { FirewallRule } from 'cloudflare/resources/firewall/rules';
import type { RuleCreateResponse, RuleDeleteResponse, RuleEditResponse } from 'cloudflare/resources/rulesets/rules';
import type { Zone } from 'cloudflare/resources/zones/zones';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EMAIL, KEY, TOKEN, startHarness, type Harness } from '../engine/helpers.js';

/** Required (non-optional) fields of the client's `Zone` type. */
const ZoneRequired = ['id', 'account', 'activated_on', 'created_on', 'development_mode', 'meta', 'modified_on', 'name', 'name_servers',
  'original_dnshost', 'original_name_servers', 'original_registrar', 'owner', 'plan'] as const satisfies readonly (keyof Zone)[];

const hex32 = /^[0-9a-f]{32}$/;

function client(h: Harness, auth: 'token' | 'key' = 'token'): Cloudflare {
  const credentials = auth === 'token' ? { apiToken: TOKEN, apiKey: null, apiEmail: null } : { apiToken: null, apiKey: KEY, apiEmail: EMAIL };
  return new Cloudflare({ ...credentials, baseURL: h.server.url, maxRetries: 0 });
}

describe.each([false, true])('the official cloudflare client against zonewall serve (strict: %s)', (strict) => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ strict }); });
  afterAll(async () => { await h.cleanup(); });

  describe('zones, with a token and with X-Auth-Email/X-Auth-Key', () => {
    it.each(['token', 'key'] as const)('lists and gets zones whose every required field is there (%s)', async (auth) => {
      const id = await h.zone(`zones-${auth}.example`, 'business');
      const cf = client(h, auth);
      const listed: Zone[] = [];
      for await (const z of cf.zones.list({ name: `zones-${auth}.example` })) listed.push(z);
      const zone: Zone = await cf.zones.get({ zone_id: id });
      for (const z of [listed[0]!, zone]) {
        for (const field of ZoneRequired) expect(z, field).toHaveProperty(field);
        expect(z.account.id).toMatch(hex32);
        expect(z.plan.legacy_id).toBe('business');
        expect(z.name_servers.length).toBeGreaterThan(0);
        expect(z.status).toBe('active');
        expect('plan_tier' in z).toBe(!strict);
      }
    });

    it('refuses a wrong token with the client\'s typed error', async () => {
      const id = await h.zone('auth.example');
      const bad = new Cloudflare({ apiToken: 'not-the-token', apiKey: null, apiEmail: null, baseURL: h.server.url, maxRetries: 0 });
      await expect(bad.zones.get({ zone_id: id })).rejects.toBeInstanceOf(Cloudflare.PermissionDeniedError);
    });
  });

  describe('filters', () => {
    it('creates, pages through 260 with the auto-paginating iterator, gets, updates and deletes', async () => {
      const zone_id = await h.zone('filters.example');
      const cf = client(h);
      const bodies = Array.from({ length: 260 }, (_, i) => ({ expression: `ip.src eq 198.51.${Math.floor(i / 250)}.${i % 250}`, ref: `f-${i}` }));
      for (let i = 0; i < bodies.length; i += 100) {
        const created: FirewallFilter[] = [];
        for await (const f of cf.filters.create({ zone_id, body: bodies.slice(i, i + 100) })) created.push(f);
        expect(created.map((f) => f.ref)).toEqual(bodies.slice(i, i + 100).map((b) => b.ref));
      }
      const all: FirewallFilter[] = [];
      for await (const f of cf.filters.list({ zone_id, per_page: 100 })) all.push(f);
      expect(all.map((f) => f.ref)).toEqual(bodies.map((b) => b.ref));
      const first = all[0]!;
      expect(first.id).toMatch(hex32);
      const got: FirewallFilter = await cf.filters.get(first.id!, { zone_id });
      expect(got).toEqual(first);
      const updated: FirewallFilter = await cf.filters.update(first.id!, { zone_id, expression: 'ip.src eq 203.0.113.9', description: 'moved' });
      expect(updated).toMatchObject({ id: first.id, expression: 'ip.src eq 203.0.113.9', description: 'moved', paused: false });
      await cf.filters.delete(first.id!, { zone_id });
      await expect(cf.filters.get(first.id!, { zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
    });
  });

  describe('firewall rules', () => {
    // The client's types are wrong here: `create` models ONE rule whose `action` is the rate-limit
    // object `{mode, ...}` (an OAS quirk, api-facts.md §3), but the API takes an ARRAY of rules with
    // a string action (seed 000). The real body goes through RequestOptions.body.
    const create = (cf: Cloudflare, zone_id: string, rules: unknown[]) =>
      cf.firewall.rules.create({ zone_id, action: {}, filter: {} }, { body: rules });

    it('recommended flow: 260 rules on one filter, paged with the iterator, in evaluation order', async () => {
      const zone_id = await h.zone('rules.example');
      const cf = client(h);
      const filters: FirewallFilter[] = [];
      for await (const f of cf.filters.create({ zone_id, body: [{ expression: 'http.request.uri.path eq "/admin"' }] })) filters.push(f);
      const filterId = filters[0]!.id!;
      for (let i = 0; i < 260; i += 100) {
        const batch = Array.from({ length: Math.min(100, 260 - i) }, (_, j) => ({ action: 'block', priority: i + j + 1, filter: { id: filterId }, ref: `r-${i + j}` }));
        for await (const r of create(cf, zone_id, batch)) {
          expect(r.id).toMatch(hex32);
        }
      }
      const all: FirewallRule[] = [];
      for await (const r of cf.firewall.rules.list({ zone_id, per_page: 100 })) all.push(r);
      expect(all).toHaveLength(260);
      expect(all.map((r) => r.priority)).toEqual(Array.from({ length: 260 }, (_, i) => i + 1));
      const one: FirewallRule = await cf.firewall.rules.get(all[0]!.id!, { zone_id });
      expect(one.filter).toMatchObject({ id: filterId, expression: 'http.request.uri.path eq "/admin"' });
      // The client types `action` as an object too; the API answers the string the seed shows.
      expect(one.action as unknown).toBe('block');
    });

    it('simplified flow: the inline filter stays after the rule is deleted, unless delete_filter_if_unused is sent', async () => {
      const zone_id = await h.zone('inline.example');
      const cf = client(h);
      const created: FirewallRule[] = [];
      for await (const r of create(cf, zone_id, [
        { action: 'block', filter: { expression: 'http.user_agent contains "sqlmap"' } },
        { action: 'challenge', filter: { expression: 'http.user_agent contains "nikto"' } },
      ])) created.push(r);
      // The client types `priority` as a number; the API answers null for a rule without one (seed 000).
      expect(created.map((r) => r.priority as unknown)).toEqual([null, null]);
      const [kept, taken] = created;
      const filterOf = (r: FirewallRule) => (r.filter as FirewallFilter).id!;
      await cf.firewall.rules.delete(kept!.id!, { zone_id });
      expect((await cf.filters.get(filterOf(kept!), { zone_id })).expression).toBe('http.user_agent contains "sqlmap"');
      // The client's `delete` sends no body; the option goes as the real API takes it, a JSON body.
      await cf.firewall.rules.delete(taken!.id!, { zone_id }, { body: { delete_filter_if_unused: true } });
      await expect(cf.filters.get(filterOf(taken!), { zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
    });
  });

  describe('WAF custom rules (the http_request_firewall_custom phase)', () => {
    it('puts the entry point, adds a rule at a position, edits and deletes one, and lists versions', async () => {
      const zone_id = await h.zone('custom.example', 'enterprise');
      const cf = client(h);
      const phase = 'http_request_firewall_custom';
      await expect(cf.rulesets.phases.get(phase, { zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
      // The client types the PUT's answer as `Ruleset | unknown`; the real API answers the ruleset.
      const put = (await cf.rulesets.phases.update(phase, {
        zone_id,
        rules: [
          { action: 'skip', expression: 'ip.src in {192.0.2.0/24}', ref: 'office', action_parameters: { ruleset: 'current' }, logging: { enabled: true } },
          { action: 'block', expression: 'http.user_agent contains "sqlmap"', ref: 'sqlmap', description: 'sqlmap' },
        ],
      })) as PhaseUpdateResponse.Ruleset;
      expect([put.kind, put.phase, put.rules.map((r) => r.ref)]).toEqual(['zone', phase, ['office', 'sqlmap']]);
      const [office, sqlmap] = put.rules;
      // A single-rule POST answers the whole ruleset, with the new rule where `position` put it (the
      // client types the rule calls' answers as `Ruleset | unknown`, like the PUT's).
      const added = (await cf.rulesets.rules.create(put.id, {
        zone_id, action: 'managed_challenge', expression: 'http.request.uri.path eq "/login"', ref: 'login', position: { before: sqlmap!.id! },
      })) as RuleCreateResponse.Ruleset;
      expect(added.rules.map((r) => r.ref)).toEqual(['office', 'login', 'sqlmap']);
      expect(added.rules.map((r) => r.id)).toEqual([office!.id, expect.stringMatching(hex32), sqlmap!.id]);
      const edited = (await cf.rulesets.rules.edit(sqlmap!.id!, {
        ruleset_id: put.id, zone_id, action: 'block', expression: 'http.user_agent contains "nikto"', enabled: false,
      })) as RuleEditResponse.Ruleset;
      expect(edited.rules.find((r) => r.id === sqlmap!.id)).toMatchObject({ expression: 'http.user_agent contains "nikto"', enabled: false });
      const afterDelete = (await cf.rulesets.rules.delete(office!.id!, { ruleset_id: put.id, zone_id })) as RuleDeleteResponse.Ruleset;
      expect(afterDelete.rules.map((r) => r.ref)).toEqual(['login', 'sqlmap']);
      const got: PhaseGetResponse = await cf.rulesets.phases.get(phase, { zone_id });
      expect(got.version).toBe(afterDelete.version);
      const versions = [];
      for await (const v of cf.rulesets.versions.list(put.id, { zone_id })) versions.push(v.version);
      expect(versions.length).toBeGreaterThanOrEqual(4);
    });

    it('takes dry_run on every rulesets write: validated, nothing persisted, result null (issue 31)', async () => {
      const zone_id = await h.zone('dry-run.example', 'enterprise');
      const cf = client(h);
      const phase = 'http_request_firewall_custom';
      const rule = { action: 'block' as const, expression: 'http.user_agent contains "sqlmap"', ref: 'sqlmap' };
      expect(await cf.rulesets.phases.update(phase, { zone_id, rules: [rule], dry_run: true })).toBeNull();
      expect(await cf.rulesets.create({ zone_id, name: 'zone', kind: 'zone', phase, rules: [rule], dry_run: true })).toBeNull();
      await expect(cf.rulesets.phases.get(phase, { zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
      const put = (await cf.rulesets.phases.update(phase, { zone_id, rules: [rule] })) as PhaseUpdateResponse.Ruleset;
      const ruleId = put.rules[0]!.id!;
      expect(await cf.rulesets.update(put.id, { zone_id, rules: [], dry_run: true })).toBeNull();
      expect(await cf.rulesets.rules.create(put.id, { zone_id, action: 'log', expression: 'true', dry_run: true })).toBeNull();
      expect(await cf.rulesets.rules.edit(ruleId, { ruleset_id: put.id, zone_id, action: 'log', expression: 'true', dry_run: true })).toBeNull();
      expect(await cf.rulesets.rules.delete(ruleId, { ruleset_id: put.id, zone_id, dry_run: true })).toBeNull();
      await cf.rulesets.delete(put.id, { zone_id, dry_run: true });
      const got: PhaseGetResponse = await cf.rulesets.phases.get(phase, { zone_id });
      expect([got.version, got.rules.map((r) => r.ref)]).toEqual([put.version, ['sqlmap']]);
      // Refused exactly as the write: a bad expression is a 400 with the same errors.
      const bad = { zone_id, rules: [{ action: 'block' as const, expression: 'http.nope eq 1', ref: 'x' }] };
      const dryError = await cf.rulesets.phases.update(phase, { ...bad, dry_run: true }).catch((e: unknown) => e);
      const realError = await cf.rulesets.phases.update(phase, bad).catch((e: unknown) => e);
      expect(dryError).toBeInstanceOf(Cloudflare.BadRequestError);
      expect((dryError as InstanceType<typeof Cloudflare.BadRequestError>).errors).toEqual((realError as InstanceType<typeof Cloudflare.BadRequestError>).errors);
      expect((await cf.rulesets.phases.get(phase, { zone_id })).version).toBe(put.version);
    });

    it('deletes a version that is not the latest with rulesets.versions.delete; the latest is refused', async () => {
      const zone_id = await h.zone('custom-versions.example', 'enterprise');
      const cf = client(h);
      const rules = [{ action: 'block' as const, expression: 'http.request.uri.path eq "/a"', ref: 'a' }];
      const v1 = (await cf.rulesets.phases.update('http_request_firewall_custom', { zone_id, rules })) as PhaseUpdateResponse.Ruleset;
      await cf.rulesets.phases.update('http_request_firewall_custom', { zone_id, rules: [{ ...rules[0]!, enabled: false }] });
      expect(v1.last_updated).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/); // microseconds, as the service writes
      await cf.rulesets.versions.delete('1', { ruleset_id: v1.id, zone_id });
      const versions = [];
      for await (const v of cf.rulesets.versions.list(v1.id, { zone_id })) versions.push(v.version);
      expect(versions).toEqual(['2']);
      await expect(cf.rulesets.versions.get('1', { ruleset_id: v1.id, zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
      await expect(cf.rulesets.versions.delete('2', { ruleset_id: v1.id, zone_id })).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
    });

    it('takes a skip of phase "current" (alone or with products), typed by the client, and returns it', async () => {
      const zone_id = await h.zone('custom-skip-phase.example', 'enterprise');
      const cf = client(h);
      const put = (await cf.rulesets.phases.update('http_request_firewall_custom', {
        zone_id,
        rules: [
          { action: 'skip', expression: 'ip.src in {192.0.2.0/24}', ref: 'office', action_parameters: { phase: 'current' } },
          { action: 'skip', expression: 'ip.src in {198.51.100.0/24}', ref: 'partner', action_parameters: { phase: 'current', products: ['waf'] } },
        ],
      })) as PhaseUpdateResponse.Ruleset;
      const got: PhaseGetResponse = await cf.rulesets.phases.get('http_request_firewall_custom', { zone_id });
      for (const rs of [put, got]) expect(rs.rules.map((r) => r.action_parameters)).toEqual([{ phase: 'current' }, { phase: 'current', products: ['waf'] }]);
    });

    it('refuses a field the zone\'s plan lacks (cf.waf.score on a free zone) with the client\'s typed error', async () => {
      const zone_id = await h.zone('custom-gated.example', 'free');
      const cf = client(h);
      const bad = cf.rulesets.phases.update('http_request_firewall_custom', { zone_id, rules: [{ action: 'block', expression: 'cf.waf.score lt 20', ref: 'attack' }] });
      await expect(bad).rejects.toMatchObject({ status: 400, errors: [expect.objectContaining({ code: 20204 })] });
      await expect(bad).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
    });

    it('refuses an invalid rule with the client\'s typed error, naming the field', async () => {
      const zone_id = await h.zone('custom-bad.example', 'enterprise');
      const cf = client(h);
      const bad = cf.rulesets.phases.update('http_request_firewall_custom', { zone_id, rules: [{ action: 'block', expression: 'http.nope eq 1', ref: 'x' }] });
      await expect(bad).rejects.toBeInstanceOf(Cloudflare.BadRequestError);
      await expect(cf.rulesets.phases.get('http_request_firewall_custom', { zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
    });
  });

  describe('managed rulesets and the previous WAF', () => {
    it('puts and gets the managed phase entry point', async () => {
      const zone_id = await h.zone('managed.example');
      const cf = client(h);
      await expect(cf.rulesets.phases.get('http_request_firewall_managed', { zone_id })).rejects.toBeInstanceOf(Cloudflare.NotFoundError);
      // The client types the PUT's answer as `Ruleset | unknown`; the real API answers the ruleset.
      const put = (await cf.rulesets.phases.update('http_request_firewall_managed', {
        zone_id,
        rules: [{ action: 'execute', expression: 'true', action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' }, ref: 'managed' }],
      })) as PhaseUpdateResponse.Ruleset;
      const got: PhaseGetResponse = await cf.rulesets.phases.get('http_request_firewall_managed', { zone_id });
      for (const rs of [put, got] as const) {
        for (const field of ['id', 'kind', 'last_updated', 'name', 'phase', 'rules', 'version'] as const) expect(rs, field).toHaveProperty(field);
        expect([rs.kind, rs.phase]).toEqual(['zone', 'http_request_firewall_managed']);
        expect(rs.rules[0]).toMatchObject({ action: 'execute', ref: 'managed', expression: 'true' });
        expect(rs.rules[0]!.id).toMatch(hex32);
      }
    });

    it('lists packages, groups and rules, and edits a group and a rule', async () => {
      const zone_id = await h.zone('waf.example', 'pro');
      const cf = client(h);
      // The client types package results as `unknown`; the fields are the reference's (api-facts.md §5).
      const packages: { id: string; detection_mode: string }[] = [];
      for await (const p of cf.firewall.waf.packages.list({ zone_id })) packages.push(p as { id: string; detection_mode: string });
      expect(packages.length).toBeGreaterThan(0);
      const pkg = packages.find((p) => p.detection_mode === 'traditional');
      expect(pkg).toBeDefined();
      const groups = [];
      for await (const g of cf.firewall.waf.packages.groups.list(pkg!.id, { zone_id })) groups.push(g);
      for (const g of groups) for (const field of ['id', 'description', 'mode', 'name', 'rules_count'] as const) expect(g, field).toHaveProperty(field);
      const edited = await cf.firewall.waf.packages.groups.edit(groups[0]!.id, { zone_id, package_id: pkg!.id, mode: 'off' });
      expect(edited).toBeTruthy();
      const rules = [];
      for await (const r of cf.firewall.waf.packages.rules.list(pkg!.id, { zone_id })) rules.push(r);
      expect(rules.length).toBeGreaterThan(0);
      const rule = rules.find((r) => r.allowed_modes.includes('block' as never));
      expect(rule).toBeDefined();
      await cf.firewall.waf.packages.rules.edit(rule!.id, { zone_id, package_id: pkg!.id, mode: 'block' } as never);
      const again = await cf.firewall.waf.packages.rules.get(rule!.id, { zone_id, package_id: pkg!.id });
      expect((again as { mode?: string }).mode).toBe('block');
    });
  });
});
