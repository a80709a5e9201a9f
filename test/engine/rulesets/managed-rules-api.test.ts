/**
 * Single-rule operations on the `http_request_firewall_managed` entry point over HTTP: POST of an
 * exception with `position` (before, after, index), PATCH (definition, move), DELETE, each validated
 * as a PUT of the whole entry point would be (20201/20202 for unknown rulesets and rules, actions,
 * plan entitlements, the migration step of a PUT without `waf_migration`), ids kept, a new version,
 * and `?dry_run=true` saving nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ids, codes, execute, result, startWafKit, type WafKit } from '../migration/kit.js';

let kit: WafKit;
let n = 0;
beforeAll(async () => { kit = await startWafKit(); });
afterAll(async () => { await kit.h.cleanup(); });

interface Rule { id: string; ref: string; version: string; action: string; expression: string; enabled: boolean; action_parameters: Record<string, unknown> }
interface Ruleset { id: string; version: string; rules: Rule[] }

/** "Vulnerability scanner activity" of the Cloudflare Managed Ruleset. */
const Scanner = '0242110ae62e44028a13bf4834780914';
const skip = (ref: string, params: Record<string, unknown> = { ruleset: 'current' }, extra: Record<string, unknown> = {}) =>
  ({ action: 'skip', ref, expression: 'ip.src eq 203.0.113.50', action_parameters: params, ...extra });

async function seeded(plan: 'free' | 'pro' | 'enterprise' = 'enterprise', waf?: 'new'): Promise<{ z: string; rs: Ruleset }> {
  const z = await kit.zone(`managed-rules${++n}.example`, plan, waf);
  const id = plan === 'free' ? Ids.free : Ids.managed;
  // A free zone deploys its one ruleset once (a second execute rule of it is refused, 20014).
  const second = plan === 'free' ? [] : [{ ...execute(Ids.owasp), ref: 'owasp', enabled: false }];
  const rs = result<Ruleset>(await kit.put(z, { rules: [{ ...execute(id), ref: 'managed' }, ...second] }));
  return { z, rs };
}
const rulesPath = (z: string, rs: Ruleset) => `/zones/${z}/rulesets/${rs.id}/rules`;

describe('single-rule operations on the managed entry point', () => {
  it('adds an exception before the execute rule, keeping the other ids, as a new version', async () => {
    const { z, rs } = await seeded();
    const added = result<Ruleset>(await kit.api('POST', rulesPath(z, rs), { ...skip('office'), position: { before: rs.rules[0]!.id } }));
    expect(added.id).toBe(rs.id);
    expect(added.version).toBe('2');
    expect(added.rules.map((r) => [r.action, r.ref])).toEqual([['skip', 'office'], ['execute', 'managed'], ['execute', 'owasp']]);
    expect(added.rules.slice(1).map((r) => r.id)).toEqual(rs.rules.map((r) => r.id));
    expect(added.rules[0]!.id).toMatch(/^[0-9a-f]{32}$/);
    expect(result(await kit.getEntrypoint(z))).toEqual(added);
    const after = result<Ruleset>(await kit.api('POST', rulesPath(z, rs), { ...skip('uploads', { rules: { [Ids.managed]: [Scanner] } }), position: { after: added.rules[0]!.id } }));
    expect(after.rules.map((r) => r.ref)).toEqual(['office', 'uploads', 'managed', 'owasp']);
    const indexed = result<Ruleset>(await kit.api('POST', rulesPath(z, rs), { ...skip('third', { rulesets: [Ids.owasp] }), position: { index: 3 } }));
    expect(indexed.rules.map((r) => r.ref)).toEqual(['office', 'uploads', 'third', 'managed', 'owasp']);
    expect(indexed.version).toBe('4');
  });

  it('edits and moves an exception with PATCH and removes it with DELETE', async () => {
    const { z, rs } = await seeded();
    const added = result<Ruleset>(await kit.api('POST', rulesPath(z, rs), { ...skip('office'), position: { before: '' } }));
    const id = added.rules[0]!.id;
    const edited = result<Ruleset>(await kit.api('PATCH', `${rulesPath(z, rs)}/${id}`, { ...skip('office', { rules: { [Ids.managed]: [Scanner] } }), expression: 'ip.src eq 198.51.100.7' }));
    expect(edited.version).toBe('3');
    expect(edited.rules[0]).toMatchObject({ id, ref: 'office', version: '2', expression: 'ip.src eq 198.51.100.7', action_parameters: { rules: { [Ids.managed]: [Scanner] } } });
    const moved = result<Ruleset>(await kit.api('PATCH', `${rulesPath(z, rs)}/${id}`, { position: { after: rs.rules[0]!.id } }));
    expect(moved.rules.map((r) => r.ref)).toEqual(['managed', 'office', 'owasp']);
    expect(moved.rules[1]).toMatchObject({ id, version: '2' });
    const removed = result<Ruleset>(await kit.api('DELETE', `${rulesPath(z, rs)}/${id}`));
    expect(removed.rules.map((r) => r.id)).toEqual(rs.rules.map((r) => r.id));
    expect(removed.version).toBe('5');
    expect((await kit.api('DELETE', `${rulesPath(z, rs)}/${id}`)).status).toBe(404);
  });

  it('refuses what a PUT would refuse, with the same codes, and saves nothing', async () => {
    const { z, rs } = await seeded();
    const post = (body: unknown) => kit.api('POST', rulesPath(z, rs), body);
    const unknownRuleset = await post(skip('x', { rulesets: ['0'.repeat(32)] }));
    expect([unknownRuleset.status, codes(unknownRuleset)]).toEqual([400, [20201]]);
    const unknownRule = await post(skip('x', { rules: { [Ids.managed]: ['0'.repeat(32)] } }));
    expect([unknownRule.status, codes(unknownRule)]).toEqual([400, [20202]]);
    expect(unknownRule.body.errors[0]!.source).toEqual({ pointer: `/action_parameters/rules/${Ids.managed}/0` });
    const block = await post({ action: 'block', expression: 'true' });
    expect(block.status).toBe(400);
    const dup = await post(skip('managed'));
    expect(dup.status).toBe(400);
    const badPosition = await post({ ...skip('x'), position: { before: '0'.repeat(32) } });
    expect([badPosition.status, codes(badPosition)]).toEqual([400, [20209]]);
    const migration = await kit.api('POST', `${rulesPath(z, rs)}?waf_migration=pending`, skip('x'));
    expect([migration.status, codes(migration)]).toEqual([400, [10017]]);
    expect(result<Ruleset>(await kit.getEntrypoint(z))).toEqual(rs);
  });

  it('applies the plan entitlements and the migration step of a PUT without waf_migration', async () => {
    const free = await seeded('free', 'new');
    const notEntitled = await kit.api('POST', rulesPath(free.z, free.rs), execute(Ids.managed));
    expect(notEntitled.status).toBe(400);
    expect(notEntitled.body.errors[0]!.source).toEqual({ pointer: '/action_parameters/id' });
    const pro = await kit.zone(`managed-rules${++n}.example`, 'pro');
    const rs = result<Ruleset>(await kit.put(pro, { rules: [execute(Ids.managed, {}, false)] }));
    const enabled = await kit.api('POST', rulesPath(pro, rs), skip('x'));
    const asPut = await kit.put(pro, { rules: [execute(Ids.managed, {}, false), skip('x')] });
    expect(enabled.status).toBe(400);
    expect([enabled.status, codes(enabled)]).toEqual([asPut.status, codes(asPut)]);
    expect(result<Ruleset>(await kit.api('POST', rulesPath(pro, rs), skip('x', undefined, { enabled: false }))).rules.map((r) => r.ref)).toEqual([rs.rules[0]!.ref, 'x']);
  });

  it('validates a dry run as the write and saves nothing', async () => {
    const { z, rs } = await seeded();
    const dry = await kit.api('POST', `${rulesPath(z, rs)}?dry_run=true`, { ...skip('office'), position: { index: 1 } });
    expect([dry.status, dry.body.result]).toEqual([200, null]);
    const refused = await kit.api('POST', `${rulesPath(z, rs)}?dry_run=true`, skip('x', { rulesets: ['0'.repeat(32)] }));
    expect([refused.status, codes(refused)]).toEqual([400, [20201]]);
    const dryDelete = await kit.api('DELETE', `${rulesPath(z, rs)}/${rs.rules[1]!.id}?dry_run=true`);
    expect([dryDelete.status, dryDelete.body.result]).toEqual([200, null]);
    expect(result<Ruleset>(await kit.getEntrypoint(z))).toEqual(rs);
  });
});
