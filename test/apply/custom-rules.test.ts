/**
 * Apply of the custom phase on the embedded engine: the entry point created by one PUT, then
 * single-rule calls for a few changes (a new rule placed after another new rule, named by ref until
 * it exists; a move; a delete), then one PUT for many; each converges, keeps the ids of kept rules,
 * and reports one outcome per change. A refused call stops the apply and says what was applied.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CustomPhase } from '../../src/api/index.js';
import { runPlan } from '../../src/apply/index.js';
import { hasChanges } from '../../src/plan/index.js';
import { customWriteOf, dCustom, desired } from '../plan/fixtures.js';
import { engineFixture, type EngineFixture } from './engine-fixture.js';

let fx: EngineFixture;
beforeEach(async () => { fx = await engineFixture(); });
afterEach(async () => { await fx.close(); });

const rule = (ref: string) => dCustom(ref, `http.request.uri.path eq "/${ref}"`);
const zoneOf = (refs: string[]) => desired({ customRules: refs.map(rule) });
const live = async () => (await fx.provider.readZone(fx.zoneId)).customEntrypoint!.rules.map((r) => [r.ref, r.id] as const);

describe('apply of custom rules', () => {
  it('creates the phase with one PUT, then writes a few changes rule by rule, keeping ids', async () => {
    const first = await runPlan(await fx.plan(zoneOf(['a', 'b', 'c', 'd'])), fx.provider);
    expect([first.ok, first.requests]).toEqual([true, 1]);
    const ids = new Map(await live());
    const plan = await fx.plan(zoneOf(['x', 'y', 'a', 'c', 'd']));
    expect(customWriteOf(plan)?.strategy).toBe('rules');
    const result = await runPlan(plan, fx.provider);
    expect(result.ok).toBe(true);
    expect(result.requests).toBe(3);
    expect(result.outcomes.map((o) => [o.ref, o.action, o.status])).toEqual([['x', 'create', 'applied'], ['y', 'create', 'applied'], ['b', 'delete', 'applied']]);
    const after = await live();
    expect(after.map(([ref]) => ref)).toEqual(['x', 'y', 'a', 'c', 'd']);
    expect(after.filter(([ref]) => ids.has(ref!)).every(([ref, id]) => ids.get(ref) === id)).toBe(true);
    expect(hasChanges(await fx.plan(zoneOf(['x', 'y', 'a', 'c', 'd'])))).toBe(false);
  });

  it('writes many changes as one PUT that keeps every id', async () => {
    await runPlan(await fx.plan(zoneOf(['a', 'b', 'c', 'd', 'e'])), fx.provider);
    const ids = new Map(await live());
    const plan = await fx.plan(zoneOf(['e', 'd', 'c', 'b', 'a', 'f']));
    expect(customWriteOf(plan)?.strategy).toBe('put');
    const result = await runPlan(plan, fx.provider);
    expect([result.ok, result.requests]).toEqual([true, 1]);
    expect((await live()).filter(([ref]) => ref !== 'f').every(([ref, id]) => ids.get(ref) === id)).toBe(true);
    expect(hasChanges(await fx.plan(zoneOf(['e', 'd', 'c', 'b', 'a', 'f'])))).toBe(false);
  });

  it('stops at a refused call and reports what was applied', async () => {
    await runPlan(await fx.plan(zoneOf(['a', 'b'])), fx.provider);
    const plan = await fx.plan(zoneOf(['a', 'b', 'c']));
    // The rule is removed behind the plan's back, so the position `after: b` names a rule that is gone.
    const entry = (await fx.provider.readZone(fx.zoneId)).customEntrypoint!;
    await fx.provider.deletePhaseRule(fx.zoneId, CustomPhase, entry.id, entry.rules[1]!.id);
    const result = await runPlan(plan, fx.provider);
    expect(result.ok).toBe(false);
    expect(result.outcomes.map((o) => [o.ref, o.status])).toEqual([['c', 'failed']]);
    expect(result.error?.phase).toBe('custom_rules');
  });
});
