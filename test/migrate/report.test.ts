import { describe, expect, it } from 'vitest';
import { buildReport } from '../../src/migrate/report.js';
import { renderBlockers, renderReport } from '../../src/migrate/report-text.js';
import { catalogFromLive, mapPreviousWaf } from '../../src/migrate/mapping.js';
import type { ManifestPreviousWafSettings } from '../../src/migrate/mapping.js';
import { ManagedRulesetIds, OwaspScoreRuleId, PreviousWafPackageIds } from '../../src/migrate/constants.js';
import type { EntrypointBody, EntrypointRule, ManagedOverrides } from '../../src/plan/index.js';

const OWASP = PreviousWafPackageIds.owasp;
const catalog = catalogFromLive(null);

function deploy(id: string, overrides?: ManagedOverrides, enabled = true): EntrypointRule {
  return { id: '', version: '', ref: '', action: 'execute', expression: 'true', description: '', enabled, action_parameters: { id, ...(overrides ? { overrides } : {}) } };
}

function owaspOverrides(pl: number, threshold: number, action: string): ManagedOverrides {
  const categories = [];
  for (let n = pl + 1; n <= 4; n += 1) categories.push({ category: `paranoia-level-${n}`, enabled: false });
  return { categories, rules: [{ id: OwaspScoreRuleId, score_threshold: threshold, action }] };
}

function proposal(owasp: EntrypointRule, managed: EntrypointRule = deploy(ManagedRulesetIds.managed)): EntrypointBody {
  return { name: 'default', rules: [managed, owasp] };
}

function report(settings: ManifestPreviousWafSettings, body: EntrypointBody) {
  return buildReport('example.com', mapPreviousWaf(settings, catalog), body);
}

const only = (pkg: ManifestPreviousWafSettings['packages'][string]): ManifestPreviousWafSettings => ({ packages: { [OWASP]: pkg }, groups: {}, rules: {} });

describe('buildReport: OWASP', () => {
  it.each([
    ['high', 2, 40],
    ['medium', 1, 25],
    ['low', 1, 40],
  ] as const)('sensitivity %s proposed as PL%i / %i changes meaning (scores are not comparable)', (sensitivity, pl, threshold) => {
    const r = report(only({ sensitivity, action_mode: 'block' }), proposal(deploy(ManagedRulesetIds.owasp, owaspOverrides(pl, threshold, 'block'))));
    const row = r.rows.find((x) => x.subject === 'OWASP sensitivity')!;
    expect(row.verdict).toBe('changes-meaning');
    expect(row.expected).toBe(`PL${pl}, score threshold ${threshold === 25 ? 'high (25)' : 'medium (40)'}`);
    expect(r.rows.find((x) => x.subject === 'OWASP action')!.verdict).toBe('maps');
  });

  it('treats a package at its defaults as the default row', () => {
    const r = report({ packages: {}, groups: {}, rules: {} }, proposal(deploy(ManagedRulesetIds.owasp, owaspOverrides(2, 40, 'challenge'))));
    const row = r.rows.find((x) => x.subject === 'OWASP sensitivity')!;
    expect(row.previous).toBe('sensitivity high (default)');
    expect(row.verdict).toBe('changes-meaning');
  });

  it('says simulate became log', () => {
    const r = report(only({ action_mode: 'simulate' }), proposal(deploy(ManagedRulesetIds.owasp, owaspOverrides(2, 40, 'log'))));
    const row = r.rows.find((x) => x.subject === 'OWASP action')!;
    expect(row).toMatchObject({ verdict: 'maps', expected: '949110 action log' });
    expect(row.note).toMatch(/simulate is called log/);
  });

  it('flags a proposal that differs from what the manifest implies', () => {
    const r = report(only({ sensitivity: 'medium' }), proposal(deploy(ManagedRulesetIds.owasp, owaspOverrides(2, 40, 'challenge'))));
    const row = r.rows.find((x) => x.subject === 'OWASP sensitivity')!;
    expect(row.verdict).toBe('differs');
    expect(row.note).toMatch(/zonewall plan/);
  });

  it('accepts a disabled OWASP deployment for a package that was off', () => {
    const r = report(only({ sensitivity: 'off' }), proposal(deploy(ManagedRulesetIds.owasp, owaspOverrides(2, 40, 'challenge'), false)));
    expect(r.rows.find((x) => x.subject === 'OWASP package')).toMatchObject({ verdict: 'maps', proposed: 'OWASP ruleset deployed disabled' });
  });
});

describe('buildReport: vendor settings, manual items, extras', () => {
  it('pairs a vendor rule with its successor by behaviour, not by the presence of an override', () => {
    const body = proposal(deploy(ManagedRulesetIds.owasp, owaspOverrides(2, 40, 'challenge')), deploy(ManagedRulesetIds.managed, {
      rules: [{ id: '5f6744fa026a4638bda5b3d7d5e015dd', action: 'log' }],
    }));
    const r = report({ packages: {}, groups: {}, rules: { '100514': 'simulate', '100533': 'block' } }, body);
    expect(r.rows.find((x) => x.subject === 'vendor rule 100514')).toMatchObject({ verdict: 'maps', proposed: 'rule 5f6744fa026a4638bda5b3d7d5e015dd: action log, enabled' });
    // block is the successor's default: no override needed.
    expect(r.rows.find((x) => x.subject === 'vendor rule 100533')!.verdict).toBe('maps');
  });

  it('lists OWASP group and rule overrides to recreate by hand', () => {
    const withGroups = catalogFromLive({ packages: [], groups: [{ id: '07d700cf30fda7548be94ff01087d0c4', name: 'OWASP Bad Robots', mode: 'on', package_id: OWASP }], rules: [], overrides: [] });
    const settings = { packages: {}, groups: { ['07d700cf30fda7548be94ff01087d0c4']: 'off' as const }, rules: { '990012': 'off' } };
    const r = buildReport('example.com', mapPreviousWaf(settings, withGroups), proposal(deploy(ManagedRulesetIds.owasp, owaspOverrides(2, 40, 'challenge'))));
    expect(r.rows.filter((x) => x.verdict === 'manual').map((x) => x.subject)).toEqual(['OWASP group 07d700cf30fda7548be94ff01087d0c4 (OWASP Bad Robots)', 'OWASP rule 990012']);
    expect(r.counts.manual).toBe(2);
  });

  it('cannot classify a group without the live zone, and says so', () => {
    const r = report({ packages: {}, groups: { ['07d700cf30fda7548be94ff01087d0c4']: 'off' }, rules: { '990012': 'off' } }, proposal(deploy(ManagedRulesetIds.owasp, owaspOverrides(2, 40, 'challenge'))));
    expect(r.rows.find((x) => x.subject.startsWith('previous WAF item'))).toMatchObject({ verdict: 'manual', subject: 'previous WAF item 07d700cf30fda7548be94ff01087d0c4' });
  });

  it('shows what the proposal carries that the manifest does not state, and skip rules', () => {
    const skip: EntrypointRule = { id: '', version: '', ref: '', action: 'skip', expression: 'ip.src eq 192.0.2.1', description: 'Migrated from firewall rule abc', enabled: true, action_parameters: { ruleset: 'current' } };
    const body: EntrypointBody = { name: 'default', rules: [skip, deploy(ManagedRulesetIds.managed, { categories: [{ category: 'wordpress', enabled: false }], rules: [{ id: 'ab'.repeat(16), action: 'challenge' }] }), deploy(ManagedRulesetIds.owasp, owaspOverrides(2, 40, 'challenge'))] };
    const r = report({ packages: {}, groups: {}, rules: {} }, body);
    expect(r.rows.find((x) => x.subject === 'Migrated from firewall rule abc')).toMatchObject({ verdict: 'maps', expected: 'skip rule in the managed phase' });
    // The rewrite writes the proposal's skip rules as exceptions (docs/migrate-previous-waf.md): the note says so.
    expect(r.rows.find((x) => x.subject === 'Migrated from firewall rule abc')!.note).toMatch(/^the rewritten managed_rules declare it as a managed-rules exception/);
    const own = buildReport('example.com', mapPreviousWaf({ packages: {}, groups: {}, rules: {} }, catalog), body, 'manifest', [], { ownManagedRules: true });
    expect(own.rows.find((x) => x.subject === 'Migrated from firewall rule abc')!.note).toMatch(/own managed_rules are kept: unless they declare this skip rule as an exception, it stays on the zone/);
    expect(r.rows.filter((x) => x.verdict === 'carried').map((x) => x.subject)).toEqual([
      'Managed Ruleset category wordpress', `Managed Ruleset rule ${'ab'.repeat(16)}`,
    ]);
  });
});

describe('text views', () => {
  it('renders one line per row and a summary', () => {
    const r = report(only({ sensitivity: 'low', action_mode: 'simulate' }), proposal(deploy(ManagedRulesetIds.owasp, owaspOverrides(1, 40, 'log'))));
    const text = renderReport(r);
    expect(text).toContain('changes meaning   OWASP sensitivity: sensitivity low → PL1, score threshold medium (40)');
    expect(text).toMatch(/Summary: 2 map, 1 change meaning, 0 to recreate by hand, 0 differ, 0 carried over\./);
  });

  it('lists URI-based overrides with the command that deletes them', () => {
    const text = renderBlockers('example.com', ['the zone has 1 URI-based WAF override'], [{ id: 'ov1', urls: ['example.com/admin*'], description: 'admin' }]);
    expect(text).toContain('ov1  example.com/admin*  (admin)');
    expect(text).toContain('zonewall migrate delete-overrides --zone example.com ov1 --force');
  });

  it('repeats the provider flags in the delete command', () => {
    const text = renderBlockers('example.com', [], [{ id: 'ov1', urls: ['example.com/admin*'] }], ' --state-dir .zw');
    expect(text).toContain('zonewall migrate delete-overrides --zone example.com ov1 --state-dir .zw --force');
  });
});
