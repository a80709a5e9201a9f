/**
 * The one contract every `Provider` implementation runs (after hono's `router/common.case.test.ts`):
 * zone resolution, reading a zone, batched writes of filters and firewall rules with the request
 * counts the design promises (ceil(N / 100) per resource type, never one per object), the
 * service's refusals passed through with their codes, the entry point, the custom rules phase
 * (`contract-custom.suite.ts`), managed-rules exceptions (`contract-managed.suite.ts`), the previous WAF and the migration calls. `test/providers/engine.test.ts` and `http.test.ts` run it; this file holds no test
 * of its own and is only loaded by vitest.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ManagedPhase } from '../api/index.js';
import type { FilterBody, FirewallRuleBody, LiveEntrypoint, LiveZone, LiveZoneInfo, PlanTier } from '../plan/index.js';
import { customPhaseContract } from './contract-custom.suite.js';
import { managedExceptionsContract } from './contract-managed.suite.js';
import type { Provider } from './provider.js';
import { V4Codes, V4Limits } from './v4/constants.js';
import { ServiceError } from './v4/errors.js';

/** What the suite needs from an implementation's test file. */
export interface ContractHarness {
  provider: Provider;
  /** Creates a zone on the service behind the provider (the HTTP provider never creates zones). */
  createZone(name: string, plan: PlanTier): Promise<LiveZoneInfo>;
  /** One raw v4 call to the same service, to build state the provider would not (the simplified flow). */
  raw(method: string, path: string, body?: unknown): Promise<{ status: number; body: { success: boolean; result: unknown } }>;
  /** The service answers with the real API's shapes only (`serve --strict`): no `locked`, no `plan_tier`. */
  strict?: boolean;
  close(): Promise<void>;
}

const pages = (n: number) => Math.max(1, Math.ceil(n / V4Limits.perPage));
const batches = (n: number) => Math.ceil(n / V4Limits.batchSize);

/** Filter bodies with distinct expressions and refs. */
export function filterBodies(n: number, prefix = 'f'): FilterBody[] {
  return Array.from({ length: n }, (_, i) => ({ expression: `http.request.uri.path eq "/${prefix}/${i}"`, paused: false, ref: `${prefix}-${i}`, description: `filter ${i}` }));
}

/** The most requests `readZone` may make for what it returned: one list per resource type. */
export function readBudget(live: LiveZone): number {
  let budget = 1 /* migration status */ + pages(live.filters.length) + pages(live.firewallRules.length) + 3 /* managed, custom and rate limiting entry points */ + 1 /* Page Rules */;
  if (live.previousWaf !== null) {
    budget += 1 + pages(live.previousWaf.overrides.length);
    for (const p of live.previousWaf.packages) {
      budget += pages(live.previousWaf.groups.filter((g) => g.package_id === p.id).length);
      budget += pages(live.previousWaf.rules.filter((r) => r.package_id === p.id).length);
    }
  } else {
    budget += 1; // the package list that answered "no previous WAF"
  }
  return budget;
}

/** Registers the provider contract under `describe(name)`. */
export function providerContract(name: string, open: () => Promise<ContractHarness>): void {
  describe(`Provider contract: ${name}`, () => {
    let h: ContractHarness;
    let zone: LiveZoneInfo;
    beforeEach(async () => {
      h = await open();
      zone = await h.createZone('contract.example', 'enterprise');
    });
    afterEach(async () => {
      await h.close();
    });

    const requestsOf = async (fn: () => Promise<unknown>): Promise<number> => {
      const before = h.provider.stats.requests;
      await fn();
      return h.provider.stats.requests - before;
    };

    it('resolves a zone by name and by id, and names a zone it cannot find', async () => {
      expect((await h.provider.resolveZone('contract.example')).zone).toMatchObject({ id: zone.id, name: 'contract.example', plan: 'enterprise' });
      expect((await h.provider.resolveZone(zone.id)).missing).toBe(false);
      await expect(h.provider.resolveZone('missing.example')).rejects.toThrow(/zone "missing\.example" not found/);
      expect(h.provider.description).not.toMatch(/token|key/i);
    });

    it('reads an empty zone', async () => {
      const live = await h.provider.readZone(zone.id);
      expect(live.zone.id).toBe(zone.id);
      expect(live.filters).toEqual([]);
      expect(live.firewallRules).toEqual([]);
      expect(live.entrypoint).toBeNull();
      expect(live.customEntrypoint).toBeNull();
    });

    it('writes filters and firewall rules in batches and reads them in pages', async () => {
      const n = 130;
      let filters = await h.provider.createFilters(zone.id, []);
      expect(await requestsOf(async () => { filters = await h.provider.createFilters(zone.id, filterBodies(n)); })).toBe(batches(n));
      expect(filters.map((f) => f.ref)).toEqual(filterBodies(n).map((f) => f.ref));
      const rules: FirewallRuleBody[] = filters.map((f, i) => ({ action: 'block', priority: i + 1, paused: false, ref: `r-${i}`, filter: { id: f.id } }));
      const created = await h.provider.createFirewallRules(zone.id, rules);
      expect(created.map((r) => r.filter.id)).toEqual(filters.map((f) => f.id));

      let live!: LiveZone;
      const reads = await requestsOf(async () => { live = await h.provider.readZone(zone.id); });
      expect(live.filters).toHaveLength(n);
      expect(live.firewallRules).toHaveLength(n);
      expect(reads).toBeLessThanOrEqual(readBudget(live));

      const updates = created.map((r) => ({ ...rules[0], ref: r.ref, filter: { id: r.filter.id }, id: r.id, action: 'challenge' as const, priority: r.priority }));
      expect(await requestsOf(() => h.provider.updateFirewallRules(zone.id, updates))).toBe(batches(n));
      const filterUpdates = filters.map((f) => ({ id: f.id, expression: f.expression, paused: true, ref: f.ref }));
      expect(await requestsOf(() => h.provider.updateFilters(zone.id, filterUpdates))).toBe(batches(n));
      const after = await h.provider.readZone(zone.id);
      expect(after.firewallRules.every((r) => r.action === 'challenge')).toBe(true);
      expect(after.filters.every((f) => f.paused)).toBe(true);

      expect(await requestsOf(() => h.provider.deleteFirewallRules(zone.id, created.map((r) => r.id)))).toBe(batches(n));
      expect(await requestsOf(() => h.provider.deleteFilters(zone.id, filters.map((f) => f.id)))).toBe(batches(n));
      const empty = await h.provider.readZone(zone.id);
      expect(empty.filters).toEqual([]);
      expect(empty.firewallRules).toEqual([]);
    });

    it('passes refusals through with the service code, and a refused batch creates nothing', async () => {
      await h.provider.createFilters(zone.id, filterBodies(1));
      const err = await h.provider.createFilters(zone.id, [...filterBodies(2, 'g'), { ...filterBodies(1)[0], ref: 'dup' }]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).hasCode(10102)).toBe(true);
      expect((err as ServiceError).code).toBe('ERR_API');
      expect((await h.provider.readZone(zone.id)).filters).toHaveLength(1);
    });

    it('shows a filter of the simplified flow as locked where the service says so, and the service refuses to update it (10104)', async () => {
      const res = await h.raw('POST', `/zones/${zone.id}/firewall/rules`, [{ action: 'block', filter: { expression: 'ip.src eq 192.0.2.7' } }]);
      expect(res.body.success).toBe(true);
      const live = await h.provider.readZone(zone.id);
      expect(live.filters).toHaveLength(1);
      // Without zonewall's extensions the provider cannot know, and says so for the planner.
      expect(live.filterLocks).toBe(h.strict === true ? 'unknown' : 'reported');
      expect(live.filters[0].locked).toBe(h.strict === true ? undefined : true);
      expect(live.zone.plan).toBe('enterprise');
      expect(live.firewallRules[0].filter.id).toBe(live.filters[0].id);
      const f = live.filters[0];
      const err = await h.provider.updateFilters(zone.id, [{ id: f.id, expression: f.expression, paused: false, ref: 'x' }]).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceError);
      expect((err as ServiceError).status).toBe(400);
      expect((err as ServiceError).hasCode(V4Codes.filterLocked)).toBe(true);
    });

    it('deletes rules with their filters only when asked (delete_filter_if_unused)', async () => {
      await h.raw('POST', `/zones/${zone.id}/firewall/rules`, [
        { action: 'block', filter: { expression: 'ip.src eq 192.0.2.8' } }, { action: 'block', filter: { expression: 'ip.src eq 192.0.2.9' } },
      ]);
      const [kept, taken] = (await h.provider.readZone(zone.id)).firewallRules;
      await h.provider.deleteFirewallRules(zone.id, [kept!.id]);
      await h.provider.deleteFirewallRules(zone.id, [taken!.id], { deleteFilterIfUnused: true });
      const live = await h.provider.readZone(zone.id);
      expect(live.firewallRules).toEqual([]);
      expect(live.filters.map((f) => f.id)).toEqual([kept!.filter.id]);
    });

    it('deletes unknown ids without error', async () => {
      await h.provider.deleteFilters(zone.id, ['0'.repeat(32)]);
      await h.provider.deleteFirewallRules(zone.id, ['0'.repeat(32)]);
    });

    it('reads the previous WAF and patches packages, groups and rules', async () => {
      const before = await h.provider.readZone(zone.id);
      const waf = before.previousWaf!;
      const owasp = waf.packages.find((p) => p.detection_mode === 'anomaly')!;
      const group = waf.groups[0];
      const rule = waf.rules.find((r) => r.allowed_modes.includes('off') && r.mode !== 'off') ?? waf.rules.find((r) => r.allowed_modes.includes('disable'))!;
      const mode = rule.allowed_modes.includes('off') ? 'off' : 'disable';
      await h.provider.patchWafPackage(zone.id, owasp.id, { sensitivity: 'low', action_mode: 'simulate' });
      await h.provider.patchWafGroup(zone.id, group.package_id, group.id, group.mode === 'on' ? 'off' : 'on');
      await h.provider.patchWafRule(zone.id, rule.package_id, rule.id, mode);
      const after = (await h.provider.readZone(zone.id)).previousWaf!;
      expect(after.packages.find((p) => p.id === owasp.id)).toMatchObject({ sensitivity: 'low', action_mode: 'simulate' });
      expect(after.groups.find((g) => g.id === group.id)?.mode).toBe(group.mode === 'on' ? 'off' : 'on');
      expect(after.rules.find((r) => r.id === rule.id)?.mode).toBe(mode);
      const err = await h.provider.patchWafRule(zone.id, rule.package_id, rule.id, 'nonsense').catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ServiceError);
    });

    it('deletes a URI-based WAF override', async () => {
      const rule = (await h.provider.readZone(zone.id)).previousWaf!.rules[0];
      const res = await h.raw('POST', `/zones/${zone.id}/firewall/waf/overrides`, { urls: ['shop.example.com/*'], rules: { [rule.id]: 'disable' } });
      expect(res.body.success).toBe(true);
      const overrides = (await h.provider.readZone(zone.id)).previousWaf!.overrides;
      expect(overrides).toHaveLength(1);
      await h.provider.deleteWafOverride(zone.id, overrides[0].id);
      expect((await h.provider.readZone(zone.id)).previousWaf!.overrides).toEqual([]);
    });

    it('puts the managed entry point and reads it back', async () => {
      const body = { rules: [{ action: 'execute' as const, expression: 'true', ref: 'managed', enabled: true, action_parameters: { id: 'efb7b8c949ac4650a09736fc376e9aee' } }] };
      const put = await h.provider.putPhase<LiveEntrypoint>(zone.id, ManagedPhase, body);
      expect(put.rules.map((r) => r.ref)).toEqual(['managed']);
      const live = await h.provider.readZone(zone.id);
      expect(live.entrypoint?.rules.map((r) => [r.ref, r.action === 'execute' ? r.action_parameters.id : r.action])).toEqual([['managed', 'efb7b8c949ac4650a09736fc376e9aee']]);
    });

    it('runs the migration: check, config, validation, pending; then the previous WAF is gone', async () => {
      const check = await h.provider.checkMigration(zone.id);
      expect(check.compatible).toBe(true);
      const config = await h.provider.migrationConfig(zone.id);
      expect(config.rules.length).toBeGreaterThan(0);
      expect((await h.provider.migrationStatus(zone.id)).waf_state).toBe('previous_only');
      await h.provider.putPhase<LiveEntrypoint>(zone.id, ManagedPhase, config, { step: 'validation' });
      expect((await h.provider.migrationStatus(zone.id)).waf_state).toBe('both');
      await h.provider.putPhase<LiveEntrypoint>(zone.id, ManagedPhase, config, { step: 'pending' });
      expect((await h.provider.migrationStatus(zone.id)).waf_state).toBe('new_only');
      const live = await h.provider.readZone(zone.id);
      expect(live.previousWaf).toBeNull();
      expect(live.migration?.waf_state).toBe('new_only');
      expect(live.entrypoint?.rules.length).toBe(config.rules.length);
    });

    customPhaseContract(() => ({ provider: h.provider, zone }));
    managedExceptionsContract(() => ({ provider: h.provider, zone }));

    it('estimates the time a number of requests takes (never negative)', () => {
      const estimate = h.provider.estimateSeconds?.(10) ?? 0;
      expect(estimate).toBeGreaterThanOrEqual(0);
    });
  });
}
