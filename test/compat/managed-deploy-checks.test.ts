/**
 * What the `http_request_firewall_managed` entry point accepts and refuses across its rules, with the
 * official `cloudflare` client 7.3.0 against `zonewall serve` (normal and `--strict`): an exception
 * that lists a managed ruleset or rule id twice is refused naming the second place (400); an
 * exception placed after the execute rule it names is accepted, as the service accepts it, and skips
 * nothing (the trace runs the managed ruleset); two execute rules of one managed ruleset are refused
 * (400, code 20014, as the service answers), by a PUT and by a single-rule create or edit.
 */
import Cloudflare from 'cloudflare';
import type { PhaseUpdateResponse } from 'cloudflare/resources/rulesets/phases/phases';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKEN, startHarness, type Harness } from '../engine/helpers.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
/** "Vulnerability scanner activity" of the Cloudflare Managed Ruleset. */
const Scanner = '0242110ae62e44028a13bf4834780914';
const Phase = 'http_request_firewall_managed';

/** The status, codes and pointers of a refusal by the official client. */
function refusal(e: unknown): { status: number | undefined; errors: { code?: number; pointer?: string }[] } {
  if (!(e instanceof Cloudflare.APIError)) throw e;
  const errors = (e.errors as { code?: number; source?: { pointer?: string } }[]).map((x) => ({ code: x.code, pointer: x.source?.pointer }));
  return { status: e.status, errors };
}

describe.each([false, true])('managed entry point checks across rules with the official client (strict: %s)', (strict) => {
  let h: Harness;
  beforeAll(async () => { h = await startHarness({ strict }); });
  afterAll(async () => { await h.cleanup(); });
  const client = () => new Cloudflare({ apiToken: TOKEN, apiKey: null, apiEmail: null, baseURL: h.server.url, maxRetries: 0 });

  it('refuses an exception that lists a managed ruleset twice, or a rule id twice, naming the second place', async () => {
    const zone_id = await h.zone(`twice-${String(strict)}.example`);
    const cf = client();
    const execute = { action: 'execute' as const, ref: 'managed', expression: 'true', action_parameters: { id: MANAGED } };
    const rulesets = await cf.rulesets.phases.update(Phase, {
      zone_id, rules: [{ action: 'skip', ref: 'x', expression: 'true', action_parameters: { rulesets: [MANAGED, OWASP, MANAGED] } }, execute],
    }).then(() => undefined, refusal);
    expect(rulesets).toMatchObject({ status: 400, errors: [{ pointer: '/rules/0/action_parameters/rulesets/2' }] });
    const rules = await cf.rulesets.phases.update(Phase, {
      zone_id, rules: [{ action: 'skip', ref: 'x', expression: 'true', action_parameters: { rules: { [MANAGED]: [Scanner, Scanner] } } }, execute],
    }).then(() => undefined, refusal);
    expect(rules).toMatchObject({ status: 400, errors: [{ pointer: `/rules/0/action_parameters/rules/${MANAGED}/1` }] });
  });

  it('refuses a second execute rule of one managed ruleset: in a PUT, a rules.create and a rules.edit (400, 20014)', async () => {
    const zone_id = await h.zone(`deploy-twice-${String(strict)}.example`);
    const cf = client();
    const twice = await cf.rulesets.phases.update(Phase, {
      zone_id,
      rules: [
        { action: 'execute', ref: 'api', expression: 'starts_with(http.request.uri.path, "/api/")', action_parameters: { id: MANAGED, overrides: { action: 'log' } } },
        { action: 'execute', ref: 'owasp', expression: 'true', action_parameters: { id: OWASP } },
        { action: 'execute', ref: 'rest', expression: 'true', action_parameters: { id: MANAGED }, enabled: false },
      ],
    }).then(() => undefined, refusal);
    expect(twice).toEqual({ status: 400, errors: [{ code: 20014, pointer: '/rules/2/action_parameters/id' }] });
    const put = (await cf.rulesets.phases.update(Phase, {
      zone_id,
      rules: [
        { action: 'execute', ref: 'managed', expression: 'true', action_parameters: { id: MANAGED } },
        { action: 'skip', ref: 'office', expression: 'ip.src eq 203.0.113.50', action_parameters: { ruleset: 'current' } },
      ],
    })) as PhaseUpdateResponse.Ruleset;
    const created = await cf.rulesets.rules.create(put.id, { zone_id, action: 'execute', ref: 'again', expression: 'true', action_parameters: { id: MANAGED } }).then(() => undefined, refusal);
    expect(created).toEqual({ status: 400, errors: [{ code: 20014, pointer: '/action_parameters/id' }] });
    const office = put.rules[1]!;
    const edited = await cf.rulesets.rules.edit(office.id!, { ruleset_id: put.id, zone_id, action: 'execute', ref: 'office', expression: 'true', action_parameters: { id: MANAGED } }).then(() => undefined, refusal);
    expect(edited).toEqual({ status: 400, errors: [{ code: 20014, pointer: '/action_parameters/id' }] });
    // The execute rule itself may be edited (it is not a second one), and another ruleset added.
    const own = await cf.rulesets.rules.edit(put.rules[0]!.id!, { ruleset_id: put.id, zone_id, action: 'execute', ref: 'managed', expression: 'http.host eq "a.example"', action_parameters: { id: MANAGED } });
    expect(own).toMatchObject({ version: '2' });
    const owasp = await cf.rulesets.rules.create(put.id, { zone_id, action: 'execute', ref: 'owasp', expression: 'true', action_parameters: { id: OWASP } });
    expect(owasp).toMatchObject({ version: '3' });
    const got = await cf.rulesets.phases.get(Phase, { zone_id });
    expect(got.rules.map((r) => r.ref)).toEqual(['managed', 'office', 'owasp']);
  });
});
