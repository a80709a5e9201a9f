/**
 * Managed-rules exceptions with the official `cloudflare` client 7.3.0 against `zonewall serve`,
 * normal and `--strict` (issue 28): `rulesets.phases.update` writes skip rules of the three forms
 * before the execute rules of the `http_request_firewall_managed` entry point and reads them back,
 * a second PUT inserts one keeping the other rules' ids, and an exception naming a rule the managed
 * ruleset does not have is refused with the client's typed error. Single-rule calls on the managed
 * entry point: `rulesets.rules.create` of an exception before the execute rule (and a dry run of
 * one), `rulesets.rules.edit`, `rulesets.rules.delete`, ids kept, a new version each.
 */
import Cloudflare from 'cloudflare';
import type { PhaseGetResponse, PhaseUpdateResponse } from 'cloudflare/resources/rulesets/phases/phases';
import type { RuleCreateResponse, RuleDeleteResponse, RuleEditResponse } from 'cloudflare/resources/rulesets/rules';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startHarness, type Harness } from '../engine/helpers.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
/** "Vulnerability scanner activity" of the Cloudflare Managed Ruleset. */
const Scanner = '0242110ae62e44028a13bf4834780914';
const Phase = 'http_request_firewall_managed';

describe.each([false, true])('managed-rules exceptions with the official client (strict: %s)', (strict) => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ strict }); });
  afterAll(async () => { await h.cleanup(); });
  const client = () => new Cloudflare({ apiToken: TOKEN, apiKey: null, apiEmail: null, baseURL: h.server.url, maxRetries: 0 });

  it('writes exceptions before the executes, reads them back, and inserts one with a second PUT (ids kept)', async () => {
    const zone_id = await h.zone(`exceptions-${String(strict)}.example`);
    const cf = client();
    const put = (await cf.rulesets.phases.update(Phase, {
      zone_id,
      rules: [
        { action: 'skip', ref: 'office', expression: 'ip.src in {198.51.100.0/24}', action_parameters: { ruleset: 'current' }, logging: { enabled: false } },
        { action: 'skip', ref: 'uploads', expression: 'http.request.uri.path eq "/upload"', action_parameters: { rulesets: [OWASP] } },
        { action: 'execute', ref: 'managed', expression: 'true', action_parameters: { id: MANAGED } },
        { action: 'execute', ref: 'owasp', expression: 'true', action_parameters: { id: OWASP } },
      ],
    })) as PhaseUpdateResponse.Ruleset;
    const got: PhaseGetResponse = await cf.rulesets.phases.get(Phase, { zone_id });
    for (const rs of [put, got]) {
      expect(rs.rules.map((r) => [r.action, r.ref])).toEqual([['skip', 'office'], ['skip', 'uploads'], ['execute', 'managed'], ['execute', 'owasp']]);
      expect(rs.rules[0]).toMatchObject({ action_parameters: { ruleset: 'current' }, logging: { enabled: false } });
      expect(rs.rules[1]).toMatchObject({ action_parameters: { rulesets: [OWASP] } });
    }
    // A second PUT inserts a rules exception before the managed execute; rules sent with their ids keep them.
    const keep = put.rules.map((r) => ({ id: r.id!, ref: r.ref!, action: r.action as 'skip' | 'execute', expression: r.expression!, action_parameters: r.action_parameters as never }));
    const again = (await cf.rulesets.phases.update(Phase, {
      zone_id,
      rules: [keep[0]!, keep[1]!,
        { action: 'skip', ref: 'own-scanner', expression: 'ip.src eq 203.0.113.50', action_parameters: { rules: { [MANAGED]: [Scanner] } } },
        keep[2]!, keep[3]!],
    })) as PhaseUpdateResponse.Ruleset;
    expect(again.rules.map((r) => r.ref)).toEqual(['office', 'uploads', 'own-scanner', 'managed', 'owasp']);
    expect(again.rules[2]).toMatchObject({ action: 'skip', action_parameters: { rules: { [MANAGED]: [Scanner] } } });
    expect(again.rules.map((r) => r.id)).toEqual([put.rules[0]!.id, put.rules[1]!.id, expect.stringMatching(/^[0-9a-f]{32}$/), put.rules[2]!.id, put.rules[3]!.id]);
  });

  it('refuses an exception that names a rule the managed ruleset does not have', async () => {
    const zone_id = await h.zone(`exceptions-bad-${String(strict)}.example`);
    const cf = client();
    await expect(cf.rulesets.phases.update(Phase, {
      zone_id,
      rules: [
        { action: 'skip', ref: 'x', expression: 'true', action_parameters: { rules: { [MANAGED]: ['0'.repeat(32)] } } },
        { action: 'execute', ref: 'managed', expression: 'true', action_parameters: { id: MANAGED } },
      ],
    })).rejects.toSatisfy((e: unknown) => e instanceof Cloudflare.BadRequestError && /0{32}/.test(e.message));
  });

  it('adds an exception before the execute rule with rules.create, edits it and deletes it', async () => {
    const zone_id = await h.zone(`exceptions-single-${String(strict)}.example`);
    const cf = client();
    const put = (await cf.rulesets.phases.update(Phase, {
      zone_id, rules: [{ action: 'execute', ref: 'managed', expression: 'true', action_parameters: { id: MANAGED } }],
    })) as PhaseUpdateResponse.Ruleset;
    const execute = put.rules[0]!;
    const dry = await cf.rulesets.rules.create(put.id, {
      zone_id, dry_run: true, action: 'skip', ref: 'office', expression: 'ip.src in {198.51.100.0/24}', action_parameters: { ruleset: 'current' }, position: { before: execute.id! },
    });
    expect(dry).toBeNull();
    const added = (await cf.rulesets.rules.create(put.id, {
      zone_id, action: 'skip', ref: 'office', expression: 'ip.src in {198.51.100.0/24}', action_parameters: { ruleset: 'current' }, logging: { enabled: false }, position: { before: execute.id! },
    })) as RuleCreateResponse.Ruleset;
    expect(added.rules.map((r) => [r.action, r.ref])).toEqual([['skip', 'office'], ['execute', 'managed']]);
    expect([added.version, added.rules[1]!.id]).toEqual(['2', execute.id]);
    const office = added.rules[0]!;
    const edited = (await cf.rulesets.rules.edit(office.id!, {
      ruleset_id: put.id, zone_id, action: 'skip', ref: 'office', expression: 'ip.src eq 203.0.113.50', action_parameters: { rules: { [MANAGED]: [Scanner] } },
    })) as RuleEditResponse.Ruleset;
    expect(edited.rules[0]).toMatchObject({ id: office.id, version: '2', expression: 'ip.src eq 203.0.113.50', action_parameters: { rules: { [MANAGED]: [Scanner] } } });
    await expect(cf.rulesets.rules.edit(office.id!, {
      ruleset_id: put.id, zone_id, action: 'skip', expression: 'true', action_parameters: { rulesets: ['0'.repeat(32)] },
    })).rejects.toSatisfy((e: unknown) => e instanceof Cloudflare.BadRequestError && /0{32}/.test(e.message));
    const deleted = (await cf.rulesets.rules.delete(office.id!, { ruleset_id: put.id, zone_id })) as RuleDeleteResponse.Ruleset;
    expect(deleted.rules.map((r) => [r.ref, r.id])).toEqual([['managed', execute.id]]);
    const got: PhaseGetResponse = await cf.rulesets.phases.get(Phase, { zone_id });
    expect([got.version, got.rules.length]).toEqual([deleted.version, 1]);
    expect(deleted.version).toBe('4');
  });
});
