import { describe, expect, it } from 'vitest';
import { assertApplicable, diffZone, renderPlanMarkdown, renderPlanText, type Plan } from '../../src/plan/index.js';
import type { EntrypointRule, LivePreviousWaf } from '../../src/plan/index.js';
import { validateManifestText } from '../../src/manifest/index.js';
import { desired, dManaged, hex, live, lManaged, lSkip } from './fixtures.js';
import { customWriteOf, entrypointOf } from './fixtures.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const actions = (plan: Plan) => plan.changes.filter((c) => c.action !== 'no-op').map((c) => `${c.action} ${c.kind} ${c.ref}`);
const entrypoint = (rules: EntrypointRule[]) => ({
  id: hex('ep'), name: 'default', kind: 'zone' as const, phase: 'http_request_firewall_managed' as const, version: '3', rules,
});

describe('diffZone: managed entry point', () => {
  it('leaves the entry point alone without a managed_rules section', () => {
    const plan = diffZone(desired(), live({ entrypoint: entrypoint([lManaged('m1', MANAGED, { ref: 'managed' })]) }));
    expect(plan.changes).toEqual([]);
    expect(entrypointOf(plan)).toBeNull();
  });

  it('plans one change per ruleset but one PUT of the whole entry point', () => {
    const plan = diffZone(desired({ managedRules: [dManaged('managed', MANAGED), dManaged('owasp', OWASP)] }), live());
    expect(actions(plan)).toEqual(['create managed_ruleset managed', 'create managed_ruleset owasp']);
    expect(entrypointOf(plan)!.body.rules.map((r) => r.ref)).toEqual(['managed', 'owasp']);
    expect(plan.calls.phases).toEqual([{ phase: 'entrypoint', objects: 1, requests: 1 }]);
  });

  it('keeps ids, compares overrides by meaning, and keeps unmanaged rules in the body', () => {
    const liveRules = [
      lManaged('m1', MANAGED, { ref: 'managed', action_parameters: { id: MANAGED, version: 'latest', overrides: { rules: [{ id: 'b', action: 'log' }, { id: 'a', enabled: false }], categories: [] } } }),
      lManaged('x1', OWASP, { ref: hex('x1') }),
    ];
    const want = dManaged('managed', MANAGED, { overrides: { categories: [], rules: [{ id: 'a', enabled: false }, { id: 'b', action: 'log' }] } });
    const same = diffZone(desired({ managedRules: [want] }), live({ entrypoint: entrypoint(liveRules) }));
    expect(actions(same)).toEqual([]);
    expect(same.unmanaged).toEqual([{ kind: 'managed_ruleset', id: hex('x1'), summary: `execute ${OWASP}` }]);
    const changed = diffZone(desired({ managedRules: [{ ...want, description: 'core' }] }), live({ entrypoint: entrypoint(liveRules) }));
    expect(actions(changed)).toEqual(['update managed_ruleset managed']);
    expect(entrypointOf(changed)!.body.rules.map((r) => r.id)).toEqual([hex('m1'), hex('x1')]);
    expect(entrypointOf(changed)!.body.rules[1]).not.toHaveProperty('version');
  });

  it('adopts a live rule running the same ruleset under another ref (e.g. from the migration)', () => {
    const plan = diffZone(desired({ managedRules: [dManaged('managed', MANAGED)] }),
      live({ entrypoint: entrypoint([lManaged('m1', MANAGED, { ref: hex('m1') })]) }));
    expect(plan.changes).toEqual([expect.objectContaining({ action: 'update', reason: 'renamed', id: hex('m1'), changed: ['ref'] })]);
  });

  it('reorders by position only among rulesets both sides have', () => {
    const plan = diffZone(desired({ managedRules: [dManaged('owasp', OWASP), dManaged('managed', MANAGED)] }),
      live({ entrypoint: entrypoint([lManaged('m1', MANAGED, { ref: 'managed' }), lManaged('o1', OWASP, { ref: 'owasp' })]) }));
    expect(plan.changes.map((c) => [c.ref, c.reason, c.changed])).toEqual([['owasp', 'reordered', ['position']], ['managed', 'reordered', ['position']]]);
  });

  it('flags disabling or removing a managed ruleset, and weakening overrides, as danger', () => {
    const zone = live({ entrypoint: entrypoint([lManaged('m1', MANAGED, { ref: 'managed' }), lManaged('o1', OWASP, { ref: 'owasp' })]) });
    const plan = diffZone(desired({ managedRules: [dManaged('managed', MANAGED, {
      overrides: { categories: [], rules: [{ id: '6179ae15870a4bb7b2d480d4843b323c', score_threshold: 60 }, { id: 'r2', action: 'log' }] },
    })] }), zone);
    const codes = plan.findings.map((f) => `${f.level} ${f.code} ${f.ref}`);
    expect(codes).toContain('danger disables-managed-ruleset owasp');
    expect(codes.filter((c) => c.startsWith('danger weakens-managed-rule managed'))).toHaveLength(2);
  });
});

describe('diffZone: skip rules in the managed entry point', () => {
  const bypass = 'ip.src in {192.0.2.0/24}';
  // A zone after the migration: the skip rule for a bypass-waf firewall rule first, then the executes (refs = ids).
  const migrated = () => entrypoint([lSkip('s1', bypass), lManaged('m1', MANAGED, { ref: hex('m1') }), lManaged('o1', OWASP, { ref: hex('o1') })]);

  it('keeps the migration\'s skip rule first, unmanaged, when managed_rules changes', () => {
    const want = [dManaged('managed', MANAGED, { overrides: { categories: [], rules: [{ id: 'a'.repeat(32), action: 'log' }] } }), dManaged('owasp', OWASP)];
    const plan = diffZone(desired({ managedRules: want }), live({ entrypoint: migrated() }));
    expect(entrypointOf(plan)!.body.rules.map((r) => [r.action, r.id])).toEqual([['skip', hex('s1')], ['execute', hex('m1')], ['execute', hex('o1')]]);
    expect(entrypointOf(plan)!.body.rules[0]).toEqual({ id: hex('s1'), ref: hex('s1'), action: 'skip', expression: bypass,
      description: 'Migrated from firewall rule s1', enabled: true, action_parameters: { ruleset: 'current' }, logging: { enabled: true } });
    expect(plan.changes.filter((c) => c.action === 'delete')).toEqual([]);
    expect(plan.unmanaged).toEqual([{ kind: 'managed_exception', id: hex('s1'), summary: `skip the rules after it in the entry point when ${bypass}` }]);
    expect(plan.findings.map((f) => f.code)).toEqual(['weakens-managed-rule']);
  });

  it('keeps unmanaged rules in their places when managed rulesets are reordered, added or removed', () => {
    const rules = [lSkip('s1', bypass), lManaged('m1', MANAGED, { ref: 'managed' }), lSkip('s2', 'http.host eq "a.test"', { action_parameters: { rulesets: [OWASP] } }),
      lManaged('o1', OWASP, { ref: 'owasp' }), lManaged('x1', hex('other'), { ref: hex('x1') }), lManaged('d1', hex('gone'), { ref: 'gone' })];
    const plan = diffZone(desired({ managedRules: [dManaged('owasp', OWASP), dManaged('extra', hex('extra')), dManaged('managed', MANAGED)] }), live({ entrypoint: entrypoint(rules) }));
    expect(actions(plan)).toEqual(['update managed_ruleset owasp', 'create managed_ruleset extra', 'update managed_ruleset managed', 'delete managed_ruleset gone']);
    // Unmanaged s1, s2, x1 keep their places; owasp and managed swap places; extra follows owasp.
    expect(entrypointOf(plan)!.body.rules.map((r) => r.ref)).toEqual([hex('s1'), 'owasp', 'extra', hex('s2'), 'managed', hex('x1')]);
    expect(plan.unmanaged.map((u) => u.summary)).toEqual([`skip the rules after it in the entry point when ${bypass}`, 'skip ruleset owasp when http.host eq "a.test"', `execute ${hex('other')}`]);
  });

  it('puts new rulesets after the zone\'s skip rules when nothing matches yet', () => {
    const plan = diffZone(desired({ managedRules: [dManaged('managed', MANAGED)] }), live({ entrypoint: entrypoint([lSkip('s1', bypass)]) }));
    expect(entrypointOf(plan)!.body.rules.map((r) => r.action)).toEqual(['skip', 'execute']);
  });

  it('deletes a skip rule with a ref of its own that managed_rules does not list (an exception zonewall wrote), without a danger finding; --prune deletes unmanaged ones', () => {
    const zone = live({ entrypoint: entrypoint([lSkip('s1', bypass, { ref: 'office' }), lManaged('m1', MANAGED, { ref: 'managed' })]) });
    const kept = diffZone(desired({ managedRules: [dManaged('managed', MANAGED, { description: 'core' })] }), zone);
    expect(actions(kept)).toEqual(['update managed_ruleset managed', 'delete managed_exception office']);
    expect(kept.changes.find((c) => c.action === 'update')!.id).toBe(hex('m1'));
    expect(kept.findings).toEqual([]);
    expect(entrypointOf(kept)!.body.rules.map((r) => r.action)).toEqual(['execute']);
    const pruned = diffZone(desired({ managedRules: [dManaged('managed', MANAGED)] }), live({ entrypoint: migrated() }), { prune: true });
    expect(pruned.changes.find((c) => c.action === 'delete' && c.kind === 'managed_exception')).toMatchObject({ reason: 'prune', id: hex('s1'),
      before: { skip: 'current', expression: bypass } });
    expect(pruned.findings.filter((f) => f.code !== 'disables-managed-ruleset')).toEqual([]);
  });

  it('renders skip rules by what they skip, in text and markdown', () => {
    const zone = live({ entrypoint: migrated() });
    const plan = diffZone(desired({ managedRules: [dManaged('managed', MANAGED, { description: 'core' }), dManaged('owasp', OWASP)] }), zone);
    const pruned = diffZone(desired({ managedRules: [dManaged('managed', MANAGED), dManaged('owasp', OWASP)] }), zone, { prune: true });
    for (const text of [renderPlanText(plan), renderPlanMarkdown(plan)]) {
      expect(text).toContain(`skip the rules after it in the entry point when ${bypass}`);
      expect(text).not.toContain('undefined');
    }
    const prunedText = renderPlanText(pruned);
    expect(prunedText).toContain('managed_exception');
    expect(prunedText).toContain('current');
    expect(prunedText + renderPlanMarkdown(pruned)).not.toMatch(/undefined|ruleset: null/);
  });
});

describe('diffZone: WAF migration', () => {
  it('moves the migration on with the body migrate sends: the proposal\'s skip rules, then managed_rules', () => {
    const skip = { id: '', version: '', ref: '', action: 'skip' as const, expression: 'ip.src in {203.0.113.0/24}', description: 'office', enabled: true, action_parameters: { ruleset: 'current' as const } };
    const proposal = { name: 'default', rules: [skip, { ...lManaged('p1', MANAGED), id: '', ref: '' }] };
    const plan = diffZone(desired({ wafMigration: 'validation', managedRules: [dManaged('managed', MANAGED)] }), live({ migrationConfig: proposal }));
    expect(entrypointOf(plan)!.step).toBe('validation');
    // Validation bodies omit id, version and ref (seed 002).
    expect(entrypointOf(plan)!.body.rules).toEqual([
      { action: 'skip', expression: 'ip.src in {203.0.113.0/24}', description: 'office', enabled: true, action_parameters: { ruleset: 'current' } },
      { action: 'execute', expression: 'true', description: '', ref: 'managed', enabled: true, action_parameters: { id: MANAGED } },
    ]);
    const change = plan.changes.find((c) => c.kind === 'waf_migration');
    expect(change).toMatchObject({ action: 'update', before: { state: 'previous_only' }, after: { state: 'both' } });
    expect(change!.note).toContain('carries 1 skip rule(s) and 1 managed ruleset deployment(s), from the manifest\'s managed_rules');
    expect(plan.findings.map((f) => f.code)).toEqual(['flips-waf-migration']);
  });

  it('deploys the proposal as it is when the manifest has no managed_rules, and warns', () => {
    const proposal = { name: 'default', rules: [{ ...lManaged('p1', MANAGED), id: '', ref: '', version: '' }] };
    const plan = diffZone(desired({ wafMigration: 'pending' }), live({ migrationConfig: proposal }));
    expect(entrypointOf(plan)!.body.rules).toEqual([{ id: '', ref: '', version: '', action: 'execute', expression: 'true', enabled: true, action_parameters: { id: MANAGED, version: 'latest' } }]);
    expect(plan.findings.map((f) => f.code).sort()).toEqual(['flips-waf-migration', 'migration-without-rules']);
  });

  it('refuses the step, naming zonewall migrate, when the proposal is missing', () => {
    for (const migrationConfig of [undefined, null]) {
      const plan = diffZone(desired({ wafMigration: 'pending', managedRules: [dManaged('managed', MANAGED)] }), live({ ...(migrationConfig === null ? { migrationConfig } : {}) }));
      expect(entrypointOf(plan)?.step).toBeUndefined();
      const error = plan.findings.find((f) => f.code === 'migration-step-unavailable');
      expect(error?.level).toBe('error');
      expect(error?.message).toContain('zonewall migrate zone.yaml --mode pending --force');
    }
  });

  it('re-sends the validated entry point when only the migration moves', () => {
    const rules = [lManaged('m1', MANAGED, { ref: 'managed', last_updated: '2024-01-01T00:00:00Z' })];
    const plan = diffZone(desired({ wafMigration: 'pending' }), live({ entrypoint: entrypoint(rules), migration: {
      migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'enabled', waf_state: 'both' } }));
    expect(entrypointOf(plan)).toEqual({ phase: 'entrypoint', ruleset: 'http_request_firewall_managed', strategy: 'put', body: { name: 'default', rules: [{ id: hex('m1'), ref: 'managed', action: 'execute', expression: 'true', enabled: true, action_parameters: { id: MANAGED, version: 'latest' } }] }, step: 'pending' });
    expect(plan.findings.map((f) => f.code)).toEqual(['flips-waf-migration']);
  });

  it('cannot go back: an earlier state is a warning, not a change', () => {
    const plan = diffZone(desired({ wafMigration: 'none' }), live({ previousWaf: null, migration: {
      migration_state: 'done', old_waf_status: 'disabled', new_waf_status: 'enabled', waf_state: 'new_only' } }));
    expect(plan.changes).toEqual([]);
    expect(plan.findings).toEqual([expect.objectContaining({ level: 'error', code: 'migration-irreversible' })]);
  });

  it('is blocked by URI-based WAF overrides', () => {
    const previousWaf: LivePreviousWaf = { packages: [], groups: [], rules: [], overrides: [{ id: 'ov1', urls: ['example.com/x'] }] };
    const plan = diffZone(desired({ wafMigration: 'pending' }), live({ previousWaf }));
    expect(plan.findings.map((f) => `${f.level} ${f.code}`)).toContain('error migration-blocked');
  });
});

describe('diffZone: previous WAF', () => {
  const previousWaf: LivePreviousWaf = {
    packages: [
      { id: 'owasp1', name: 'OWASP ModSecurity Core Rule Set', detection_mode: 'anomaly', sensitivity: 'high', action_mode: 'challenge' },
      { id: 'cf1', name: 'CloudFlare', detection_mode: 'traditional' },
    ],
    groups: [{ id: 'g1', name: 'OWASP Bad Robots', mode: 'on', package_id: 'owasp1' }],
    rules: [{ id: '100048', group: { id: 'g2', name: 'Cloudflare Specials' }, package_id: 'cf1', mode: 'default', default_mode: 'block', allowed_modes: ['default', 'disable', 'simulate', 'block', 'challenge'] }],
    overrides: [],
  };
  const loc = { file: 'zone.yaml', line: 3, column: 1 };

  it('plans a reset to the default, as a change, for an entry removed from previous_waf', () => {
    const tuned: LivePreviousWaf = {
      ...previousWaf,
      packages: [{ ...previousWaf.packages[0]!, sensitivity: 'low', action_mode: 'simulate' }, previousWaf.packages[1]!],
      groups: [{ ...previousWaf.groups[0]!, mode: 'off' }],
      rules: [{ ...previousWaf.rules[0]!, mode: 'disable' }],
    };
    // The manifest used to list all three; now it lists only the group.
    const plan = diffZone(desired({ previousWaf: { packages: {}, groups: { g1: 'off' }, rules: {}, location: loc } }), live({ previousWaf: tuned }));
    const resets = plan.changes.filter((c) => c.reason === 'reset-to-default');
    expect(resets.map((c) => [c.kind, c.ref, c.before, c.after])).toEqual([
      ['waf_package', 'owasp1', { sensitivity: 'low', action_mode: 'simulate' }, { sensitivity: 'high', action_mode: 'challenge' }],
      ['waf_rule', '100048', { mode: 'disable' }, { mode: 'default' }],
    ]);
    expect(resets.flatMap((c) => c.writes)).toEqual([
      { op: 'waf_package.patch', packageId: 'owasp1', body: { sensitivity: 'high', action_mode: 'challenge' } },
      { op: 'waf_rule.patch', packageId: 'cf1', ruleId: '100048', mode: 'default' },
    ]);
    expect(plan.summary.change).toBe(2);
    expect(renderPlanText(plan)).toContain('~ waf_rule "100048"  # reset-to-default');
    // Without a previous_waf section nothing of the previous WAF is managed: nothing is reset.
    expect(diffZone(desired(), live({ previousWaf: tuned })).changes).toEqual([]);
  });

  it('patches only what differs, one request each, and flags weakening', () => {
    const plan = diffZone(desired({ previousWaf: {
      packages: { owasp1: { sensitivity: 'high', action_mode: 'simulate' } }, groups: { g1: 'off' }, rules: { '100048': 'block' }, location: loc,
    } }), live({ previousWaf }));
    expect(plan.changes.flatMap((c) => c.writes)).toEqual([
      { op: 'waf_package.patch', packageId: 'owasp1', body: { action_mode: 'simulate' } },
      { op: 'waf_group.patch', packageId: 'owasp1', groupId: 'g1', mode: 'off' },
      { op: 'waf_rule.patch', packageId: 'cf1', ruleId: '100048', mode: 'block' },
    ]);
    expect(plan.calls.phases).toEqual([{ phase: 'previous_waf', objects: 3, requests: 3 }]);
    expect(plan.findings.map((f) => `${f.code} ${f.ref}`)).toEqual(['weakens-previous-waf owasp1', 'weakens-previous-waf g1']);
  });

  it('reports unknown objects, traditional packages and modes a rule does not allow', () => {
    const plan = diffZone(desired({ previousWaf: {
      packages: { cf1: { sensitivity: 'low' }, nope: {} }, groups: {}, rules: { '100048': 'on' }, location: loc,
    } }), live({ previousWaf }));
    expect(plan.findings.map((f) => `${f.level} ${f.code}`)).toEqual([
      'error invalid-previous-waf-setting', 'error unknown-previous-waf-object', 'error invalid-previous-waf-setting']);
  });

  it('points each finding at the id it is about in the manifest, not at previous_waf:', () => {
    const text = ['zone: example.com', 'previous_waf:', '  packages:', '    owasp: {sensitivity: low}', '  groups:', `    ${hex('g9')}: off`,
      '  rules:', '    "100048": on', '    "999999": block', ''].join('\n');
    const loaded = validateManifestText(text, 'zone.yaml');
    expect(loaded.issues).toEqual([]);
    const owasp = loaded.zone!.previousWaf!.packages;
    const zone = live({ previousWaf: { ...previousWaf, packages: [{ ...previousWaf.packages[0]!, id: Object.keys(owasp)[0]! }, previousWaf.packages[1]!] } });
    const plan = diffZone(loaded.zone!, zone);
    expect(plan.findings.filter((f) => f.level === 'error').map((f) => `${f.code} ${f.ref} ${f.location!.line}:${f.location!.column}`)).toEqual([
      `unknown-previous-waf-object ${hex('g9')} 6:5`,
      'invalid-previous-waf-setting 100048 8:5',
      'unknown-previous-waf-object 999999 9:5',
    ]);
  });

  it('refuses the section once the zone has migrated, pointing at zonewall migrate', () => {
    const migrated = live({ previousWaf: null, migration: { migration_state: 'done', old_waf_status: 'disabled', new_waf_status: 'enabled', waf_state: 'new_only' } });
    const plan = diffZone(desired({ previousWaf: { packages: {}, groups: { g1: 'off' }, rules: {}, location: loc } }), migrated);
    expect(plan.changes).toEqual([]);
    expect(plan.findings).toEqual([expect.objectContaining({ level: 'error', code: 'previous-waf-unavailable', location: loc })]);
    const message = plan.findings[0]!.message;
    expect(message).toContain('migrated to the ruleset-based WAF (state `new only`)');
    expect(message).toContain('no longer answer');
    expect(message).toContain('zonewall migrate zone.yaml --write');
    expect(message).toContain('replaces `previous_waf` by `managed_rules`');
    expect(() => assertApplicable(plan, { force: true })).toThrow(/cannot be applied[\s\S]*zonewall migrate zone\.yaml --write/);
  });

  it('keeps the section valid in validation mode, where the previous WAF still answers', () => {
    const both = live({ previousWaf, migration: { migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'enabled', waf_state: 'both' } });
    const plan = diffZone(desired({ previousWaf: { packages: {}, groups: { g1: 'off' }, rules: {}, location: loc } }), both);
    expect(plan.findings.filter((f) => f.level === 'error')).toEqual([]);
    expect(plan.changes.flatMap((c) => c.writes)).toEqual([{ op: 'waf_group.patch', packageId: 'owasp1', groupId: 'g1', mode: 'off' }]);
  });

  it('is an error, without the migrate advice, on a zone whose plan has no previous WAF', () => {
    const free = live({ zone: { id: hex('zone'), name: 'example.com', plan: 'free' }, previousWaf: null });
    const plan = diffZone(desired({ previousWaf: { packages: {}, groups: { g1: 'off' }, rules: {}, location: loc } }), free);
    expect(plan.findings.find((f) => f.code === 'previous-waf-unavailable')).toMatchObject({ level: 'error' });
    expect(plan.findings.find((f) => f.code === 'previous-waf-unavailable')!.message).toMatch(/free plan.*remove it/);
  });
});
