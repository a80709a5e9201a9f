import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { validateManifestText } from '../../src/manifest/index.js';
import type { DesiredZone } from '../../src/manifest/index.js';
import { runMigration } from '../../src/migrate/sequence.js';
import type { MigrateInput } from '../../src/migrate/sequence.js';
import { deleteUriOverrides } from '../../src/migrate/overrides.js';
import { readMigrationStatus, renderMigrationStatus } from '../../src/migrate/status.js';
import type { EquivalenceReport } from '../../src/migrate/report.js';
import { ManagedRulesetIds, OwaspScoreRuleId, PreviousWafPackageIds } from '../../src/migrate/constants.js';
import { diffZone, hasChanges } from '../../src/plan/index.js';
import type { EntrypointBody, EntrypointRule, ExecuteEntrypointRule, LivePreviousWaf, PlanTier } from '../../src/plan/index.js';
import { fakeProvider } from './fake-provider.js';
import type { FakeZone } from './fake-provider.js';

const OWASP = PreviousWafPackageIds.owasp;

const manifestText = `zone: example.com
# tuned by the security team
previous_waf:
  packages:
    owasp: { sensitivity: medium, action_mode: simulate }
`;

function desiredOf(text: string): DesiredZone {
  const r = validateManifestText(text, 'zone.yaml');
  if (r.zone === undefined) throw new Error(r.issues.map((i) => i.message).join('; '));
  return r.zone;
}

function deploy(id: string, overrides?: ExecuteEntrypointRule['action_parameters']['overrides']): EntrypointRule {
  return { id: '', version: '', ref: '', action: 'execute', expression: 'true', description: '', enabled: true, action_parameters: { id, ...(overrides ? { overrides } : {}) } };
}

const skip: EntrypointRule = { id: '', version: '', ref: '', action: 'skip', expression: 'ip.src in {192.0.2.0/24}', description: 'Migrated from firewall rule f1', enabled: true, action_parameters: { ruleset: 'current' } };

const proposal: EntrypointBody = {
  name: 'default',
  rules: [
    skip,
    deploy(ManagedRulesetIds.managed),
    deploy(ManagedRulesetIds.owasp, { categories: [{ category: 'paranoia-level-2', enabled: false }, { category: 'paranoia-level-3', enabled: false }, { category: 'paranoia-level-4', enabled: false }], rules: [{ id: OwaspScoreRuleId, score_threshold: 25, action: 'log' }] }),
  ],
};

const previousWaf = (overrides: LivePreviousWaf['overrides'] = []): LivePreviousWaf => ({
  packages: [{ id: OWASP, name: 'OWASP ModSecurity Core Rule Set', detection_mode: 'anomaly', sensitivity: 'medium', action_mode: 'simulate' }],
  groups: [], rules: [], overrides,
});

function zone(plan: PlanTier, overrides: LivePreviousWaf['overrides'] = []): FakeZone {
  return {
    zone: { id: 'z'.repeat(32), name: 'example.com', plan },
    live: { filters: [], firewallRules: [], entrypoint: null, previousWaf: previousWaf(overrides) },
    state: 'previous_only',
    proposal,
  };
}

/** The planner's verdict on the rewritten manifest against the zone now. */
async function planAfter(p: MigrateInput['provider'], text: string) {
  const desired = desiredOf(text);
  const { zone: z } = await p.resolveZone(desired.zone);
  return diffZone(desired, await p.readZone(z.id));
}

function input(provider: MigrateInput['provider'], text: string, extra: Partial<MigrateInput> = {}): MigrateInput {
  return { provider, manifest: { path: 'zone.yaml', text, desired: desiredOf(text) }, ...extra };
}

describe('an Enterprise zone: validation, then pending', () => {
  it('dry run: reports, applies nothing, proposes validation', async () => {
    const p = fakeProvider(zone('enterprise'));
    const reports: EquivalenceReport[] = [];
    const o = await runMigration(input(p, manifestText), { report: (r) => reports.push(r) });
    expect(p.calls.map((c) => c.op)).toEqual(['check', 'config']);
    expect(reports[0].rows.find((r) => r.subject === 'OWASP sensitivity')).toMatchObject({ verdict: 'changes-meaning', expected: 'PL1, score threshold high (25)' });
    expect(o).toMatchObject({ before: 'previous_only', after: 'previous_only', wafMigration: 'validation' });
    expect(o.applied).toBeUndefined();
    const js = parse(o.text);
    // The proposal's skip rule (the firewall rule that bypassed the WAF) is written as an exception, before the deployments (issue 28).
    expect(js).toEqual({ zone: 'example.com', managed_rules: [
      { ref: 'exception-1', skip: 'current', expression: 'ip.src in {192.0.2.0/24}', description: 'Migrated from firewall rule f1' },
      { ruleset: 'managed' }, { ruleset: 'owasp', paranoia_level: 1, score_threshold: 'high', action: 'log' }], waf_migration: 'validation' });
    expect(o.diff).toContain('-previous_waf:');
    expect(validateManifestText(o.text, 'zone.yaml').issues).toEqual([]);
  });

  it('validation: PUTs the proposal without id, version and ref; the manifest gets the live refs', async () => {
    const p = fakeProvider(zone('enterprise'));
    const o = await runMigration(input(p, manifestText, { mode: 'validation' }));
    const put = p.calls.find((c) => c.op === 'put')!;
    expect(put.mode).toBe('validation');
    for (const rule of put.body!.rules) {
      expect(rule).not.toHaveProperty('id');
      expect(rule).not.toHaveProperty('ref');
      expect(rule).not.toHaveProperty('version');
    }
    expect(o).toMatchObject({ before: 'previous_only', after: 'both', applied: 'validation' });
    // The skip rule is written as an exception with its live ref, so the plan after matches it (issue 28).
    expect(parse(o.text).managed_rules.map((e: { ref?: string }) => e.ref)).toEqual(['0'.padStart(32, 'a'), '1'.padStart(32, 'a'), '2'.padStart(32, 'a')]);
    const plan = await planAfter(p, o.text);
    expect(hasChanges(plan)).toBe(false);
    expect(plan.findings.filter((f) => f.level !== 'warning')).toEqual([]);
  });

  it('pending needs --force, then PUTs the reviewed manifest\'s managed_rules with the skip rules first', async () => {
    const p = fakeProvider(zone('enterprise'));
    const first = await runMigration(input(p, manifestText, { mode: 'validation' }));
    await expect(runMigration(input(p, first.text, { mode: 'pending' }))).rejects.toThrow(/cannot go back.*--force/);
    expect(p.calls.filter((c) => c.op === 'put')).toHaveLength(1);
    const o = await runMigration(input(p, first.text, { mode: 'pending', force: true }));
    const put = p.calls.filter((c) => c.op === 'put')[1];
    expect(put.mode).toBe('pending');
    expect(put.body!.rules.map((r) => r.action)).toEqual(['skip', 'execute', 'execute']);
    expect(put.body!.rules[1].ref).toBe('1'.padStart(32, 'a'));
    expect(o).toMatchObject({ before: 'both', after: 'new_only', applied: 'pending' });
    // The manifest's own managed_rules stay as written; only waf_migration moves on.
    expect(o.diff).toContain('-waf_migration: validation\n+waf_migration: pending');
    expect(parse(o.text).managed_rules).toEqual(parse(first.text).managed_rules);
    expect(hasChanges(await planAfter(p, o.text))).toBe(false);
  });
});

describe('a manifest that already states managed_rules', () => {
  it('PUTs them (refs included, skip rules first) instead of the proposal, and keeps them as written', async () => {
    const p = fakeProvider(zone('enterprise'));
    const text = `${manifestText}managed_rules:\n  - ruleset: owasp   # ours\n    paranoia_level: 3\n`;
    const o = await runMigration(input(p, text, { mode: 'validation' }));
    expect(o.bodySource).toBe('manifest');
    const put = p.calls.find((c) => c.op === 'put')!;
    expect(put.body!.rules.map((r) => [r.action, r.ref])).toEqual([['skip', undefined], ['execute', 'owasp']]);
    expect(o.text).toBe('zone: example.com\nmanaged_rules:\n  - ruleset: owasp   # ours\n    paranoia_level: 3\nwaf_migration: validation\n');
    expect(hasChanges(await planAfter(p, o.text))).toBe(false);
  });
});

describe('a Pro zone: straight to the new WAF', () => {
  it('refuses validation, saying how to finish instead', async () => {
    const p = fakeProvider(zone('pro'));
    await expect(runMigration(input(p, manifestText, { mode: 'validation' }))).rejects.toThrow(/Enterprise zones only; example.com is on the pro plan.*--mode pending --force/);
    expect(p.calls.some((c) => c.op === 'put')).toBe(false);
  });

  it('names the run\'s provider flags in the commands its refusals suggest', async () => {
    const p = fakeProvider(zone('pro'));
    await expect(runMigration(input(p, manifestText, { mode: 'validation', flags: ' --state-dir .zw' })))
      .rejects.toThrow('run zonewall migrate zone.yaml --state-dir .zw --mode pending --force --write');
    // No diff was printed before this refusal: it names the dry run that shows one.
    await expect(runMigration(input(p, manifestText, { mode: 'pending', flags: ' --state-dir .zw' })))
      .rejects.toThrow(/Review the report above and the manifest diff \(zonewall migrate zone.yaml --state-dir .zw shows it\), then run again with --force/);
  });

  it('dry run proposes pending; pending --force PUTs the proposal as returned', async () => {
    const p = fakeProvider(zone('pro'));
    expect((await runMigration(input(p, manifestText))).wafMigration).toBe('pending');
    const o = await runMigration(input(p, manifestText, { mode: 'pending', force: true }));
    expect(p.calls.find((c) => c.op === 'put')!.body!.rules[1]).toMatchObject({ id: '', version: '', ref: '' });
    expect(o.after).toBe('new_only');
    expect(parse(o.text).waf_migration).toBe('pending');
    expect(hasChanges(await planAfter(p, o.text))).toBe(false);
  });
});

describe('an incompatible zone', () => {
  const override = { id: 'ov1', urls: ['example.com/admin/*'], description: 'admin' };

  it('lists the URI-based overrides and stops before the configuration', async () => {
    const p = fakeProvider(zone('enterprise', [override]));
    const blocked: unknown[] = [];
    await expect(runMigration(input(p, manifestText, { mode: 'validation' }), { blocked: (_z, reasons, b) => blocked.push({ reasons, b }) }))
      .rejects.toThrow(/cannot migrate until what blocks it is removed/);
    expect(blocked).toEqual([{ reasons: ['the zone has 1 URI-based WAF override(s)'], b: [override] }]);
    expect(p.calls.map((c) => c.op)).toEqual(['check']);
  });

  it('is unblocked once the overrides are deleted (listed first without force)', async () => {
    const p = fakeProvider(zone('enterprise', [override]));
    expect(await deleteUriOverrides(p, 'example.com', 'all', false)).toMatchObject({ selected: [override], deleted: false });
    expect(p.calls).toEqual([]);
    await expect(deleteUriOverrides(p, 'example.com', ['nope'], true)).rejects.toThrow(/no URI-based override nope; its overrides: ov1/);
    expect((await deleteUriOverrides(p, 'example.com', ['ov1'], true)).deleted).toBe(true);
    const o = await runMigration(input(p, manifestText, { mode: 'validation' }));
    expect(o.after).toBe('both');
  });
});

describe('a Free zone', () => {
  const free = (): FakeZone => ({ ...zone('free'), live: { ...zone('free').live, previousWaf: null }, reasons: ['Free zones have no previous WAF to migrate from'] });

  it('says there is nothing to migrate rather than asking to remove blockers', async () => {
    const p = fakeProvider(free());
    const err = await runMigration(input(p, 'zone: example.com\n')).then(() => new Error('no refusal'), (e: unknown) => e as Error);
    expect(err.message).toMatch(/free plan, which has no previous WAF to migrate from: deploy managed rulesets with the manifest's managed_rules/);
    expect(err.message).not.toMatch(/what blocks it/);
    expect(p.calls.map((c) => c.op)).toEqual(['check']);
  });

  it('status names no migration and no next migration step', async () => {
    const text = renderMigrationStatus(await readMigrationStatus(fakeProvider(free()), 'example.com'));
    expect(text).toContain('migration:    none (Free plan: no previous WAF)');
    expect(text).toContain('next: nothing to migrate: a Free zone has no previous WAF');
  });
});

describe('a zone that already migrated', () => {
  it('refuses validation, and brings the manifest in line with the live entry point', async () => {
    const start = zone('enterprise');
    const p = fakeProvider({ ...start, state: 'new_only', live: { ...start.live, previousWaf: null, entrypoint: { id: 'e'.repeat(32), name: 'default', kind: 'zone', phase: 'http_request_firewall_managed', version: '3', rules: [{ ...deploy(ManagedRulesetIds.managed), id: 'b'.repeat(32), ref: 'managed' }] } } });
    await expect(runMigration(input(p, manifestText, { mode: 'validation' }))).rejects.toThrow(/already finished its migration/);
    const o = await runMigration(input(p, manifestText));
    expect(parse(o.text)).toEqual({ zone: 'example.com', managed_rules: [{ ruleset: 'managed' }], waf_migration: 'pending' });
    expect(p.calls).toEqual([]);
  });
});

describe('status', () => {
  it('shows both WAFs and the next step', async () => {
    const p = fakeProvider(zone('enterprise', [{ id: 'ov1', urls: ['example.com/a'] }]));
    const s = await readMigrationStatus(p, 'example.com');
    expect(s).toMatchObject({ state: 'previous_only', migration_state: 'start', old_waf: 'enabled', new_waf: 'disabled' });
    const text = renderMigrationStatus(s);
    expect(text).toContain('migration:    previous WAF only; migration_state start');
    expect(text).toContain('OWASP package: sensitivity medium, action_mode simulate');
    expect(text).toContain('next: delete the URI-based overrides first: zonewall migrate delete-overrides --zone example.com --all --force');
  });
});

describe('the report reads groups and rules from the live zone at every step', () => {
  const tuned = (): LivePreviousWaf => ({
    ...previousWaf(),
    groups: [{ id: 'g-bad-robots', name: 'OWASP Bad Robots', mode: 'off', package_id: OWASP }, { id: 'g-xss', name: 'OWASP XSS Attacks', mode: 'on', package_id: OWASP }],
    rules: [
      { id: '990012', description: 'Rogue web site crawler', group: { id: 'g-bad-robots', name: 'OWASP Bad Robots' }, package_id: OWASP, mode: 'off', allowed_modes: ['on', 'off'] },
      { id: '950011', description: 'SSI injection', group: { id: 'g-xss', name: 'OWASP XSS Attacks' }, package_id: OWASP, mode: 'on', allowed_modes: ['on', 'off'] },
    ],
  });
  const manual = (r: EquivalenceReport) => r.rows.filter((row) => row.verdict === 'manual').map((row) => row.subject);

  it('keeps the "recreate by hand" rows after --write removed previous_waf, in validation state too, until new only', async () => {
    const p = fakeProvider({ ...zone('enterprise'), live: { filters: [], firewallRules: [], entrypoint: null, previousWaf: tuned() } });
    const reports: EquivalenceReport[] = [];
    const dry = await runMigration(input(p, manifestText), { report: (r) => reports.push(r) });
    const expected = ['OWASP group g-bad-robots (OWASP Bad Robots)', 'OWASP rule 990012 (Rogue web site crawler)'];
    expect(manual(reports[0])).toEqual(expected);
    // The rewritten manifest has no previous_waf: the live zone still says what must be recreated.
    expect(parse(dry.text).previous_waf).toBeUndefined();
    await runMigration(input(p, dry.text), { report: (r) => reports.push(r) });
    expect(manual(reports[1])).toEqual(expected);
    expect(reports[1].counts.manual).toBe(2);
    const validated = await runMigration(input(p, dry.text, { mode: 'validation' }), { report: (r) => reports.push(r) });
    expect(validated.after).toBe('both');
    await runMigration(input(p, validated.text, { mode: 'pending', force: true }), { report: (r) => reports.push(r) });
    expect(manual(reports[3])).toEqual(expected);
  });
});

describe('the report lists the zone\'s Page Rules', () => {
  it('pairs disable_security and waf: off Page Rules with the proposal\'s skip rules, and says when one is missing', async () => {
    const target = (value: string) => [{ target: 'url' as const, constraint: { operator: 'matches', value } }];
    const pageSkip: EntrypointRule = { ...skip, expression: 'http.request.full_uri wildcard "*example.com/images/*"', description: 'Migrated from Page Rule p1 (*example.com/images/*)' };
    const p = fakeProvider({ ...zone('business'), proposal: { ...proposal, rules: [pageSkip, ...proposal.rules] }, live: {
      filters: [], firewallRules: [], entrypoint: null, previousWaf: previousWaf(),
      pageRules: [
        { id: 'p1', targets: target('*example.com/images/*'), actions: [{ id: 'disable_security' }], priority: 1, status: 'active' },
        { id: 'p2', targets: target('example.com/legacy/*'), actions: [{ id: 'waf', value: 'off' }], priority: 1, status: 'active' },
        { id: 'p3', targets: target('example.com/admin/*'), actions: [{ id: 'waf', value: 'on' }], priority: 1, status: 'active' },
      ],
    } });
    const reports: EquivalenceReport[] = [];
    await runMigration(input(p, manifestText), { report: (r) => reports.push(r) });
    const rows = reports[0].rows.filter((r) => r.subject.startsWith('Page Rule'));
    expect(rows.map((r) => [r.subject, r.verdict, r.previous])).toEqual([
      ['Page Rule *example.com/images/*', 'maps', 'disable_security'],
      ['Page Rule example.com/legacy/*', 'manual', 'waf off'],
      ['Page Rule example.com/admin/*', 'maps', 'waf on'],
    ]);
    expect(rows[0].proposed).toBe('skip the rules after it in the entry point when http.request.full_uri wildcard "*example.com/images/*"');
    // The manifest has no managed_rules: the rewrite declares the Page Rule's skip rule as an exception.
    expect(rows[0].note).toMatch(/^the rewritten managed_rules declare it as a managed-rules exception/);
    // The Page Rule's skip rule is not reported a second time as a firewall rule's.
    expect(reports[0].rows.filter((r) => r.previous === 'firewall rule: bypass waf')).toHaveLength(1);
  });
});
