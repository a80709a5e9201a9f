/** The conversion of filters + firewall rules into custom rules: order, actions, pause, findings. */
import { describe, expect, it } from 'vitest';
import { convertFirewallRules } from '../../../src/migrate/firewall/index.js';
import type { DesiredFilter, DesiredFirewallAction, DesiredFirewallRule } from '../../../src/manifest/index.js';

const at = { file: 'zone.yaml', line: 1, column: 1 };
const filter = (ref: string, expression: string, extra: Partial<DesiredFilter> = {}): DesiredFilter =>
  ({ ref, expression, description: '', paused: false, inline: false, location: at, ...extra });
const rule = (ref: string, action: DesiredFirewallAction, filterRef: string, priority: number | null, extra: Partial<DesiredFirewallRule> = {}): DesiredFirewallRule =>
  ({ ref, action, filterRef, priority, description: '', paused: false, products: [], location: at, ...extra });

describe('convertFirewallRules', () => {
  it('puts rules in evaluation order: priority, then action precedence, then list order, no priority last', () => {
    const filters = [filter('f', 'http.host eq "a.com"')];
    const { customRules } = convertFirewallRules({
      filters,
      firewallRules: [
        rule('late', 'block', 'f', null),
        rule('b10', 'block', 'f', 10),
        rule('c10', 'challenge', 'f', 10),
        rule('first', 'managed_challenge', 'f', 1),
        rule('log10', 'log', 'f', 10),
        rule('nolog', 'log', 'f', null),
        rule('b10bis', 'block', 'f', 10),
      ],
    });
    expect(customRules.map((r) => r.ref)).toEqual(['first', 'log10', 'c10', 'b10', 'b10bis', 'nolog', 'late']);
  });

  it('maps every action as the service upgrade did', () => {
    const f = [filter('f', 'ip.src eq 192.0.2.1')];
    const actions: DesiredFirewallAction[] = ['log', 'challenge', 'managed_challenge', 'js_challenge', 'block'];
    const { customRules, findings } = convertFirewallRules({
      filters: f,
      firewallRules: [
        ...actions.map((a, i) => rule(a, a, 'f', 10 + i)),
        rule('ok', 'allow', 'f', 1),
        rule('by', 'bypass', 'f', 2, { products: ['waf', 'zoneLockdown'] }),
      ],
    });
    expect(findings).toEqual([expect.objectContaining({ ref: 'firewall_rules.ok', kind: 'note', message: expect.stringContaining('WAF managed rules and the previous WAF still run') })]);
    expect(customRules.map((r) => [r.ref, r.action, r.actionParameters])).toEqual([
      ['ok', 'skip', { ruleset: 'current' }],
      ['by', 'skip', { products: ['zoneLockdown', 'waf'] }],
      ...actions.map((a) => [a, a, undefined]),
    ]);
    expect(customRules[0]!.logging).toEqual({ enabled: true });
  });

  it('inlines a shared filter into each rule, carries description and pause', () => {
    const { customRules } = convertFirewallRules({
      filters: [filter('shared', 'http.request.uri.path eq "/x"', { description: 'from filter' })],
      firewallRules: [rule('a', 'block', 'shared', 1, { paused: true, description: 'mine' }), rule('b', 'challenge', 'shared', 2)],
    });
    expect(customRules).toMatchObject([
      { ref: 'a', expression: 'http.request.uri.path eq "/x"', enabled: false, description: 'mine' },
      { ref: 'b', expression: 'http.request.uri.path eq "/x"', enabled: true, description: 'from filter' },
    ]);
  });

  it('keeps a rule whose filter is paused disabled, and says why', () => {
    const { customRules, findings } = convertFirewallRules({
      filters: [filter('p', 'true', { paused: true })],
      firewallRules: [rule('r', 'block', 'p', 1)],
    });
    expect(customRules[0]!.enabled).toBe(false);
    expect(findings).toEqual([expect.objectContaining({ ref: 'firewall_rules.r', kind: 'note' })]);
  });

  it('names a product without an equivalent as cannot-carry', () => {
    const { customRules, findings } = convertFirewallRules({
      filters: [filter('f', 'true')],
      firewallRules: [rule('r', 'bypass', 'f', 1, { products: ['waf', 'browserIntegrity'] }), rule('s', 'bypass', 'f', 2, { products: ['nope'] })],
    });
    expect(customRules.map((r) => r.ref)).toEqual(['r']);
    expect(findings.filter((x) => x.kind === 'cannot-carry').map((x) => [x.ref, x.message.split(' has')[0]])).toEqual([
      ['firewall_rules.r', 'bypass of product browserIntegrity'],
      ['firewall_rules.s', 'bypass of product nope'],
      ['firewall_rules.s', 'bypass with no product that custom rules can skip: the rule is left out'],
    ]);
  });

  it('does not take the ref of a custom rule the zone already has', () => {
    const { customRules, findings } = convertFirewallRules({
      filters: [filter('f', 'true')], firewallRules: [rule('r', 'block', 'f', 1)], reservedRefs: new Set(['r', 'r-2']),
    });
    expect(customRules[0]!.ref).toBe('r-3');
    expect(findings[0]).toMatchObject({ kind: 'note', ref: 'firewall_rules.r' });
  });
});
