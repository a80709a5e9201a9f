import { describe, expect, it } from 'vitest';
import { assertApplicable, diffZone, UnsafePlanError, type LivePageRule } from '../../src/plan/index.js';
import { dFilter, desired, dRule, hex, lFilter, live, lRule } from './fixtures.js';

/** A zone with `n` managed filter+rule pairs, and a manifest that keeps the first `keep`. */
function zoneWith(n: number, keep: number) {
  const filters = Array.from({ length: n }, (_, i) => lFilter(`f${i}`, `ip.src eq 192.0.2.${i + 1}`, { ref: `f${i}` }));
  const rules = filters.map((f, i) => lRule(`r${i}`, f, { ref: `r${i}`, priority: i + 1 }));
  const want = desired({
    filters: filters.slice(0, keep).map((f, i) => dFilter(`f${i}`, f.expression)),
    firewallRules: filters.slice(0, keep).map((_, i) => dRule(`r${i}`, `f${i}`, { priority: i + 1 })),
  });
  return { want, zone: live({ filters, firewallRules: rules }) };
}

describe('safety', () => {
  it.each([
    // [pairs, kept, deleteThreshold, refused]: 2 objects per pair are counted
    [5, 3, 30, true], // 10 objects (the minimum), 4 deleted = 40%
    [10, 7, 30, false], // 20 objects, 6 deleted = 30%: not more than 30%
    [10, 6, 30, true], // 8 of 20 = 40%
    [10, 6, 50, false],
    [4, 0, 30, false], // 8 managed objects: under the minimum of 10
  ])('deleting from %i pairs keeping %i at %i%% -> refused %s', (n, keep, threshold, refused) => {
    const { want, zone } = zoneWith(n, keep);
    const plan = diffZone(want, zone, { deleteThreshold: threshold });
    expect(plan.findings.some((f) => f.code === 'deletes-too-many')).toBe(refused);
  });

  it('names the deletions and the way out', () => {
    const { want, zone } = zoneWith(10, 2);
    const plan = diffZone(want, zone);
    const f = plan.findings.find((x) => x.code === 'deletes-too-many')!;
    expect(f.level).toBe('danger');
    expect(f.message).toMatch(/deletes 16 of 20 managed objects \(80%/);
    expect(f.message).toContain('--force');
    expect(f.message).toContain('firewall_rule "r2"');
  });

  it.each([
    ['block', 'log', true], ['managed_challenge', 'allow', true], ['challenge', 'bypass', true],
    ['log', 'block', false], ['block', 'challenge', false], ['allow', 'log', false],
  ] as const)('action %s -> %s is a weakening: %s', (from, to, weak) => {
    const f = lFilter('f', 'ip.src eq 192.0.2.1', { ref: 'f' });
    const plan = diffZone(desired({ filters: [dFilter('f', f.expression)], firewallRules: [dRule('r', 'f', { action: to, products: to === 'bypass' ? ['waf'] : [] })] }),
      live({ filters: [f], firewallRules: [lRule('r', f, { ref: 'r', action: from })] }));
    expect(plan.findings.some((x) => x.code === 'weakens-action' && x.ref === 'r')).toBe(weak);
  });

  it('flags pausing a blocking rule or a filter', () => {
    const f = lFilter('f', 'ip.src eq 192.0.2.1', { ref: 'f' });
    const plan = diffZone(desired({ filters: [dFilter('f', f.expression, { paused: true })], firewallRules: [dRule('r', 'f', { paused: true })] }),
      live({ filters: [f], firewallRules: [lRule('r', f, { ref: 'r' }), lRule('u', f)] }));
    expect(plan.findings.map((x) => `${x.code} ${x.kind}`)).toEqual(['pauses-blocking-rule firewall_rule', 'pauses-blocking-rule filter']);
    expect(plan.findings[1]!.message).toContain(hex('u'));
  });

  it.each([
    ['no rule uses', [], []],
    ['only a paused rule uses', [dRule('r', 'f', { paused: true })], []],
    ['only an allow rule uses', [dRule('r', 'f', { action: 'allow' })], []],
    ['a block rule uses', [dRule('r', 'f')], ['pauses-blocking-rule']],
  ])('pausing a filter that %s', (_what, rules, codes) => {
    const f = lFilter('f', 'ip.src eq 192.0.2.1', { ref: 'f' });
    const liveRules = rules.map((r) => lRule(r.ref, f, { ref: r.ref, action: r.action, paused: r.paused }));
    const plan = diffZone(desired({ filters: [dFilter('f', f.expression, { paused: true })], firewallRules: rules }), live({ filters: [f], firewallRules: liveRules }));
    expect(plan.findings.filter((x) => x.level === 'danger').map((x) => x.code)).toEqual(codes);
  });

  it.each([
    ['bypass gains waf', { action: 'bypass' as const, products: ['zoneLockdown' as const] }, { action: 'bypass' as const, products: ['zoneLockdown' as const, 'waf' as const] }, true],
    ['bypass loses a product', { action: 'bypass' as const, products: ['zoneLockdown' as const, 'waf' as const] }, { action: 'bypass' as const, products: ['waf' as const] }, false],
    ['allow unpaused', { action: 'allow' as const, paused: true }, { action: 'allow' as const }, true],
    ['bypass unpaused', { action: 'bypass' as const, paused: true, products: ['waf' as const] }, { action: 'bypass' as const, products: ['waf' as const] }, true],
    ['log unpaused', { action: 'log' as const, paused: true }, { action: 'log' as const }, false],
    ['log -> allow', { action: 'log' as const }, { action: 'allow' as const }, true],
    ['log -> bypass', { action: 'log' as const }, { action: 'bypass' as const, products: ['waf' as const] }, true],
    ['bypass -> allow', { action: 'bypass' as const, products: ['waf' as const] }, { action: 'allow' as const }, true],
    ['allow -> bypass', { action: 'allow' as const }, { action: 'bypass' as const, products: ['waf' as const] }, false],
  ])('a firewall rule change (%s) is flagged as letting more through when it does', (_what, before, after, flagged) => {
    const f = lFilter('f', 'ip.src eq 192.0.2.1', { ref: 'f' });
    const plan = diffZone(desired({ filters: [dFilter('f', f.expression)], firewallRules: [dRule('r', 'f', { ...after })] }),
      live({ filters: [f], firewallRules: [lRule('r', f, { ref: 'r', ...before })] }));
    expect(plan.findings.some((x) => x.code === 'widens-exception' && x.ref === 'r')).toBe(flagged);
  });

  it.each([
    ['turns disable_security on', { disable_security: false }, { disableSecurity: true }, true],
    ['turns the WAF off', { waf: 'on' as const }, { waf: 'off' as const }, true],
    ['is made active while it switches the WAF off', { waf: 'off' as const, status: 'disabled' as const }, { waf: 'off' as const }, true],
    ['turns the WAF back on', { waf: 'off' as const }, { waf: 'on' as const }, false],
    ['is disabled', { disable_security: true }, { disableSecurity: true, status: 'disabled' as const }, false],
  ])('a Page Rule that %s is flagged as letting more through when it does', (_what, before, after, flagged) => {
    const b: { disable_security?: boolean; waf?: 'on' | 'off'; status?: 'active' | 'disabled' } = before;
    const lp: LivePageRule = { id: hex('p'), targets: [{ target: 'url', constraint: { operator: 'matches', value: 'example.com/a/*' } }],
      actions: [...(b.disable_security === true ? [{ id: 'disable_security' as const }] : []), ...(b.waf !== undefined ? [{ id: 'waf' as const, value: b.waf }] : [])],
      priority: 1, status: b.status ?? 'active' };
    const want = { key: 'a', url: 'example.com/a/*', disableSecurity: false, priority: 1, status: 'active' as const, location: { file: 'zone.yaml', line: 1, column: 1 }, ...after };
    const plan = diffZone(desired({ pageRules: [want] }), live({ pageRules: [lp] }));
    expect(plan.findings.some((x) => x.code === 'widens-exception' && x.kind === 'page_rule')).toBe(flagged);
  });

  it('apply refuses danger without --force, and error findings even with it', () => {
    const f = lFilter('f', 'ip.src eq 192.0.2.1', { ref: 'f' });
    const danger = diffZone(desired({ filters: [dFilter('f', f.expression)], firewallRules: [dRule('r', 'f', { action: 'log' })] }),
      live({ filters: [f], firewallRules: [lRule('r', f, { ref: 'r' })] }));
    expect(() => assertApplicable(danger, { force: false })).toThrow(UnsafePlanError);
    expect(() => assertApplicable(danger, { force: false })).toThrow(/weakens-action/);
    expect(() => assertApplicable(danger, { force: true })).not.toThrow();
    const broken = diffZone(desired({ filters: [dFilter('g', f.expression)] }), live({ filters: [lFilter('u', f.expression)] }));
    expect(() => assertApplicable(broken, { force: true })).toThrow(/cannot be applied/);
    try { assertApplicable(broken, { force: true }); } catch (e) { expect((e as UnsafePlanError).code).toBe('ERR_UNSAFE_PLAN'); }
  });
});
