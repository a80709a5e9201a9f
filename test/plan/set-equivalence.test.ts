/**
 * Set literals compare as sets wherever the plan compares expressions: a reordered or repeated IP,
 * integer or string set is no change (filters, custom rules, managed rulesets), matches a live
 * filter for adoption, and counts as a duplicate; the plan still shows the expression as written.
 */
import { describe, expect, it } from 'vitest';
import { diffZone, type Plan } from '../../src/plan/index.js';
import { customEntry, dCustom, dFilter, desired, dManaged, dRule, hex, lCustom, lFilter, live, lManaged, lRule } from './fixtures.js';

const active = (p: Plan) => p.changes.filter((c) => c.action !== 'no-op').map((c) => `${c.action} ${c.kind} ${c.ref} ${c.changed.join(',')}`);
const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';

const pairs = [
  ['ip.src in {10.0.0.1 10.0.0.2}', 'ip.src in {10.0.0.2 10.0.0.1}'],
  ['ip.src in {10.0.0.1 10.0.0.2}', 'ip.src in {10.0.0.2 10.0.0.1 10.0.0.1}'],
  ['ip.src in {10.0.0.0/31}', 'ip.src in {10.0.0.0 10.0.0.1}'],
  ['cf.edge.server_port in {80 443}', 'cf.edge.server_port in {443 80}'],
  ['http.host in {"a.example" "b.example"}', 'http.host in {"b.example" "a.example" "b.example"}'],
];

describe('set literals compare as sets', () => {
  it.each(pairs)('a filter %s in the manifest, %s in the zone: no change', (want, zone) => {
    const f = lFilter('f', zone, { ref: 'f' });
    const plan = diffZone(desired({ filters: [dFilter('f', want)], firewallRules: [dRule('r', 'f')] }), live({ filters: [f], firewallRules: [lRule('r', f, { ref: 'r' })] }));
    expect(active(plan)).toEqual([]);
  });

  it.each(pairs)('a custom rule %s in the manifest, %s in the zone: no change', (want, zone) => {
    const plan = diffZone(desired({ customRules: [dCustom('c', want)] }), live({ customEntrypoint: customEntry([lCustom('c', zone)]) }));
    expect(active(plan)).toEqual([]);
  });

  it.each(pairs)('a managed ruleset scoped by %s in the manifest, %s in the zone: no change', (want, zone) => {
    const entrypoint = { id: hex('ep'), name: 'default', kind: 'zone' as const, phase: 'http_request_firewall_managed' as const, version: '3',
      rules: [lManaged('m', MANAGED, { ref: 'managed', expression: zone })] };
    const plan = diffZone(desired({ managedRules: [dManaged('managed', MANAGED, { expression: dFilter('x', want).expression })] }), live({ entrypoint }));
    expect(active(plan)).toEqual([]);
  });

  it('a real change still shows, with the expression as the manifest writes it', () => {
    const f = lFilter('f', 'ip.src in {10.0.0.2 10.0.0.1}', { ref: 'f' });
    const plan = diffZone(desired({ filters: [dFilter('f', 'ip.src in {10.0.0.3 10.0.0.1}')] }), live({ filters: [f] }));
    const change = plan.changes.find((c) => c.kind === 'filter')!;
    expect(change.changed).toEqual(['expression']);
    expect(change.after!.expression).toBe('ip.src in {10.0.0.3 10.0.0.1}');
    expect(change.before!.expression).toBe('ip.src in {10.0.0.2 10.0.0.1}');
    // Another attribute changes, the set does not: the live expression is shown as the manifest's.
    const described = diffZone(desired({ filters: [dFilter('f', 'ip.src in {10.0.0.1 10.0.0.2}', { description: 'office' })] }), live({ filters: [f] }));
    const d = described.changes.find((c) => c.kind === 'filter')!;
    expect(d.changed).toEqual(['description']);
    expect(d.before!.expression).toBe(d.after!.expression);
    expect((d.writes[0] as { body: { expression: string } }).body.expression).toBe('ip.src in {10.0.0.1 10.0.0.2}');
  });

  it('--prune adopts an unmanaged filter whose set is written in another order', () => {
    const u = lFilter('u', 'ip.src in {10.0.0.2 10.0.0.1}');
    const plan = diffZone(desired({ filters: [dFilter('f', 'ip.src in {10.0.0.1 10.0.0.2}')] }), live({ filters: [u] }), { prune: true });
    expect(plan.changes.filter((c) => c.kind === 'filter').map((c) => `${c.action} ${c.reason} ${c.id}`)).toEqual([`update adopted ${hex('u')}`]);
  });

  it('finds duplicates by meaning: in the manifest, and against the zone', () => {
    const twice = diffZone(desired({ filters: [dFilter('a', 'ip.src in {10.0.0.1 10.0.0.2}'), dFilter('b', 'ip.src in {10.0.0.2 10.0.0.1}')] }), live());
    expect(twice.findings.map((f) => f.code)).toContain('duplicate-desired-expression');
    const held = diffZone(desired({ filters: [dFilter('a', 'ip.src in {10.0.0.1 10.0.0.2}')] }), live({ filters: [lFilter('u', 'ip.src in {10.0.0.2 10.0.0.1}')] }));
    expect(held.findings.map((f) => f.code)).toEqual(['duplicate-expression']);
  });
});
