/**
 * The provider contract for managed-rules exceptions in the `http_request_firewall_managed` entry
 * point, run by `contract.suite.ts` on every implementation and runtime: a PUT with a skip rule
 * before an execute rule is read back in order with its parameters; a second PUT that sends the
 * rules with their ids keeps them (and inserts a new exception); single-rule POST (with `position`),
 * PATCH and DELETE of an exception cost one request each and keep the other rules' ids; an exception
 * naming a rule the managed ruleset lacks is refused with 20202 and changes nothing. Only loaded by
 * vitest through `providerContract`.
 */
import { expect, it } from 'vitest';
import { ManagedPhase } from '../api/index.js';
import type { EntrypointRule, LiveEntrypoint, LiveZoneInfo, SkipEntrypointRule } from '../plan/index.js';
import type { Provider } from './provider.js';
import { ServiceError } from './v4/errors.js';

const Managed = 'efb7b8c949ac4650a09736fc376e9aee';
const Owasp = '4814384a9e5d4991b9815dcfc25d2f1f';
/** "Vulnerability scanner activity" of the Cloudflare Managed Ruleset. */
const Scanner = '0242110ae62e44028a13bf4834780914';

const execute = (ref: string, id: string): EntrypointRule => ({ action: 'execute', ref, expression: 'true', enabled: true, action_parameters: { id } });
const office: EntrypointRule = { action: 'skip', ref: 'office', expression: 'ip.src in {198.51.100.0/24}', enabled: true, action_parameters: { ruleset: 'current' }, logging: { enabled: false } };
const scanner: SkipEntrypointRule = { action: 'skip', ref: 'scanner', expression: 'ip.src eq 203.0.113.50', enabled: true, action_parameters: { rules: { [Managed]: [Scanner] } } };
const shape = (rules: readonly EntrypointRule[]) => rules.map((r) => [r.ref, r.action, r.action_parameters]);

/** Registers the managed-exceptions tests; `ctx` gives the provider and the zone of the current test. */
export function managedExceptionsContract(ctx: () => { provider: Provider; zone: LiveZoneInfo }): void {
  const requestsOf = async (fn: () => Promise<unknown>): Promise<number> => {
    const { provider } = ctx();
    const before = provider.stats.requests;
    await fn();
    return provider.stats.requests - before;
  };

  it('managed exceptions: a PUT with a skip rule before the executes reads back in order; a second PUT keeps the ids', async () => {
    const { provider, zone } = ctx();
    const put = await provider.putPhase<LiveEntrypoint>(zone.id, ManagedPhase, { rules: [office, execute('managed', Managed), execute('owasp', Owasp)] });
    // The service fills `version: "latest"` into an execute rule's parameters.
    const expected = [['office', 'skip', { ruleset: 'current' }], ['managed', 'execute', { id: Managed, version: 'latest' }], ['owasp', 'execute', { id: Owasp, version: 'latest' }]];
    expect(shape(put.rules)).toEqual(expected);
    const live = await provider.readZone(zone.id);
    expect(shape(live.entrypoint!.rules)).toEqual(expected);
    expect(live.entrypoint!.rules[0]).toMatchObject({ logging: { enabled: false } });
    const ids = put.rules.map((r) => r.id!);
    const withIds = put.rules.map((r) => ({ id: r.id!, ref: r.ref!, action: r.action, expression: r.expression, enabled: r.enabled, action_parameters: r.action_parameters } as EntrypointRule));
    const again = await provider.putPhase<LiveEntrypoint>(zone.id, ManagedPhase, { rules: [withIds[0]!, scanner, withIds[1]!, withIds[2]!] });
    expect(again.rules.map((r) => r.ref)).toEqual(['office', 'scanner', 'managed', 'owasp']);
    expect(again.rules.map((r) => r.id)).toEqual([ids[0], expect.stringMatching(/^[0-9a-f]{32}$/), ids[1], ids[2]]);
    expect(Number(again.version)).toBeGreaterThan(Number(put.version));
    expect((await provider.readZone(zone.id)).entrypoint!.rules.map((r) => r.id)).toEqual(again.rules.map((r) => r.id));
  });

  it('managed exceptions: single-rule POST before the execute, PATCH and DELETE cost one request each and keep ids', async () => {
    const { provider, zone } = ctx();
    const entry = await provider.putPhase<LiveEntrypoint>(zone.id, ManagedPhase, { rules: [execute('managed', Managed)] });
    const executeId = entry.rules[0]!.id!;
    let result = entry;
    expect(await requestsOf(async () => { result = await provider.createPhaseRule<LiveEntrypoint>(zone.id, ManagedPhase, entry.id, office, { before: executeId }); })).toBe(1);
    expect(result.rules.map((r) => [r.ref, r.action])).toEqual([['office', 'skip'], ['managed', 'execute']]);
    expect(result.rules[1]!.id).toBe(executeId);
    const officeId = result.rules[0]!.id!;
    expect(await requestsOf(async () => { result = await provider.updatePhaseRule<LiveEntrypoint>(zone.id, ManagedPhase, entry.id, officeId, { body: { ...scanner, ref: 'office' } }); })).toBe(1);
    expect(result.rules[0]).toMatchObject({ id: officeId, ref: 'office', action_parameters: { rules: { [Managed]: [Scanner] } } });
    expect((await provider.readZone(zone.id)).entrypoint!.rules.map((r) => r.id)).toEqual([officeId, executeId]);
    expect(await requestsOf(async () => { result = await provider.deletePhaseRule<LiveEntrypoint>(zone.id, ManagedPhase, entry.id, officeId); })).toBe(1);
    expect(result.rules.map((r) => r.id)).toEqual([executeId]);
  });

  it('managed exceptions: an exception naming a rule the managed ruleset lacks is refused with 20202 and changes nothing', async () => {
    const { provider, zone } = ctx();
    const entry = await provider.putPhase<LiveEntrypoint>(zone.id, ManagedPhase, { rules: [execute('managed', Managed)] });
    const bad: SkipEntrypointRule = { ...scanner, action_parameters: { rules: { [Managed]: ['0'.repeat(32)] } } };
    for (const write of [
      () => provider.putPhase<LiveEntrypoint>(zone.id, ManagedPhase, { rules: [bad, execute('managed', Managed)] }),
      () => provider.createPhaseRule<LiveEntrypoint>(zone.id, ManagedPhase, entry.id, bad, { before: '' }),
    ]) {
      const refused = await write().catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(ServiceError);
      expect([(refused as ServiceError).status, (refused as ServiceError).errors.map((e) => e.code)]).toEqual([400, [20202]]);
    }
    expect((await provider.readZone(zone.id)).entrypoint).toMatchObject({ version: entry.version, rules: [{ id: entry.rules[0]!.id }] });
  });
}
