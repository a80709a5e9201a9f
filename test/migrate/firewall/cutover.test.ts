/**
 * The staged cutover on the embedded engine, in process: the three steps' desired states, a clean
 * cutover of a generated zone (many rules, shared filters) that leaves no filter or firewall rule
 * and an empty next plan, and a provider write that fails at chosen points of every step: the zone
 * then gives every request of the corpus the verdict it had before the cutover (one complete
 * generation enforces), its objects are those of a step boundary or within a step, and a re-run
 * finishes the cutover.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyZone } from '../../../src/apply/index.js';
import { runCutover, type CutoverIo } from '../../../src/cli/commands/migrate-cutover.js';
import { validateManifestText, type DesiredZone } from '../../../src/manifest/index.js';
import { cutoverSteps, upgradeFirewallManifest, type CutoverStep, type FirewallUpgrade } from '../../../src/migrate/index.js';
import { diffZone, hasChanges, readsFor } from '../../../src/plan/index.js';
import { generateCorpus } from '../../../src/policy/index.js';
import { openEngineProvider, type EngineProvider } from '../../../src/providers/engine/index.js';
import type { Provider, TraceRequest, TraceResult } from '../../../src/providers/index.js';
import { generatedZone } from '../../../support/generated-zone.js';

let dir: string;
let engine: EngineProvider;
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'zw-cutover-'));
  engine = await openEngineProvider({ stateDir: join(dir, 'state') });
});
afterAll(async () => {
  await engine.close();
  rmSync(dir, { recursive: true, force: true });
});

function load(text: string): DesiredZone {
  const loaded = validateManifestText(text, 'zone.yaml');
  expect(loaded.issues).toEqual([]);
  return loaded.zone!;
}

/** A zone running `text`'s firewall rules, and its upgrade. */
async function liveZone(name: string, rules: number, filters: number): Promise<{ before: DesiredZone; up: FirewallUpgrade; zoneId: string }> {
  const text = generatedZone({ rules, filters, zone: name });
  const before = load(text);
  const up = upgradeFirewallManifest('zone.yaml', text, before);
  expect(up.after).toBeDefined();
  const { zone } = await engine.resolveZone(name, { create: { plan: 'enterprise' } });
  const plan = diffZone(before, await engine.readZone(zone.id, readsFor(before)), {});
  expect((await applyZone(plan, engine, { force: true })).ok).toBe(true);
  return { before, up, zoneId: zone.id };
}

const quiet: CutoverIo = { write: () => undefined, confirm: async () => true };

/** How a request ends: the origin (no action, or allow) or a terminating action. */
function verdict(t: TraceResult): string {
  return t.action === null || t.action === 'allow' || t.action === 'log' || t.action === 'skip' ? 'origin' : t.action;
}

async function verdicts(zoneId: string, requests: readonly TraceRequest[]): Promise<string[]> {
  const out: string[] = [];
  for (const r of requests) out.push(verdict(await engine.trace(zoneId, r)));
  return out;
}

/** The engine, with its `n`-th write call (0-based, over the whole run) failing. */
function failingAt(n: number): { provider: Provider; writes: () => number } {
  let writes = 0;
  const provider = new Proxy(engine, {
    get(target, prop, receiver) {
      const value: unknown = Reflect.get(target, prop, receiver);
      if (typeof value !== 'function' || typeof prop !== 'string' || !/^(create|update|delete|put|patch)[A-Z]/.test(prop)) return value;
      return (...args: unknown[]) => {
        if (writes++ === n) return Promise.reject(new Error(`injected failure of ${prop}`));
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { provider, writes: () => writes };
}

describe('cutoverSteps', () => {
  it('stages the converted rules disabled, then enables them with the firewall rules kept, then is the rewritten manifest', () => {
    const text = generatedZone({ rules: 40, filters: 30, zone: 'steps.example.com' });
    const before = load(text);
    const up = upgradeFirewallManifest('zone.yaml', text, before);
    const steps = cutoverSteps(before, up.after!, up.conversion.customRules.map((r) => r.ref));
    expect(steps.map((s) => s.name)).toEqual(['stage', 'enable', 'remove']);
    expect(steps[0]!.desired.firewallRules).toEqual(before.firewallRules);
    expect(steps[0]!.desired.customRules!.every((r) => !r.enabled)).toBe(true);
    expect(steps[1]!.desired.filters).toEqual(before.filters);
    expect(steps[1]!.desired.customRules).toEqual(up.after!.customRules);
    expect(steps[2]!.desired).toBe(up.after);
  });
});

describe('runCutover on the embedded engine', () => {
  it('a zone of 200 firewall rules over 150 shared filters: no filter or firewall rule is left, verdicts are kept, the next plan is empty', async () => {
    const { before, up, zoneId } = await liveZone('many.example.com', 200, 150);
    const corpus = generateCorpus(before.filters.map((f) => f.expression), 'http_request_firewall_custom').slice(0, 300).map((c) => c.request);
    const old = await verdicts(zoneId, corpus);
    const steps = cutoverSteps(before, up.after!, up.conversion.customRules.map((r) => r.ref));
    expect(await runCutover(steps, engine, { force: false }, quiet)).toEqual({ done: true });
    const live = await engine.readZone(zoneId);
    expect(live.filters).toEqual([]);
    expect(live.firewallRules).toEqual([]);
    expect(hasChanges(diffZone(up.after!, await engine.readZone(zoneId, readsFor(up.after!)), {}))).toBe(false);
    expect(await verdicts(zoneId, corpus)).toEqual(old);
  });

  // Ten zones of 40 filters converted and cut over: generous on a loaded machine, and bounded.
  it('a write that fails in any step leaves a zone whose verdicts are the old ones; a re-run finishes', { timeout: 180_000 }, async () => {
    const { before, up } = await liveZone('probe.example.com', 40, 30);
    const steps = cutoverSteps(before, up.after!, up.conversion.customRules.map((r) => r.ref));
    // Batches of 4: the deletions take several writes, so a failure can land between two of them.
    const small = { force: false, batchSize: 4 };
    const counting = failingAt(-1);
    expect((await runCutover(steps, counting.provider, small, quiet)).done).toBe(true);
    const total = counting.writes();
    expect(total).toBeGreaterThan(10);
    const points = [0, 1, 2, 3, 4, Math.floor(total / 2), total - 3, total - 2, total - 1];
    for (const point of points) {
      const zone = `fail${point}.example.com`;
      const z = await liveZone(zone, 40, 30);
      const corpus = generateCorpus(z.before.filters.map((f) => f.expression), 'http_request_firewall_custom').slice(0, 200).map((c) => c.request);
      const old = await verdicts(z.zoneId, corpus);
      const zSteps = cutoverSteps(z.before, z.up.after!, z.up.conversion.customRules.map((r) => r.ref));
      const outcome = await runCutover(zSteps, failingAt(point).provider, small, quiet);
      expect(outcome, `failure at write ${point}`).toMatchObject({ done: false, reason: 'failed' });
      expect(await verdicts(z.zoneId, corpus), `verdicts after a failure at write ${point} (step ${outcome.stoppedAt})`).toEqual(old);
      const live = await engine.readZone(z.zoneId);
      const enabled = (live.customEntrypoint?.rules ?? []).filter((r) => r.enabled !== false).length;
      // Before the custom rules are enabled, every firewall rule is there.
      if (enabled === 0) expect(live.firewallRules.length).toBe(z.before.firewallRules.length);
      expect(await runCutover(zSteps, engine, { force: false }, quiet)).toEqual({ done: true });
      expect(hasChanges(diffZone(z.up.after!, await engine.readZone(z.zoneId, readsFor(z.up.after!)), {}))).toBe(false);
    }
  });

  it('the compare step stops before enable when the staged rules the zone holds would decide differently', async () => {
    const { before, up, zoneId } = await liveZone('compare.example.com', 40, 30);
    const steps = cutoverSteps(before, up.after!, up.conversion.customRules.map((r) => r.ref));
    // What the zone stores differs from the proved conversion: the first staged rule blocks everything.
    const [first, ...rest] = steps[0]!.desired.customRules!;
    const tampered = { ...first!, expression: 'true', action: 'block' as const, actionParameters: undefined };
    steps[0] = { ...steps[0]!, desired: { ...steps[0]!.desired, customRules: [tampered, ...rest] } };
    steps[1] = { ...steps[1]!, desired: { ...steps[1]!.desired, customRules: [{ ...tampered, enabled: true }, ...rest.map((r) => up.after!.customRules!.find((a) => a.ref === r.ref)!)] } };
    const written: string[] = [];
    const outcome = await runCutover(steps, engine, { force: false }, { write: (t) => written.push(t), confirm: async () => true });
    expect(outcome).toEqual({ done: false, stoppedAt: 'enable', reason: 'differs' });
    expect(written.join('')).toMatch(/Compare: \d+ of \d+ request\(s\) end differently/);
    const live = await engine.readZone(zoneId);
    expect(live.firewallRules.length).toBe(before.firewallRules.length);
    expect(live.customEntrypoint!.rules.every((r) => !r.enabled)).toBe(true);
  });

  it('the compare step resolves $name to the account\'s lists as read: a staged rule that no longer blocks a listed address stops the cutover', async () => {
    const text = `zone: compare-lists.example.com
plan: enterprise
firewall_rules:
  listed:
    action: block
    filter: { expression: 'ip.src in $compare_blocked' }
  scanners:
    action: block
    filter: { expression: 'http.user_agent contains "sqlmap"' }
`;
    const before = load(text);
    const up = upgradeFirewallManifest('zone.yaml', text, before);
    const { zone } = await engine.resolveZone(before.zone, { create: { plan: 'enterprise' } });
    const accountId = zone.account?.id ?? (await engine.resolveAccount('zonewall engine')).id;
    const list = await engine.createList(accountId, { name: 'compare_blocked', kind: 'ip' });
    await engine.waitForListOperation(accountId, await engine.addListItems(accountId, list.id, [{ ip: '203.0.113.0/24' }]), { sleep: async () => {} });
    expect((await applyZone(diffZone(before, await engine.readZone(zone.id, readsFor(before)), {}), engine, { force: true })).ok).toBe(true);
    const steps = cutoverSteps(before, up.after!, up.conversion.customRules.map((r) => r.ref));
    // The zone stores the listed rule as a log: a listed address would now reach the origin.
    const soften = (r: NonNullable<DesiredZone['customRules']>[number]) => (r.ref === 'listed' ? { ...r, action: 'log' as const, actionParameters: undefined } : r);
    steps[0] = { ...steps[0]!, desired: { ...steps[0]!.desired, customRules: steps[0]!.desired.customRules!.map(soften) } };
    steps[1] = { ...steps[1]!, desired: { ...steps[1]!.desired, customRules: steps[1]!.desired.customRules!.map(soften) } };
    const written: string[] = [];
    const listed: TraceRequest = { host: 'compare-lists.example.com', path: '/', ip: '203.0.113.7' };
    const outcome = await runCutover(steps, engine, { force: false, requests: [listed] }, { write: (t) => written.push(t), confirm: async () => true });
    expect(outcome).toEqual({ done: false, stoppedAt: 'enable', reason: 'differs' });
    expect(written.join('')).toContain('"ip":"203.0.113.7"');
    expect(written.join('')).toMatch(/203\.0\.113\.7.*: block -> origin/);
  });

  /** `engine` whose zones, as read, do not say their account. */
  function anonymous(): Provider {
    return Object.setPrototypeOf({
      ...engine,
      readZone: async (...args: Parameters<Provider['readZone']>) => {
        const live = await engine.readZone(...args);
        const { account: _account, ...zone } = live.zone;
        return { ...live, zone };
      },
    }, Object.getPrototypeOf(engine)) as Provider;
  }

  /** A zone whose listed firewall rule is staged as a log: a listed address would reach the origin after `enable`. */
  async function softenedListZone(name: string, list: string): Promise<CutoverStep[]> {
    const text = `zone: ${name}
plan: enterprise
firewall_rules:
  listed:
    action: block
    filter: { expression: 'ip.src in $${list}' }
`;
    const before = load(text);
    const up = upgradeFirewallManifest('zone.yaml', text, before);
    const { zone } = await engine.resolveZone(before.zone, { create: { plan: 'enterprise' } });
    const accountId = zone.account?.id ?? (await engine.resolveAccount('zonewall engine')).id;
    const created = await engine.createList(accountId, { name: list, kind: 'ip' });
    await engine.waitForListOperation(accountId, await engine.addListItems(accountId, created.id, [{ ip: '203.0.113.0/24' }]), { sleep: async () => {} });
    expect((await applyZone(diffZone(before, await engine.readZone(zone.id, readsFor(before)), {}), engine, { force: true })).ok).toBe(true);
    const steps = cutoverSteps(before, up.after!, up.conversion.customRules.map((r) => r.ref));
    const soften = (r: NonNullable<DesiredZone['customRules']>[number]) => (r.ref === 'listed' ? { ...r, action: 'log' as const, actionParameters: undefined } : r);
    for (const i of [0, 1]) steps[i] = { ...steps[i]!, desired: { ...steps[i]!.desired, customRules: steps[i]!.desired.customRules!.map(soften) } };
    return steps;
  }

  it('the compare step on a service that does not say the zone\'s account, with the run\'s account manifest: that account\'s lists are read, the difference stops the cutover, and a note says whose lists', async () => {
    const steps = await softenedListZone('compare-anon-account.example.com', 'anon_blocked');
    const written: string[] = [];
    const listed: TraceRequest = { host: 'compare-anon-account.example.com', path: '/', ip: '203.0.113.7' };
    const outcome = await runCutover(steps, anonymous(), { force: false, requests: [listed], account: 'zonewall engine' }, { write: (t) => written.push(t), confirm: async () => true });
    expect(outcome).toEqual({ done: false, stoppedAt: 'enable', reason: 'differs' });
    expect(written.join('')).toMatch(/203\.0\.113\.7.*: block -> origin/);
    expect(written.join('')).toContain('Note: $anon_blocked: the service does not say the zone\'s account, so where zonewall evaluates the rules itself these are the lists of the account manifest\'s account "zonewall engine", read through the provider\n');
  });

  it('the compare step on a service that does not say the zone\'s account, without an account manifest: the lists are not read, and a note says $name matched nothing', async () => {
    const steps = await softenedListZone('compare-anon.example.com', 'anon_only_blocked');
    const written: string[] = [];
    const listed: TraceRequest = { host: 'compare-anon.example.com', path: '/', ip: '203.0.113.7' };
    await runCutover(steps, anonymous(), { force: false, requests: [listed] }, { write: (t) => written.push(t), confirm: async (step) => step.name === 'stage' });
    expect(written.join('')).toContain('Note: $anon_only_blocked: the service does not say the zone\'s account, so its lists were not read: where zonewall evaluates the rules itself (the service has no tracer, or a burst has no route) these match nothing, ');
  });

  it('the compare step passes on a faithful stage and says so', async () => {
    const { before, up } = await liveZone('compare-ok.example.com', 40, 30);
    const written: string[] = [];
    const steps = cutoverSteps(before, up.after!, up.conversion.customRules.map((r) => r.ref));
    expect(await runCutover(steps, engine, { force: false }, { write: (t) => written.push(t), confirm: async () => true })).toEqual({ done: true });
    expect(written.join('')).toMatch(/Compare: \d+ request\(s\) traced through the zone's firewall rules and through its staged custom rules: every verdict is the same\./);
  });
});
