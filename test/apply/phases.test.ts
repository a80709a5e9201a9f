import { describe, expect, it } from 'vitest';
import { batchesOf, planPhases } from '../../src/apply/index.js';
import { diffZone, type LivePreviousWaf } from '../../src/plan/index.js';
import { dFilter, desired, dManaged, dRule, lFilter, live, lRule } from '../plan/fixtures.js';

describe('phases and batches', () => {
  it('orders writes: filters, rules, previous WAF, entry point, then deletions in reverse', () => {
    const old = lFilter('old', 'ip.src eq 192.0.2.9', { ref: 'old' });
    const keep = lFilter('keep', 'ip.src eq 192.0.2.8', { ref: 'keep' });
    const previousWaf: LivePreviousWaf = { packages: [], groups: [{ id: 'g1', name: 'g', mode: 'on', package_id: 'p1' }], rules: [], overrides: [] };
    const plan = diffZone(desired({
      filters: [dFilter('new', 'ip.src eq 192.0.2.1'), dFilter('keep', 'ip.src eq 192.0.2.7')],
      firewallRules: [dRule('r-new', 'new', { priority: 1 }), dRule('r-keep', 'keep', { priority: 2 })],
      managedRules: [dManaged('managed', 'efb7b8c949ac4650a09736fc376e9aee')],
      previousWaf: { packages: {}, groups: { g1: 'off' }, rules: {}, location: { file: 'z', line: 1, column: 1 } },
    }), live({ filters: [old, keep], firewallRules: [lRule('r-old', old, { ref: 'r-old' }), lRule('r-keep', keep, { ref: 'r-keep', priority: 5 })], previousWaf }));
    const phases = planPhases(plan);
    expect(phases.map((p) => `${p.name} ${p.steps.length}`)).toEqual([
      'filters.update 1', 'filters.create 1', 'firewall_rules.update 1', 'firewall_rules.create 1', 'previous_waf 1', 'entrypoint 1', 'firewall_rules.delete 1', 'filters.delete 1',
    ]);
    const entry = phases.find((p) => p.name === 'entrypoint')!.steps[0]!;
    expect(entry.kind === 'phase' && entry.changes.map((i) => plan.changes[i]!.ref)).toEqual(['managed']);
  });

  it('cuts batched phases by the batch size and PATCH phases into one step each', () => {
    const plan = diffZone(desired({ filters: Array.from({ length: 250 }, (_, i) => dFilter(`f${i}`, `ip.src eq 10.0.${i >> 8}.${i & 255}`)) }), live());
    const [phase] = planPhases(plan);
    expect(batchesOf(phase!, 100).map((b) => b.steps.length)).toEqual([100, 100, 50]);
    expect(batchesOf({ name: 'previous_waf', steps: phase!.steps.slice(0, 3) }, 100).map((b) => b.steps.length)).toEqual([1, 1, 1]);
  });
});
