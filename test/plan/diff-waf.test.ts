import { describe, expect, it } from 'vitest';
import { diffZone, type Plan } from '../../src/plan/index.js';
import type { LivePreviousWaf } from '../../src/plan/index.js';
import { desired, dManaged, hex, live, lManaged } from './fixtures.js';

const MANAGED = 'efb7b8c949ac4650a09736fc376e9aee';
const OWASP = '4814384a9e5d4991b9815dcfc25d2f1f';
const actions = (plan: Plan) => plan.changes.filter((c) => c.action !== 'no-op').map((c) => `${c.action} ${c.kind} ${c.ref}`);
const entrypoint = (rules: ReturnType<typeof lManaged>[]) => ({
  id: hex('ep'), name: 'default', kind: 'zone' as const, phase: 'http_request_firewall_managed' as const, version: '3', rules,
});

describe('diffZone: managed entry point', () => {
  it('leaves the entry point alone without a managed_rules section', () => {
    const plan = diffZone(desired(), live({ entrypoint: entrypoint([lManaged('m1', MANAGED, { ref: 'managed' })]) }));
    expect(plan.changes).toEqual([]);
    expect(plan.entrypoint).toBeNull();
  });

  it('plans one change per ruleset but one PUT of the whole entry point', () => {
    const plan = diffZone(desired({ managedRules: [dManaged('managed', MANAGED), dManaged('owasp', OWASP)] }), live());
    expect(actions(plan)).toEqual(['create managed_ruleset managed', 'create managed_ruleset owasp']);
    expect(plan.entrypoint!.body.rules.map((r) => r.ref)).toEqual(['managed', 'owasp']);
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
    expect(changed.entrypoint!.body.rules.map((r) => r.id)).toEqual([hex('m1'), hex('x1')]);
    expect(changed.entrypoint!.body.rules[1]).not.toHaveProperty('version');
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

describe('diffZone: WAF migration', () => {
  it('moves the migration on through the entry point PUT, as a danger finding', () => {
    const plan = diffZone(desired({ wafMigration: 'validation', managedRules: [dManaged('managed', MANAGED)] }), live());
    expect(plan.entrypoint!.wafMigration).toBe('validation');
    expect(plan.changes.find((c) => c.kind === 'waf_migration')).toMatchObject({ action: 'update', before: { state: 'previous_only' }, after: { state: 'both' } });
    expect(plan.findings.map((f) => f.code)).toEqual(['flips-waf-migration']);
  });

  it('re-sends the current entry point when only the migration moves, and warns', () => {
    const rules = [lManaged('m1', MANAGED, { ref: 'managed', last_updated: '2024-01-01T00:00:00Z' })];
    const plan = diffZone(desired({ wafMigration: 'pending' }), live({ entrypoint: entrypoint(rules), migration: {
      migration_state: 'start', old_waf_status: 'enabled', new_waf_status: 'enabled', waf_state: 'both' } }));
    expect(plan.entrypoint).toEqual({ body: { name: 'default', rules: [{ id: hex('m1'), ref: 'managed', action: 'execute', expression: 'true', enabled: true, action_parameters: { id: MANAGED, version: 'latest' } }] }, wafMigration: 'pending' });
    expect(plan.findings.map((f) => f.code).sort()).toEqual(['flips-waf-migration', 'migration-without-rules']);
  });

  it('cannot go back: an earlier state is a warning, not a change', () => {
    const plan = diffZone(desired({ wafMigration: 'none' }), live({ previousWaf: null, migration: {
      migration_state: 'done', old_waf_status: 'disabled', new_waf_status: 'enabled', waf_state: 'new_only' } }));
    expect(plan.changes).toEqual([]);
    expect(plan.findings).toEqual([expect.objectContaining({ level: 'warning', code: 'migration-irreversible' })]);
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

  it('ignores the section, with a warning, once the zone has migrated', () => {
    const plan = diffZone(desired({ previousWaf: { packages: {}, groups: { g1: 'off' }, rules: {}, location: loc } }), live({ previousWaf: null }));
    expect(plan.changes).toEqual([]);
    expect(plan.findings.map((f) => f.code)).toEqual(['previous-waf-unavailable']);
  });
});
