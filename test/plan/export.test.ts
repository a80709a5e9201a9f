import { adoptionParts } from './fixtures.js';
import { describe, it, expect } from 'vitest';
import { exportManifest, renderManifestYaml, slugify, isValidKey } from '../../src/plan/export.js';
import type { ExportResult } from '../../src/plan/export.js';
import { diffZone } from '../../src/plan/index.js';
import type { LiveFilter, LiveFirewallRule, LiveZone } from '../../src/plan/index.js';
import { validateManifestText } from '../../src/manifest/index.js';
import { entrypointOf } from './fixtures.js';

const hex = (n: number) => n.toString(16).padStart(32, '0');
const filter = (n: number, expression: string, extra: Partial<LiveFilter> = {}): LiveFilter => ({ id: hex(n), expression, paused: false, ...extra });
const rule = (n: number, f: LiveFilter, extra: Partial<LiveFirewallRule> = {}): LiveFirewallRule => ({
  id: hex(1000 + n), action: 'block', priority: null, paused: false, filter: f, ...extra,
});
const zoneOf = (filters: LiveFilter[], rules: LiveFirewallRule[], extra: Partial<LiveZone> = {}): LiveZone => ({
  zone: { id: hex(99), name: 'example.com', plan: 'enterprise' },
  filters, firewallRules: rules, entrypoint: null, previousWaf: null, migration: null, ...extra,
});

/** The zone after the adoption writes: each adopted object carries its key as ref. */
function adopt(live: LiveZone, result: ExportResult): LiveZone {
  const filterRefs = new Map(adoptionParts(result.adoption).filters.map((f) => [f.id, f.ref]));
  const ruleRefs = new Map(adoptionParts(result.adoption).firewallRules.map((r) => [r.id, r.ref]));
  const filters = live.filters.map((f) => (filterRefs.has(f.id) ? { ...f, ref: filterRefs.get(f.id) } : f));
  const byId = new Map(filters.map((f) => [f.id, f]));
  const rules = live.firewallRules.map((r) => ({
    ...r,
    ref: ruleRefs.get(r.id) ?? r.ref,
    filter: 'deleted' in r.filter ? r.filter : byId.get(r.filter.id) ?? r.filter,
  }));
  const entrypoint = adoptionParts(result.adoption).entrypoint === null || live.entrypoint === null ? live.entrypoint
    : { ...live.entrypoint, rules: adoptionParts(result.adoption).entrypoint!.rules.map((r, i) => ({ ...live.entrypoint!.rules[i], ref: r.ref })) };
  return { ...live, filters, firewallRules: rules, entrypoint };
}

/** Export, render, load with the manifest loader, adopt, plan: the plan must change nothing. */
function roundTrip(live: LiveZone): { result: ExportResult; text: string } {
  const result = exportManifest(live);
  const text = renderManifestYaml(result.document, { schema: '../schemas/zone-manifest.schema.json' });
  const loaded = validateManifestText(text, 'zone.yaml');
  expect(loaded.issues).toEqual([]);
  const plan = diffZone(loaded.zone!, adopt(live, result));
  expect(plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
  expect(plan.unmanaged).toEqual([]);
  return { result, text };
}

describe('exportManifest: keys', () => {
  it('keeps valid refs, slugs descriptions, falls back to the id, and makes keys unique', () => {
    const f1 = filter(1, 'ip.src eq 192.0.2.1', { ref: 'office' });
    const f2 = filter(2, 'http.request.uri.path eq "/a"', { description: 'Admin pages!' });
    const f3 = filter(3, 'http.request.uri.path eq "/b"');
    const rules = [
      rule(1, f1, { priority: 1, ref: 'allow-office', action: 'allow' }),
      rule(2, f1, { priority: 2, description: 'Admin pages!' }),
      rule(3, f2, { priority: 3, description: 'Admin pages!' }),
      rule(4, f3, { priority: 4 }),
    ];
    const { result } = roundTrip(zoneOf([f1, f2, f3], rules));
    const keys = result.adopted.map((o) => `${o.kind}:${o.key}:${o.from}`);
    expect(keys).toContain('filter:office:ref');
    expect(keys).toContain('firewall_rule:allow-office:ref');
    expect(keys).toContain('firewall_rule:admin-pages:description');
    expect(keys).toContain('firewall_rule:admin-pages-2:description');
    expect(keys).toContain(`firewall_rule:rule-${hex(1004).slice(0, 8)}:id`);
    expect(result.document.filters).toEqual({ office: { expression: 'ip.src eq 192.0.2.1' } });
    // f2 and f3 are used by one rule each and have no ref: inline under their rules.
    expect(result.document.firewall_rules!['admin-pages-2'].filter).toEqual({ expression: 'http.request.uri.path eq "/a"', description: 'Admin pages!' });
    expect(adoptionParts(result.adoption).firewallRules.map((r) => r.ref)).toEqual(['admin-pages', 'admin-pages-2', `rule-${hex(1004).slice(0, 8)}`]);
  });

  it('gives a second object with the same ref a fresh key (the planner would delete it as a duplicate)', () => {
    const f1 = filter(1, 'ip.src eq 192.0.2.1');
    const f2 = filter(2, 'ip.src eq 192.0.2.2');
    const { result } = roundTrip(zoneOf([f1, f2], [rule(1, f1, { priority: 1, ref: 'same' }), rule(2, f2, { priority: 2, ref: 'same' })]));
    expect(Object.keys(result.document.firewall_rules!)).toEqual(['same', `rule-${hex(1002).slice(0, 8)}`]);
  });

  it('slugs to lowercase [a-z0-9-] within 50 characters', () => {
    expect(slugify('  Block   SQLmap — scanners (v2) ')).toBe('block-sqlmap-scanners-v2');
    expect(slugify('Ünïcödé')).toBe('unicode');
    expect(slugify('x'.repeat(80))).toHaveLength(50);
    expect(slugify('***')).toBe('');
    expect(isValidKey('a'.repeat(51))).toBe(false);
    expect(isValidKey('-a')).toBe(false);
  });
});

describe('exportManifest: firewall round trips to an empty plan', () => {
  it('handles shared filters, unused filters and refs already set', () => {
    const shared = filter(1, 'ip.src in {192.0.2.0/24}', { ref: 'partners', description: 'Partner ranges' });
    const unused = filter(2, 'http.host eq "old.example.com"', { paused: true });
    const own = filter(3, 'http.user_agent contains "sqlmap"', { ref: 'block-sqlmap' });
    const rules = [
      rule(1, shared, { priority: 1, ref: 'allow-partners', action: 'allow' }),
      rule(2, shared, { priority: 2, ref: 'log-partners', action: 'log' }),
      rule(3, own, { priority: 3, ref: 'block-sqlmap', paused: true, description: 'No sqlmap' }),
    ];
    const { result, text } = roundTrip(zoneOf([shared, unused, own], rules));
    expect(Object.keys(result.document.filters!)).toEqual(['partners', `filter-${hex(2).slice(0, 8)}`]);
    expect(result.document.firewall_rules!['block-sqlmap'].filter).toEqual({ expression: 'http.user_agent contains "sqlmap"' });
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=../schemas/zone-manifest.schema.json');
    expect(adoptionParts(result.adoption).firewallRules).toEqual([]);
  });

  it('writes priorities only where key order does not give them', () => {
    const fs = [1, 2, 3, 4, 5, 6].map((n) => filter(n, `ip.src eq 192.0.2.${n}`));
    const rules = [
      rule(1, fs[0], { priority: 1, ref: 'a' }),
      rule(2, fs[1], { priority: 2, ref: 'b' }),
      rule(3, fs[2], { priority: 10, ref: 'c' }),
      rule(4, fs[3], { priority: 10, ref: 'd', action: 'challenge' }),
      rule(5, fs[4], { priority: null, ref: 'e' }),
      rule(6, fs[5], { priority: 11, ref: 'f' }),
    ];
    const { result } = roundTrip(zoneOf(fs, rules));
    const written = Object.fromEntries(Object.entries(result.document.firewall_rules!).map(([k, r]) => [k, r.priority]));
    // c and d share 10 (challenge runs first); f follows d's 10 but 11 is written since c..d are explicit.
    expect(Object.keys(written)).toEqual(['a', 'b', 'd', 'c', 'f', 'e']);
    expect(written).toEqual({ a: undefined, b: undefined, d: 10, c: 10, f: undefined, e: null });
  });

  it('adopts simplified-flow filters through their rule (inline, ref never written)', () => {
    const locked = filter(1, 'ip.src eq 198.51.100.7', { locked: true });
    const { result } = roundTrip(zoneOf([locked], [rule(1, locked, { priority: 1 })]));
    const key = `rule-${hex(1001).slice(0, 8)}`;
    expect(result.document.firewall_rules![key].filter).toEqual({ expression: 'ip.src eq 198.51.100.7' });
    expect(adoptionParts(result.adoption).filters).toEqual([]);
    expect(result.adopted.find((o) => o.kind === 'filter')).toMatchObject({ locked: true, inline: true, refChange: false });
  });

  it('leaves out what a manifest cannot hold, and says why', () => {
    const f = filter(1, 'ip.src eq 192.0.2.1');
    const locked = filter(2, 'ip.src eq 192.0.2.2', { locked: true });
    const rules = [
      rule(1, f, { priority: 0 }),
      { ...rule(2, f), filter: { id: hex(50), deleted: true as const } },
      rule(3, locked, { priority: 3 }),
      rule(4, locked, { priority: 4 }),
    ];
    const result = exportManifest(zoneOf([f, locked], rules));
    expect(result.skipped.map((s) => s.reason)).toEqual([
      'priority 0 cannot be written in a manifest (an integer from 1 to 2147483647, or null)',
      expect.stringContaining('shares simplified-flow filter'),
      expect.stringContaining('was deleted'),
    ]);
    expect(Object.keys(result.document.firewall_rules!)).toHaveLength(1);
  });
});

describe('exportManifest: WAF sections', () => {
  const owasp = '4814384a9e5d4991b9815dcfc25d2f1f';
  const managed = 'efb7b8c949ac4650a09736fc376e9aee';
  const entrypoint = (rules: LiveZone['entrypoint'] extends infer E ? E extends { rules: infer R } ? R : never : never) => ({
    id: hex(7), name: 'default', kind: 'zone' as const, phase: 'http_request_firewall_managed' as const, version: '3', rules,
  });

  it('maps ruleset ids to aliases and folds the OWASP settings back', () => {
    const live = zoneOf([], [], {
      entrypoint: entrypoint([
        { id: hex(10), ref: hex(10), action: 'execute', expression: 'true', enabled: true, action_parameters: { id: managed, overrides: { rules: [{ id: '5f6744fa026a4638bda5b3d7d5e015dd', action: 'log', enabled: true }] } } },
        {
          id: hex(11), ref: 'owasp', action: 'execute', expression: 'true', enabled: true,
          action_parameters: { id: owasp, overrides: {
            categories: [{ category: 'paranoia-level-3', enabled: false }, { category: 'paranoia-level-4', enabled: false }, { category: 'xss', action: 'log' }],
            rules: [{ id: '6179ae15870a4bb7b2d480d4843b323c', score_threshold: 60, action: 'managed_challenge' }],
          } },
        },
      ]),
    });
    const { result } = roundTrip(live);
    expect(result.document.managed_rules).toEqual([
      { ruleset: 'managed', ref: hex(10), overrides: { rules: [{ id: '5f6744fa026a4638bda5b3d7d5e015dd', action: 'log', enabled: true }] } },
      { ruleset: 'owasp', paranoia_level: 2, action: 'managed_challenge', score_threshold: 'low', overrides: { categories: [{ category: 'xss', action: 'log' }] } },
    ]);
    expect(adoptionParts(result.adoption).entrypoint).toBeNull();
  });

  it('keeps overrides raw when they do not have the shorthand shape', () => {
    const overrides = { categories: [{ category: 'paranoia-level-2', enabled: false }], rules: [{ id: '6179ae15870a4bb7b2d480d4843b323c', enabled: false }] };
    const live = zoneOf([], [], { entrypoint: entrypoint([{ id: hex(11), ref: 'o', action: 'execute', expression: 'http.host eq "a.example"', enabled: false, action_parameters: { id: owasp, overrides } }]) });
    const { result } = roundTrip(live);
    expect(result.document.managed_rules).toEqual([{ ruleset: 'owasp', ref: 'o', enabled: false, expression: 'http.host eq "a.example"', overrides }]);
  });

  it('adopts an entry point rule without a ref with one PUT of the entry point', () => {
    const live = zoneOf([], [], { entrypoint: entrypoint([{ id: hex(12), ref: '', action: 'execute', expression: 'true', enabled: true, action_parameters: { id: managed } }]) });
    const { result } = roundTrip(live);
    expect(adoptionParts(result.adoption).entrypoint?.rules.map((r) => r.ref)).toEqual(['managed']);
  });

  it('writes skip rules as managed-rules exceptions in their places, and the next plan is empty (issue 28)', () => {
    const skip = { id: hex(20), ref: hex(20), action: 'skip' as const, expression: 'ip.src in {192.0.2.0/24}', description: 'Migrated from firewall rule f1',
      enabled: true, action_parameters: { ruleset: 'current' as const }, logging: { enabled: true } };
    const live = zoneOf([], [], { entrypoint: entrypoint([skip,
      { id: hex(21), ref: '', action: 'execute', expression: 'true', enabled: true, action_parameters: { id: managed } },
      { id: hex(22), ref: hex(22), action: 'execute', expression: 'true', enabled: true, action_parameters: { id: owasp } }]) });
    const result = exportManifest(live);
    expect(result.document.managed_rules).toEqual([
      { ref: hex(20), skip: 'current', expression: 'ip.src in {192.0.2.0/24}', description: 'Migrated from firewall rule f1' },
      { ruleset: 'managed' }, { ruleset: 'owasp', ref: hex(22) }]);
    expect(result.skipped).toEqual([]);
    // The adoption PUT keeps the skip rule first.
    expect(adoptionParts(result.adoption).entrypoint?.rules.map((r) => [r.action, r.ref])).toEqual([['skip', hex(20)], ['execute', 'managed'], ['execute', hex(22)]]);
    const loaded = validateManifestText(renderManifestYaml(result.document, { schema: 'x.json' }), 'zone.yaml');
    const plan = diffZone(loaded.zone!, adopt(live, result));
    expect(plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
    expect(entrypointOf(plan)).toBeNull();
    expect(plan.unmanaged).toEqual([]);
  });

  it('writes non-default previous WAF settings and the migration state', () => {
    const live = zoneOf([], [], {
      previousWaf: {
        packages: [
          { id: 'c504870194831cd12c3fc0284f294abb', name: 'OWASP ModSecurity Core Rule Set', detection_mode: 'anomaly', sensitivity: 'low', action_mode: 'challenge' },
          { id: '1e334934fd7ae32ad705667f8c1057aa', name: 'CloudFlare', detection_mode: 'traditional' },
        ],
        groups: [
          { id: hex(20), name: 'g1', mode: 'off', package_id: '1e334934fd7ae32ad705667f8c1057aa' },
          { id: hex(21), name: 'g2', mode: 'on', package_id: '1e334934fd7ae32ad705667f8c1057aa' },
        ],
        rules: [
          { id: '100048', group: { id: hex(20), name: 'g1' }, package_id: '1e334934fd7ae32ad705667f8c1057aa', mode: 'simulate', allowed_modes: ['default', 'disable', 'simulate', 'block', 'challenge'], default_mode: 'block' },
          { id: '100049', group: { id: hex(20), name: 'g1' }, package_id: '1e334934fd7ae32ad705667f8c1057aa', mode: 'default', allowed_modes: ['default', 'disable'] },
          { id: '990012', group: { id: hex(21), name: 'g2' }, package_id: 'c504870194831cd12c3fc0284f294abb', mode: 'off', allowed_modes: ['on', 'off'] },
        ],
        overrides: [],
      },
      migration: { migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'disabled', waf_state: 'previous_only' },
    });
    const { result, text } = roundTrip(live);
    expect(result.document.previous_waf).toEqual({
      packages: { owasp: { sensitivity: 'low' } },
      groups: { [hex(20)]: 'off' },
      rules: { 100048: 'simulate', 990012: 'off' },
    });
    expect(result.document.waf_migration).toBe('none');
    expect(text).toContain('"100048": simulate');
  });
});

describe('exportManifest: Page Rules', () => {
  it('writes disable_security and waf Page Rules keyed by their URL, plans empty, and reports the rest', () => {
    const target = (value: string) => [{ target: 'url' as const, constraint: { operator: 'matches', value } }];
    const live = zoneOf([], [], { pageRules: [
      { id: 'p1', targets: target('*example.com/images/*'), actions: [{ id: 'disable_security' }], priority: 1, status: 'active' },
      { id: 'p2', targets: target('example.com/legacy/*'), actions: [{ id: 'waf', value: 'off' }], priority: 2, status: 'disabled' },
      { id: 'p3', targets: target('example.com/static/*'), actions: [{ id: 'cache_level', value: 'bypass' }], priority: 1, status: 'active' },
    ] });
    const result = exportManifest(live);
    expect(result.document.page_rules).toEqual({
      'example-com-images': { url: '*example.com/images/*', disable_security: true },
      'example-com-legacy': { url: 'example.com/legacy/*', waf: 'off', status: 'disabled', priority: 2 },
    });
    expect(result.skipped).toEqual([{ kind: 'page_rule', id: 'p3', reason: 'actions cache_level: page_rules holds disable_security and waf only' }]);
    const loaded = validateManifestText(renderManifestYaml(result.document, { schema: 's.json' }), 'zone.yaml');
    expect(loaded.issues).toEqual([]);
    const plan = diffZone(loaded.zone!, live);
    expect(plan.changes.filter((c) => c.action !== 'no-op')).toEqual([]);
    expect(plan.unmanaged.map((u) => u.id)).toEqual(['p3']);
  });
});
