/**
 * The provider contract for the `http_request_firewall_custom` phase, run by `contract.suite.ts` on
 * every implementation: no entry point reads as null; the PUT creates it and keeps the ids of rules
 * sent with their id; single-rule POST, PATCH (body, position, or both) and DELETE each cost one
 * request and answer the whole ruleset; refusals come through with the service's code; a bad PUT
 * changes nothing; deleting a rule that is already gone is not an error. Only loaded by vitest through `providerContract`.
 */
import { expect, it } from 'vitest';
import { CustomPhase } from '../api/index.js';
import type { CustomRuleBody, LiveCustomEntrypoint, LiveZoneInfo } from '../plan/index.js';
import type { Provider } from './provider.js';
import { ServiceError } from './v4/errors.js';

const rule = (ref: string, more: Partial<CustomRuleBody> = {}): CustomRuleBody =>
  ({ ref, action: 'block', expression: `http.request.uri.path eq "/${ref}"`, enabled: true, ...more });

/** Registers the custom phase tests; `ctx` gives the provider and the zone of the current test. */
export function customPhaseContract(ctx: () => { provider: Provider; zone: LiveZoneInfo }): void {
  const requestsOf = async (fn: () => Promise<unknown>): Promise<number> => {
    const { provider } = ctx();
    const before = provider.stats.requests;
    await fn();
    return provider.stats.requests - before;
  };

  it('custom phase: no entry point reads as null; one PUT creates it and later PUTs keep ids', async () => {
    const { provider, zone } = ctx();
    expect((await provider.readZone(zone.id)).customEntrypoint).toBeNull();
    const created = await provider.putPhase<LiveCustomEntrypoint>(zone.id, CustomPhase, { rules: [rule('a'), rule('b', { action: 'managed_challenge' })] });
    expect(created).toMatchObject({ kind: 'zone', phase: 'http_request_firewall_custom' });
    expect(created.rules.map((r) => [r.ref, r.action])).toEqual([['a', 'block'], ['b', 'managed_challenge']]);
    const [a, b] = created.rules;
    const again = await provider.putPhase<LiveCustomEntrypoint>(zone.id, CustomPhase, { rules: [{ ...rule('b'), id: b!.id }, { ...rule('a', { enabled: false }), id: a!.id }] });
    expect(again.rules.map((r) => [r.ref, r.id, r.enabled])).toEqual([['b', b!.id, true], ['a', a!.id, false]]);
    expect(Number(again.version)).toBeGreaterThan(Number(created.version));
    const live = await provider.readZone(zone.id);
    expect(live.customEntrypoint?.rules.map((r) => r.id)).toEqual([b!.id, a!.id]);
  });

  it('custom phase: single-rule POST, PATCH and DELETE cost one request each and place rules by position', async () => {
    const { provider, zone } = ctx();
    const entry = await provider.putPhase<LiveCustomEntrypoint>(zone.id, CustomPhase, { rules: [rule('a'), rule('b'), rule('c')] });
    const ids = Object.fromEntries(entry.rules.map((r) => [r.ref!, r.id]));
    let result = entry;
    expect(await requestsOf(async () => { result = await provider.createPhaseRule<LiveCustomEntrypoint>(zone.id, CustomPhase, entry.id, rule('new', { action: 'skip', action_parameters: { ruleset: 'current' } }), { index: 1 }); })).toBe(1);
    expect(result.rules.map((r) => r.ref)).toEqual(['new', 'a', 'b', 'c']);
    expect(await requestsOf(async () => { result = await provider.updatePhaseRule<LiveCustomEntrypoint>(zone.id, CustomPhase, entry.id, ids.c!, { position: { after: ids.a! } }); })).toBe(1);
    expect(result.rules.map((r) => [r.ref, r.id])).toEqual([['new', expect.any(String)], ['a', ids.a], ['c', ids.c], ['b', ids.b]]);
    result = await provider.updatePhaseRule<LiveCustomEntrypoint>(zone.id, CustomPhase, entry.id, ids.b!, { body: rule('b', { action: 'js_challenge', description: 'edited' }) });
    expect(result.rules.find((r) => r.id === ids.b)).toMatchObject({ action: 'js_challenge', description: 'edited', ref: 'b' });
    expect(await requestsOf(async () => { result = await provider.deletePhaseRule<LiveCustomEntrypoint>(zone.id, CustomPhase, entry.id, ids.a!); })).toBe(1);
    expect(result.rules.map((r) => r.ref)).toEqual(['new', 'c', 'b']);
  });

  it('custom phase: refusals come through with the service code, and a refused PUT changes nothing', async () => {
    const { provider, zone } = ctx();
    const entry = await provider.putPhase<LiveCustomEntrypoint>(zone.id, CustomPhase, { rules: [rule('a')] });
    const bad = await provider.putPhase<LiveCustomEntrypoint>(zone.id, CustomPhase, { rules: [rule('a'), rule('b', { expression: 'http.hots eq "x"' })] }).catch((e: unknown) => e);
    expect(bad).toBeInstanceOf(ServiceError);
    expect((bad as ServiceError).status).toBe(400);
    const missing = await provider.updatePhaseRule<LiveCustomEntrypoint>(zone.id, CustomPhase, entry.id, '0'.repeat(32), { position: { index: 1 } }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(ServiceError);
    expect((missing as ServiceError).status).toBe(404);
    // A DELETE of a rule that is gone (a retry whose first answer was lost) is done, not an error.
    expect((await provider.deletePhaseRule<LiveCustomEntrypoint>(zone.id, CustomPhase, entry.id, '0'.repeat(32))).rules.map((r) => r.ref)).toEqual(['a']);
    expect((await provider.readZone(zone.id)).customEntrypoint?.rules.map((r) => r.ref)).toEqual(['a']);
  });
}
