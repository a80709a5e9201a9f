/**
 * Quotas at plan time, counting what the live zone keeps: a plan that would make the service refuse
 * a write (10200 for firewall rules) halfway through the apply is an error before any write.
 */
import { describe, expect, it } from 'vitest';
import { PageRuleLimits } from '../../src/api/index.js';
import { PageRuleQuota } from '../../src/manifest/index.js';
import { diffZone, hasErrors, type LivePageRule, type Plan } from '../../src/plan/index.js';
import { engineFixture } from '../apply/engine-fixture.js';
import { customEntry, dCustom, dFilter, desired, dRule, hex, lCustom, lFilter, live, lRule } from './fixtures.js';

const tierErrors = (p: Plan) => p.findings.filter((f) => f.code === 'tier').map((f) => f.message);

/** `n` live filter+rule pairs; `ref` makes them managed under that prefix. */
function liveRules(n: number, more: { paused?: boolean; ref?: string } = {}) {
  const filters = Array.from({ length: n }, (_, i) => lFilter(`uf${more.ref ?? ''}${i}`, `ip.src eq 198.51.100.${i + 1}${more.ref ? '0' : ''}`, more.ref ? { ref: `${more.ref}f${i}` } : {}));
  return { filters, rules: filters.map((f, i) => lRule(`ur${more.ref ?? ''}${i}`, f, { paused: more.paused ?? false, ...(more.ref ? { ref: `${more.ref}${i}` } : {}) })) };
}

/** A manifest of `n` active filter+rule pairs. */
function wanted(n: number, prefix = 'r') {
  return {
    filters: Array.from({ length: n }, (_, i) => dFilter(`${prefix}f${i}`, `ip.src eq 192.0.2.${i + 1}`)),
    firewallRules: Array.from({ length: n }, (_, i) => dRule(`${prefix}${i}`, `${prefix}f${i}`, { priority: i + 1 })),
  };
}

describe('firewall rule quota with the live zone', () => {
  const free = { id: hex('zone'), name: 'example.com', plan: 'free' as const };

  it('counts unmanaged active rules the plan leaves in place', () => {
    const u = liveRules(3);
    const plan = diffZone(desired(wanted(3)), live({ zone: free, filters: u.filters, firewallRules: u.rules }));
    expect(hasErrors(plan)).toBe(true);
    expect(tierErrors(plan)).toEqual([expect.stringMatching(/^firewall_rules: the free plan allows 5 active firewall rules, and applying this plan needs 6 at once \(counting 3 active rule\(s\) not in the manifest/)]);
  });

  it('does not count paused rules; counts unmanaged rules --prune deletes only after the creates', () => {
    const paused = liveRules(3, { paused: true });
    expect(tierErrors(diffZone(desired(wanted(5)), live({ zone: free, filters: paused.filters, firewallRules: paused.rules })))).toEqual([]);
    // --prune deletes the unmanaged rules in the last phase, after the creates: the peak still counts them.
    const u = liveRules(3);
    expect(tierErrors(diffZone(desired(wanted(3)), live({ zone: free, filters: u.filters, firewallRules: u.rules }), { prune: true }))).toHaveLength(1);
  });

  it('counts managed rules a rename deletes only after creating their successors', () => {
    const m = liveRules(5, { ref: 'old' });
    const want = { filters: m.filters.map((f) => dFilter(f.ref!, f.expression)), firewallRules: m.rules.map((r, i) => dRule(i === 0 ? 'new0' : r.ref!, `oldf${i}`, { priority: 1 })) };
    const plan = diffZone(desired(want), live({ zone: free, filters: m.filters, firewallRules: m.rules }));
    expect(tierErrors(plan)).toEqual([expect.stringContaining('needs 6 at once (counting 0 active rule(s) not in the manifest that the plan leaves in place, and 1 it deletes only after its creates)')]);
  });

  it('counts a rule the plan unpauses', () => {
    const u = liveRules(5);
    const f = lFilter('mine', 'ip.src eq 192.0.2.1', { ref: 'mine' });
    const zone = live({ zone: free, filters: [...u.filters, f], firewallRules: [...u.rules, lRule('mine', f, { ref: 'mine', paused: true })] });
    expect(tierErrors(diffZone(desired({ filters: [dFilter('mine', f.expression)], firewallRules: [dRule('mine', 'mine', { paused: true })] }), zone))).toEqual([]);
    expect(tierErrors(diffZone(desired({ filters: [dFilter('mine', f.expression)], firewallRules: [dRule('mine', 'mine')] }), zone))).toHaveLength(1);
  });

  it('reports a manifest over the quota by itself once (the manifest check)', () => {
    const plan = diffZone(desired({ ...wanted(6), plan: 'free' }), live({ zone: free }));
    expect(tierErrors(plan)).toEqual([expect.stringContaining('this is active rule 6 of 6')]);
  });
});

describe('custom rule and Page Rule quotas with the live zone', () => {
  const free = { id: hex('zone'), name: 'example.com', plan: 'free' as const };

  it('counts custom rules not in the manifest that the phase keeps; --prune deletes them first', () => {
    const kept = [0, 1, 2].map((i) => lCustom(`u${i}`, `ip.src eq 198.51.100.${i + 1}`, { ref: hex(`u${i}`) })).map((r) => ({ ...r, ref: r.id }));
    const want = [0, 1, 2].map((i) => dCustom(`c${i}`, `ip.src eq 192.0.2.${i + 1}`));
    const zone = live({ zone: free, customEntrypoint: customEntry(kept) });
    expect(tierErrors(diffZone(desired({ customRules: want }), zone))).toEqual([
      expect.stringMatching(/^custom_rules: the free plan allows 5 custom rules \(disabled rules count too\), and the phase would hold 6 \(3 of them rules not in the manifest/),
    ]);
    expect(tierErrors(diffZone(desired({ customRules: want }), zone, { prune: true }))).toEqual([]);
  });

  it('counts Page Rules not in the manifest', () => {
    const page = (i: number): LivePageRule => ({ id: hex(`p${i}`), targets: [{ target: 'url', constraint: { operator: 'matches', value: `example.com/u${i}/*` } }],
      actions: [{ id: 'disable_security' }], priority: i + 1, status: 'disabled' });
    const want = [0, 1].map((i) => ({ key: `p${i}`, url: `example.com/m${i}/*`, disableSecurity: true, status: 'active' as const, priority: i + 1, location: { file: 'zone.yaml', line: 1, column: 1 } }));
    const zone = live({ zone: free, pageRules: [page(0), page(1)] });
    expect(tierErrors(diffZone(desired({ pageRules: want }), zone))).toEqual([expect.stringMatching(/^page_rules: the free plan allows 3 Page Rules .* would hold 4 \(2 of them not in the manifest/)]);
    expect(tierErrors(diffZone(desired({ pageRules: want }), zone, { prune: true }))).toEqual([]);
    expect(PageRuleQuota).toEqual(PageRuleLimits.perPlan);
  });
});

describe('the plan agrees with the engine', () => {
  it('a free zone with 3 unmanaged active rules: the plan of 3 more fails, so apply never writes', async () => {
    const fx = await engineFixture('free');
    try {
      const filters = await fx.provider.createFilters(fx.zoneId, [0, 1, 2].map((i) => ({ expression: `ip.src eq 198.51.100.${i + 1}`, paused: false })));
      await fx.provider.createFirewallRules(fx.zoneId, filters.map((f) => ({ action: 'block' as const, priority: null, paused: false, filter: { id: f.id } })));
      const plan = await fx.plan(desired(wanted(3)));
      expect(tierErrors(plan)).toHaveLength(1);
      // Paused, the three do not count: the same manifest plans cleanly and applies.
      const live1 = await fx.provider.readZone(fx.zoneId);
      await fx.provider.updateFirewallRules(fx.zoneId, live1.firewallRules.map((r) => ({ id: r.id, action: r.action, priority: r.priority, paused: true, filter: { id: r.filter.id } })));
      expect(tierErrors(await fx.plan(desired(wanted(3))))).toEqual([]);
    } finally {
      await fx.close();
    }
  });
});
