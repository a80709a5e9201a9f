import { describe, expect, it } from 'vitest';
import { diffZone, estimateCalls, fingerprint, type Change } from '../../src/plan/index.js';
import { dFilter, desired, dRule, lFilter, live, lRule } from './fixtures.js';

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
    const calls = estimateCalls(writes, null);
    expect(calls.requests).toBe(1300);
    // The budget is a sliding window: the 1,201st request waits for the whole window to pass,
    // as the HTTP provider's limiter does (not 100 x 300/1200 = 25 s).
    expect(calls.waitSeconds).toBe(300);
    expect(estimateCalls(writes, null, { budgetRequests: 2000 }).waitSeconds).toBe(0);
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
});
