/**
 * The migration sequence against the real embedded engine, in-process: every row of the seed's
 * OWASP table, simulate to log, vendor and OWASP settings, firewall rules that bypass the WAF, an
 * incompatible zone, and a plan of the rewritten manifest after each step (it must be empty).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { entrypointOf } from '../plan/fixtures.js';
import { ManagedPhase } from '../../src/api/index.js';
import { validateManifestText } from '../../src/manifest/index.js';
import { deleteUriOverrides, readMigrationStatus, runMigration } from '../../src/migrate/index.js';
import type { EquivalenceReport, MigrateInput } from '../../src/migrate/index.js';
import { diffZone, hasChanges } from '../../src/plan/index.js';
import type { PlanTier } from '../../src/plan/index.js';
import { openProvider } from '../../src/providers/index.js';
import type { Provider } from '../../src/providers/index.js';
import { EngineProvider } from '../../src/providers/engine/index.js';

const OWASP = 'c504870194831cd12c3fc0284f294abb';
let dir: string;
let provider: Provider;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'zw-migrate-'));
  provider = await openProvider({ stateDir: dir });
});
afterAll(async () => {
  await provider.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

let counter = 0;
/** A new zone of a tier, its previous OWASP package set as given. */
async function zoneWith(plan: PlanTier, owasp?: { sensitivity?: string; action_mode?: string }): Promise<{ id: string; name: string }> {
  counter += 1;
  // Made on the engine itself: the provider would create a missing zone only at its first write.
  const made = await (provider as EngineProvider).engine.createZone(`z${counter}.test`, { plan });
  const { zone } = await provider.resolveZone(made.id);
  if (owasp !== undefined) await provider.patchWafPackage(zone.id, OWASP, owasp);
  return zone;
}

function desiredOf(text: string) {
  const r = validateManifestText(text, 'zone.yaml');
  if (r.zone === undefined) throw new Error(r.issues.map((i) => `${i.line}:${i.column} ${i.message}`).join('; '));
  return r.zone;
}

async function migrate(text: string, extra: Partial<MigrateInput> = {}, onReport?: (r: EquivalenceReport) => void) {
  return runMigration({ provider, manifest: { path: 'zone.yaml', text, desired: desiredOf(text) }, ...extra }, { report: onReport });
}

async function planOf(text: string) {
  const desired = desiredOf(text);
  const { zone } = await provider.resolveZone(desired.zone);
  return diffZone(desired, await provider.readZone(zone.id));
}

function manifest(zone: string, owasp?: string): string {
  return `zone: ${zone}\n${owasp === undefined ? '' : `previous_waf:\n  packages:\n    owasp: ${owasp}\n`}`;
}

describe('each row of the OWASP mapping, on the engine', () => {
  it.each([
    ['high', '{ sensitivity: high, action_mode: block }', 2, 'medium', 'block'],
    ['medium', '{ sensitivity: medium, action_mode: challenge }', 1, 'high', 'challenge'],
    ['low', '{ sensitivity: low, action_mode: block }', 1, 'medium', 'block'],
    ['default', undefined, 2, 'medium', 'challenge'],
    ['simulate', '{ sensitivity: low, action_mode: simulate }', 1, 'medium', 'log'],
  ])('%s (%s): PL%i, score threshold %s, action %s; plan empty after validation', async (_row, owasp, pl, threshold, action) => {
    const settings = owasp === undefined ? undefined : parse(owasp) as { sensitivity: string; action_mode: string };
    const zone = await zoneWith('enterprise', settings);
    const text = manifest(zone.name, owasp);
    let report: EquivalenceReport | undefined;
    const dry = await migrate(text, {}, (r) => { report = r; });
    expect(report!.rows.find((r) => r.subject === 'OWASP sensitivity')!.verdict).toBe('changes-meaning');
    expect(report!.rows.find((r) => r.subject === 'OWASP action')!.verdict).toBe('maps');
    expect(report!.counts.differs).toBe(0);
    const owaspEntry = parse(dry.text).managed_rules.find((e: { ruleset: string }) => e.ruleset === 'owasp');
    expect(owaspEntry).toEqual({ ruleset: 'owasp', paranoia_level: pl, score_threshold: threshold, action });
    const applied = await migrate(text, { mode: 'validation' });
    expect(applied.after).toBe('both');
    expect(hasChanges(await planOf(applied.text))).toBe(false);
  });
});

describe('an Enterprise zone with vendor and OWASP settings and a bypass rule', () => {
  it('reports rule by rule, validates, finishes, and plans empty after each step', async () => {
    const zone = await zoneWith('enterprise', { sensitivity: 'high', action_mode: 'simulate' });
    await provider.patchWafGroup(zone.id, '1e334934fd7ae32ad705667f8c1057aa', 'c956a7bf4225adc26448b0badc12f17a', 'off');
    await provider.patchWafRule(zone.id, '1e334934fd7ae32ad705667f8c1057aa', '100514', 'simulate');
    await provider.patchWafGroup(zone.id, OWASP, '07d700cf30fda7548be94ff01087d0c4', 'off');
    const [filter] = await provider.createFilters(zone.id, [{ expression: 'ip.src in {192.0.2.0/24}', paused: false, ref: 'office' }]);
    await provider.createFirewallRules(zone.id, [{ action: 'bypass', products: ['waf'], priority: 1, paused: false, ref: 'office-bypass', filter: { id: filter.id } }]);
    const text = `zone: ${zone.name}
filters:
  office: { expression: "ip.src in {192.0.2.0/24}" }
firewall_rules:
  office-bypass: { action: bypass, products: [waf], filter: office }
previous_waf:   # as tuned in 2019
  packages:
    owasp: { sensitivity: high, action_mode: simulate }
  groups:
    c956a7bf4225adc26448b0badc12f17a: off   # WordPress
    07d700cf30fda7548be94ff01087d0c4: off   # OWASP Bad Robots
  rules:
    "100514": simulate
`;
    expect(hasChanges(await planOf(text))).toBe(false);
    let report: EquivalenceReport | undefined;
    const validation = await migrate(text, { mode: 'validation' }, (r) => { report = r; });
    const bySubject = (s: string) => report!.rows.find((r) => r.subject.startsWith(s))!;
    expect(bySubject('vendor group c956a7bf4225adc26448b0badc12f17a')).toMatchObject({ verdict: 'maps', expected: 'category wordpress disabled' });
    expect(bySubject('vendor rule 100514')).toMatchObject({ verdict: 'maps', expected: 'rule 5f6744fa026a4638bda5b3d7d5e015dd: action log, enabled' });
    expect(bySubject('OWASP group 07d700cf30fda7548be94ff01087d0c4').verdict).toBe('manual');
    expect(bySubject('OWASP action')).toMatchObject({ verdict: 'maps', proposed: '949110 action log' });
    expect(report!.rows.find((r) => r.proposed.startsWith('skip'))!.verdict).toBe('maps');
    expect(report!.counts.differs).toBe(0);
    expect(validation.after).toBe('both');
    expect(validation.text).toContain('filters:\n  office: { expression: "ip.src in {192.0.2.0/24}" }\n');
    let plan = await planOf(validation.text);
    expect(hasChanges(plan)).toBe(false);
    // Managed-rules exceptions: the skip rule migrated from the bypass is written to
    // managed_rules (matched by ref), so nothing in the entry point is unmanaged any more.
    expect(validation.text).toMatch(/managed_rules:\n  - ref: \w+\n    skip: current\n    expression: ip\.src in \{192\.0\.2\.0\/24\}\n/);
    expect(plan.unmanaged).toEqual([]);

    await expect(migrate(validation.text, { mode: 'pending' })).rejects.toThrow(/--force/);
    const finished = await migrate(validation.text, { mode: 'pending', force: true });
    expect(finished).toMatchObject({ before: 'both', after: 'new_only', wafMigration: 'pending' });
    plan = await planOf(finished.text);
    expect(hasChanges(plan)).toBe(false);
    expect(plan.findings.filter((f) => f.level === 'error')).toEqual([]);
    expect((await readMigrationStatus(provider, zone.name)).state).toBe('new_only');
  });
});

describe('a migrated zone with a firewall rule that bypassed the WAF', () => {
  it('keeps the skip rule first after a managed_rules edit, and refuses previous_waf', async () => {
    const zone = await zoneWith('pro', { sensitivity: 'low', action_mode: 'block' });
    const [filter] = await provider.createFilters(zone.id, [{ expression: 'ip.src in {198.51.100.0/24}', paused: false, ref: 'scanner' }]);
    await provider.createFirewallRules(zone.id, [{ action: 'bypass', products: ['waf'], priority: 1, paused: false, ref: 'scanner-bypass', filter: { id: filter.id } }]);
    const text = `zone: ${zone.name}
filters:
  scanner: { expression: "ip.src in {198.51.100.0/24}" }
firewall_rules:
  scanner-bypass: { action: bypass, products: [waf], filter: scanner }
previous_waf:
  packages:
    owasp: { sensitivity: low, action_mode: block }
`;
    const finished = await migrate(text, { mode: 'pending', force: true });
    expect(finished.after).toBe('new_only');
    const actions = async () => (await provider.readZone(zone.id)).entrypoint!.rules.map((r) => r.action);
    expect(await actions()).toEqual(['skip', 'execute', 'execute']);

    // The stale manifest is refused with the way out.
    const stale = await planOf(text);
    expect(stale.findings).toContainEqual(expect.objectContaining({ level: 'error', code: 'previous-waf-unavailable',
      message: expect.stringContaining('zonewall migrate zone.yaml --write') }));

    // An edit of managed_rules: the PUT keeps the skip rule before the executes.
    const edited = finished.text.replace(/paranoia_level: 1/, 'paranoia_level: 3');
    expect(edited).not.toBe(finished.text);
    const plan = await planOf(edited);
    expect(entrypointOf(plan)!.body.rules.map((r) => r.action)).toEqual(['skip', 'execute', 'execute']);
    // Managed-rules exceptions: `migrate` writes the skip rule into managed_rules (matched by
    // ref), so the manifest manages it and the plan reports nothing unmanaged.
    expect(finished.text).toMatch(/managed_rules:\n  - ref: \w+\n    skip: current\n    expression: ip\.src in \{198\.51\.100\.0\/24\}\n/);
    expect(plan.unmanaged).toEqual([]);
    await provider.putPhase(zone.id, ManagedPhase, entrypointOf(plan)!.body);
    expect(await actions()).toEqual(['skip', 'execute', 'execute']);
    expect(hasChanges(await planOf(edited))).toBe(false);
  });
});

describe('a Professional zone', () => {
  it('goes straight to the new WAF only', async () => {
    const zone = await zoneWith('pro', { sensitivity: 'medium', action_mode: 'block' });
    const text = manifest(zone.name, '{ sensitivity: medium, action_mode: block }');
    await expect(migrate(text, { mode: 'validation' })).rejects.toThrow(/Enterprise zones only/);
    const dry = await migrate(text);
    expect(dry.wafMigration).toBe('pending');
    const o = await migrate(text, { mode: 'pending', force: true });
    expect(o).toMatchObject({ before: 'previous_only', after: 'new_only' });
    expect(hasChanges(await planOf(o.text))).toBe(false);
    // Running it again on the rewritten manifest changes nothing.
    const again = await migrate(o.text);
    expect(again.diff).toBe('');
  });
});

describe('an incompatible zone', () => {
  it('is blocked by a URI-based override, then unblocked once it is deleted', async () => {
    const zone = await zoneWith('enterprise');
    const engine = (provider as EngineProvider).engine;
    const res = await engine.dispatch({ method: 'POST', path: `/zones/${zone.id}/firewall/waf/overrides`, body: { urls: [`${zone.name}/admin/*`], rules: { '100514': 'disable' }, description: 'admin' } });
    expect(res.status).toBe(200);
    const overrideId = (res.body.result as { id: string }).id;
    const text = manifest(zone.name, '{ sensitivity: low }');
    const blocked: string[] = [];
    await expect(runMigration({ provider, manifest: { path: 'zone.yaml', text, desired: desiredOf(text) }, mode: 'validation' }, {
      blocked: (_z, reasons, blockers) => blocked.push(...reasons, ...blockers.map((b) => `${b.id} ${b.urls.join(',')}`)),
    })).rejects.toThrow(/cannot migrate/);
    expect(blocked).toContain(`${overrideId} ${zone.name}/admin/*`);
    expect(blocked.some((r) => /URI-based WAF override/.test(r))).toBe(true);
    await deleteUriOverrides(provider, zone.name, [overrideId], true);
    const o = await migrate(text, { mode: 'validation' });
    expect(o.after).toBe('both');
    expect(hasChanges(await planOf(o.text))).toBe(false);
  });
});
