import { describe, expect, it } from 'vitest';
import { diffZone, estimateCalls, fingerprint, type Change } from '../../src/plan/index.js';
import { customEntry, dFilter, desired, dRule, hex, lFilter, live, lRule, lSkip } from './fixtures.js';

describe('call estimate', () => {
  it('batches writes: ceil(n / 100) per kind and phase, never one per object', () => {
    const n = 250;
    const plan = diffZone(desired({
      filters: Array.from({ length: n }, (_, i) => dFilter(`f${i}`, `ip.src eq 10.0.${Math.floor(i / 250)}.${i % 250}`)),
      firewallRules: Array.from({ length: n }, (_, i) => dRule(`r${i}`, `f${i}`, { priority: i + 1 })),
    }), live());
    expect(plan.calls.phases).toEqual([
      { phase: 'filters.create', objects: 250, requests: 3 },
      { phase: 'firewall_rules.create', objects: 250, requests: 3 },
    ]);
    expect(plan.calls.requests).toBe(6);
    expect(plan.calls.waitSeconds).toBe(0);
  });

  it('says how long the rate budget makes an apply wait', () => {
    const writes = Array.from({ length: 1300 }, (_, i): Change => ({
      kind: 'waf_rule', action: 'update', reason: 'changed', ref: `${i}`, id: `${i}`, before: { mode: 'on' }, after: { mode: 'off' }, changed: ['mode'],
      writes: [{ op: 'waf_rule.patch', packageId: 'p', ruleId: `${i}`, mode: 'off' }],
    }));
    const calls = estimateCalls(writes, []);
    expect(calls.requests).toBe(1300);
    // The budget is a sliding window: the 1,201st request waits for the whole window to pass,
    // as the HTTP provider's limiter does (not 100 x 300/1200 = 25 s).
    expect(calls.waitSeconds).toBe(300);
    expect(estimateCalls(writes, [], { budgetRequests: 2000 }).waitSeconds).toBe(0);
  });
});

describe('fingerprint', () => {
  const f = lFilter('f', 'ip.src eq 192.0.2.1', { ref: 'f' });
  const g = lFilter('g', 'ip.src eq 192.0.2.2', { ref: 'g' });
  const base = live({ filters: [f, g], firewallRules: [lRule('r', f, { ref: 'r', modified_on: '2024-01-01T00:00:00Z' })] });

  it('does not depend on the order objects are listed in', () => {
    expect(fingerprint(live({ ...base, filters: [g, f] }))).toBe(fingerprint(base));
    expect(fingerprint(base)).toMatch(/^sha256:[0-9a-f]{64}$/);
  });

  it.each([
    ['an expression', { filters: [{ ...f, expression: 'ip.src eq 192.0.2.9' }, g] }],
    ['a paused flag', { filters: [f, { ...g, paused: true }] }],
    ['a rule modified on the dashboard', { firewallRules: [lRule('r', f, { ref: 'r', modified_on: '2024-01-02T00:00:00Z' })] }],
    ['a new unmanaged filter', { filters: [f, g, lFilter('h', 'ip.src eq 192.0.2.3')] }],
    ['the migration state', { migration: { migration_state: 'x', old_waf_status: 'enabled' as const, new_waf_status: 'enabled' as const, waf_state: 'both' as const } }],
  ])('changes with %s', (_what, patch) => {
    expect(fingerprint(live({ ...base, ...patch }))).not.toBe(fingerprint(base));
  });

  // Everything else the plan reads from the zone: each one changes what a plan finds or writes.
  const status = base.migration!;
  const waf = {
    packages: [{ id: hex('pkg'), name: 'OWASP', detection_mode: 'anomaly' as const, sensitivity: 'high' as const, action_mode: 'challenge' as const }],
    groups: [{ id: hex('grp'), name: 'g', mode: 'on' as const, package_id: hex('pkg'), allowed_modes: ['on' as const, 'off' as const] }],
    rules: [{ id: hex('wr'), group: { id: hex('grp'), name: 'g' }, package_id: hex('pkg'), mode: 'on', allowed_modes: ['on', 'off'], default_mode: 'on' }],
    overrides: [{ id: hex('ov'), urls: ['example.com/a'], paused: false }],
  };
  const withWaf = live({ ...base, previousWaf: waf, migrationConfig: { rules: [] },
    entrypoint: { id: hex('ep'), name: 'default', kind: 'zone', phase: 'http_request_firewall_managed', version: '1', rules: [] },
    customEntrypoint: customEntry([]) });
  it.each([
    ["the previous WAF's on/off switch", { migration: { ...status, old_waf_status: 'disabled' as const } }],
    ['the new WAF status', { migration: { ...status, new_waf_status: 'enabled' as const } }],
    ['the migration state name', { migration: { ...status, migration_state: 'validation' } }],
    ['the plan tier', { zone: { ...base.zone, plan: 'free' as const } }],
    ['whether simplified-flow filters are reported', { filterLocks: 'unknown' as const }],
    ['the proposed migration configuration', { migrationConfig: { rules: [lSkip('s', 'ip.src eq 192.0.2.9')] } }],
    ['a package detection mode', { previousWaf: { ...waf, packages: [{ ...waf.packages[0]!, detection_mode: 'traditional' as const }] } }],
    ['a rule\'s allowed modes', { previousWaf: { ...waf, rules: [{ ...waf.rules[0]!, allowed_modes: ['on'] }] } }],
    ['a rule\'s default mode', { previousWaf: { ...waf, rules: [{ ...waf.rules[0]!, default_mode: 'off' }] } }],
    ['a URI override\'s URLs', { previousWaf: { ...waf, overrides: [{ ...waf.overrides[0]!, urls: ['example.com/b'] }] } }],
    ['the managed entry point description', { entrypoint: { ...withWaf.entrypoint!, description: 'edited' } }],
    ['the custom entry point description', { customEntrypoint: { ...withWaf.customEntrypoint!, description: 'edited' } }],
  ])('changes with %s', (_what, patch) => {
    expect(fingerprint(live({ ...withWaf, ...patch }))).not.toBe(fingerprint(withWaf));
  });
});
