import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { applyZone, runPlan, type ApplyEvent } from '../../src/apply/index.js';
import { hasChanges } from '../../src/plan/index.js';
import { dFilter, desired, dManaged, dRule } from '../plan/fixtures.js';
import { engineFixture, type EngineFixture } from './engine-fixture.js';

let fx: EngineFixture;
afterEach(async () => { await fx.close(); });

const base = () => desired({
  filters: [dFilter('api', 'http.request.uri.path matches "^/api/"'), dFilter('bots', 'http.user_agent contains "sqlmap"', { inline: true })],
  firewallRules: [dRule('block-api', 'api', { priority: 1 }), dRule('bots', 'bots', { priority: 2, action: 'managed_challenge' })],
  managedRules: [dManaged('managed', 'efb7b8c949ac4650a09736fc376e9aee')],
});

describe('runPlan on the embedded engine', () => {
  beforeEach(async () => { fx = await engineFixture(); });

  it('applies in phase order, batched, and converges: the next plan has no changes', async () => {
    const events: ApplyEvent[] = [];
    const plan = await fx.plan(base());
    const result = await runPlan(plan, fx.provider, { onEvent: (e) => events.push(e) });
    expect(result.ok).toBe(true);
    expect(result.outcomes.every((o) => o.status === 'applied')).toBe(true);
    expect(events.filter((e) => e.type === 'phase-start').map((e) => e.type === 'phase-start' && e.phase))
      .toEqual(['filters.create', 'firewall_rules.create', 'entrypoint']);
    expect(result.requests).toBe(3);
    expect(hasChanges(await fx.plan(base()))).toBe(false);
  });

  it('keeps rule ids across a reorder, a rename and an edit', async () => {
    await runPlan(await fx.plan(base()), fx.provider);
    const ids = new Map((await fx.provider.readZone(fx.zoneId)).firewallRules.map((r) => [r.ref, r.id]));
    const edited = base();
    edited.firewallRules = [
      dRule('bots-renamed', 'bots', { priority: 1, action: 'block', renamedFrom: 'bots' }),
      dRule('block-api', 'api', { priority: 2 }),
    ];
    const plan = await fx.plan(edited);
    expect(plan.summary).toMatchObject({ add: 0, replace: 0, destroy: 0 });
    expect((await runPlan(plan, fx.provider)).ok).toBe(true);
    const after = (await fx.provider.readZone(fx.zoneId)).firewallRules;
    expect(after.find((r) => r.ref === 'bots-renamed')!.id).toBe(ids.get('bots'));
    expect(after.find((r) => r.ref === 'block-api')).toMatchObject({ id: ids.get('block-api'), priority: 2 });
    expect(hasChanges(await fx.plan(edited))).toBe(false);
  });

  it('moves a rule to a new filter and deletes the old one, then converges', async () => {
    await runPlan(await fx.plan(base()), fx.provider);
    const moved = base();
    moved.filters = [dFilter('api-v2', 'http.request.uri.path matches "^/api/v2/"'), moved.filters[1]!];
    moved.firewallRules = [dRule('block-api', 'api-v2', { priority: 1 }), moved.firewallRules[1]!];
    const result = await runPlan(await fx.plan(moved), fx.provider);
    expect(result.ok).toBe(true);
    const zone = await fx.provider.readZone(fx.zoneId);
    expect(zone.filters.map((f) => f.ref).sort()).toEqual(['api-v2', 'bots']);
    expect(hasChanges(await fx.plan(moved))).toBe(false);
  });

  it('replaces a simplified-flow filter without failing, and converges', async () => {
    await fx.provider.createFirewallRules(fx.zoneId, [
      // The simplified flow: the filter inline in the rule (the engine locks it).
      { action: 'block', priority: 1, paused: false, ref: 'bots', filter: { expression: 'http.user_agent contains "sqlmap"' } as never },
    ]);
    const want = desired({
      filters: [dFilter('bots', 'http.user_agent contains "nikto"', { inline: true })],
      firewallRules: [dRule('bots', 'bots', { priority: 1 })],
    });
    const plan = await fx.plan(want);
    expect(plan.changes.map((c) => `${c.action} ${c.kind}`)).toEqual(['replace firewall_rule', 'replace filter']);
    expect((await runPlan(plan, fx.provider)).ok).toBe(true);
    const again = await fx.plan(want);
    expect(hasChanges(again)).toBe(false);
    expect(again.unmanaged).toEqual([]);
    expect(again.findings).toEqual([]);
    expect((await fx.provider.readZone(fx.zoneId)).filters.map((f) => f.expression)).toEqual(['http.user_agent contains "nikto"']);
    const described = desired({ ...want, filters: [dFilter('bots', 'http.user_agent contains "nikto"', { inline: true, description: 'scanners' })] });
    expect((await runPlan(await fx.plan(described), fx.provider)).ok).toBe(true);
    expect(hasChanges(await fx.plan(described))).toBe(false);
  });
});

describe('rules with simplified-flow filters', () => {
  beforeEach(async () => { fx = await engineFixture('enterprise'); });

  async function inlineRule(ref: string, expression: string): Promise<void> {
    // The simplified flow: the filter inline in the rule (the engine locks it).
    await fx.provider.createFirewallRules(fx.zoneId, [{ action: 'block', priority: null, paused: false, ref, filter: { expression } as never }]);
  }

  it('deletes a dropped rule with its inline filter (delete_filter_if_unused) and converges to an empty plan', async () => {
    await inlineRule('bots', 'http.user_agent contains "sqlmap"');
    await inlineRule('keep', 'http.user_agent contains "nikto"');
    const want = desired({
      filters: [dFilter('keep', 'http.user_agent contains "nikto"', { inline: true })],
      firewallRules: [dRule('keep', 'keep')],
    });
    const plan = await fx.plan(want);
    const drop = plan.changes.find((c) => c.kind === 'firewall_rule' && c.action === 'delete');
    expect(drop?.writes).toEqual([expect.objectContaining({ op: 'firewall_rule.delete', deleteFilterIfUnused: true })]);
    expect((await runPlan(plan, fx.provider)).ok).toBe(true);
    const again = await fx.plan(want);
    expect(hasChanges(again)).toBe(false);
    expect(again.findings).toEqual([]);
    expect(again.unmanaged).toEqual([]);
    expect((await fx.provider.readZone(fx.zoneId)).filters.map((f) => f.expression)).toEqual(['http.user_agent contains "nikto"']);
  });

  it('moves a rule from its inline filter to a shared one without leaving the inline filter behind', async () => {
    await inlineRule('bots', 'http.user_agent contains "sqlmap"');
    const want = desired({ filters: [dFilter('scanners', 'http.user_agent contains "nikto"')], firewallRules: [dRule('bots', 'scanners')] });
    expect((await runPlan(await fx.plan(want), fx.provider)).ok).toBe(true);
    const again = await fx.plan(want);
    expect(hasChanges(again)).toBe(false);
    expect(again.findings).toEqual([]);
    expect((await fx.provider.readZone(fx.zoneId)).filters.map((f) => f.ref)).toEqual(['scanners']);
  });
});

describe('partial failure', () => {
  beforeEach(async () => { fx = await engineFixture('free'); });

  it('stops at the quota refusal, reports what was applied, and the next apply finishes', async () => {
    // A free zone allows 5 active rules. The plan fits the zone it read; then 4 rules appear outside
    // the manifest (someone else's write between plan and apply), and the service refuses the rules.
    const want = desired({
      filters: [dFilter('a', 'ip.src eq 198.51.100.1'), dFilter('b', 'ip.src eq 198.51.100.2')],
      firewallRules: [dRule('a', 'a', { priority: 5 }), dRule('b', 'b', { priority: 6 })],
    });
    const planned = await fx.plan(want);
    expect(planned.findings).toEqual([]);
    const filters = await fx.provider.createFilters(fx.zoneId, [0, 1, 2, 3].map((i) => ({ expression: `ip.src eq 192.0.2.${i + 1}`, paused: false })));
    const unmanaged = await fx.provider.createFirewallRules(fx.zoneId, filters.map((f, i) => ({ action: 'block' as const, priority: i + 1, paused: false, filter: { id: f.id } })));
    // The plan made now knows better: it fails before any write.
    expect((await fx.plan(want)).findings.map((f) => f.code)).toEqual(['tier']);
    const result = await applyZone(planned, fx.provider, { stateDir: fx.dir });
    expect(result.ok).toBe(false);
    expect(result.error).toMatchObject({ phase: 'firewall_rules.create', code: 'ERR_API', outcome: 'not-applied' });
    expect(result.outcomes.map((o) => `${o.kind} ${o.ref} ${o.status}`)).toEqual([
      'filter a applied', 'filter b applied', 'firewall_rule a failed', 'firewall_rule b failed',
    ]);
    const next = await fx.plan(want);
    expect(next.changes.filter((c) => c.action !== 'no-op').map((c) => `${c.action} ${c.kind} ${c.ref}`))
      .toEqual(['create firewall_rule a', 'create firewall_rule b']);
    // Resolve the quota (remove the unmanaged rules), and only the remainder is applied.
    await fx.provider.deleteFirewallRules(fx.zoneId, unmanaged.map((r) => r.id));
    const finish = await applyZone(await fx.plan(want), fx.provider, { stateDir: fx.dir });
    expect(finish.ok).toBe(true);
    expect(finish.outcomes.map((o) => `${o.action} ${o.kind} ${o.ref}`)).toEqual(['create firewall_rule a', 'create firewall_rule b']);
    expect(hasChanges(await fx.plan(want))).toBe(false);
  });
});

describe('the seed\'s quota case through the simplified flow', () => {
  beforeEach(async () => { fx = await engineFixture('free'); });

  it('adopts the filter created without its rule: the next apply creates only the rule on it', async () => {
    const filters = await fx.provider.createFilters(fx.zoneId, [1, 2, 3, 4, 5].map((i) => ({ expression: `ip.src eq 192.0.2.${i}`, paused: false })));
    const others = await fx.provider.createFirewallRules(fx.zoneId, filters.map((f, i) => ({ action: 'block' as const, priority: i + 1, paused: false, filter: { id: f.id } })));
    // The simplified flow at the quota: the service creates the filter (locked) but not the rule.
    await expect(fx.provider.createFirewallRules(fx.zoneId, [
      { action: 'block', priority: 9, paused: false, ref: 'scanners', filter: { expression: 'http.user_agent contains "sqlmap"' } as never },
    ])).rejects.toThrow();
    const orphan = (await fx.provider.readZone(fx.zoneId)).filters.find((f) => f.locked === true)!;
    expect(orphan.expression).toBe('http.user_agent contains "sqlmap"');
    await fx.provider.deleteFirewallRules(fx.zoneId, [others[0]!.id]);
    const want = desired({
      filters: [dFilter('scanners', 'http.user_agent contains "sqlmap"', { inline: true })],
      firewallRules: [dRule('scanners', 'scanners', { priority: 9 })],
    });
    const plan = await fx.plan(want);
    expect(plan.findings).toEqual([]);
    expect(plan.changes.filter((c) => c.action !== 'no-op').map((c) => `${c.action} ${c.kind} ${c.ref}`)).toEqual(['create firewall_rule scanners']);
    expect(plan.changes.find((c) => c.kind === 'firewall_rule')!.writes[0]).toMatchObject({ body: { filter: { id: orphan.id } } });
    expect((await applyZone(plan, fx.provider, { stateDir: fx.dir })).ok).toBe(true);
    expect(hasChanges(await fx.plan(want))).toBe(false);
  });
});
