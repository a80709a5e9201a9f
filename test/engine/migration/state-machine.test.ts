import { describe, expect, it } from 'vitest';
import {
  entrypointTransition,
  migrationStateOf,
  parseMigrationMode,
  parsePhase,
  refusal,
  type MigrationMode,
  type TransitionInput,
  type WafState,
} from '../../../src/engine/migration/state-machine.js';
import type { PlanTier } from '../../../src/engine/types.js';

function run(state: WafState, plan: PlanTier, mode: MigrationMode | undefined, extra: Partial<TransitionInput> = {}) {
  return entrypointTransition({ state, plan, mode, anyRuleEnabled: true, anyExecuteEnabled: true, blockers: [], ...extra });
}
function codeOf(result: ReturnType<typeof run>): number | undefined {
  return result.ok ? undefined : result.refusals[0]!.code;
}

describe('waf_migration values', () => {
  it.each([['pending', 'pending'], ['1', 'pending'], ['validation', 'validation'], ['2', 'validation'], [null, undefined], ['', undefined]] as const)(
    '%s -> %s', (raw, mode) => expect(parseMigrationMode(raw)).toBe(mode),
  );

  it('refuses anything else with 11008', () => {
    expect(parseMigrationMode('3')).toMatchObject({ code: 11008, status: 400 });
    expect(parseMigrationMode('Pending')).toMatchObject({ code: 11008 });
  });
});

describe('phase_two values', () => {
  it.each([['1', 2], ['true', 2], [null, 1], ['', 1], ['0', 1], ['false', 1]] as const)('%s -> phase %s', (raw, phase) => expect(parsePhase(raw)).toBe(phase));
  it('refuses anything else with 11015', () => expect(parsePhase('2')).toMatchObject({ code: 11015, status: 400 }));
});

describe('pending needs an enabled execute rule (11014)', () => {
  it.each(['previous_only', 'both'] as const)('%s + pending without one is refused, with the other reasons', (state) => {
    const result = run(state, 'enterprise', 'pending', { anyExecuteEnabled: false, anyRuleEnabled: false, blockers: [refusal('uriOverrides', 'x')] });
    expect(result.ok ? [] : result.refusals.map((r) => r.code)).toEqual([11001, 11014]);
    expect(result.ok ? '' : result.refusals[1]!.message).toContain('at least one enabled execute rule');
  });
  it('validation without one is still allowed (the previous WAF keeps running)', () => {
    expect(run('previous_only', 'enterprise', 'validation', { anyExecuteEnabled: false })).toEqual({ ok: true, next: 'both' });
  });
});

describe('state table of seed 002', () => {
  it('previous only + validation, Enterprise, compatible -> both', () => {
    expect(run('previous_only', 'enterprise', 'validation')).toEqual({ ok: true, next: 'both' });
  });
  it('both + pending -> new only', () => {
    expect(run('both', 'enterprise', 'pending')).toEqual({ ok: true, next: 'new_only' });
  });
  it.each(['pro', 'business', 'enterprise'] as const)('previous only + pending, %s -> new only', (plan) => {
    expect(run('previous_only', plan, 'pending')).toEqual({ ok: true, next: 'new_only' });
  });
  it('new only is final: validation is refused, pending is a plain PUT', () => {
    expect(codeOf(run('new_only', 'enterprise', 'validation'))).toBe(11005);
    expect(run('new_only', 'enterprise', 'pending')).toEqual({ ok: true, next: 'new_only' });
    expect(run('new_only', 'pro', undefined)).toEqual({ ok: true, next: 'new_only' });
  });
  it('validation stays in both when already there', () => {
    expect(run('both', 'enterprise', 'validation')).toEqual({ ok: true, next: 'both' });
  });
});

describe('conditions', () => {
  it.each(['pro', 'business'] as const)('validation mode is Enterprise only (%s refused with 11004, 403)', (plan) => {
    const result = run('previous_only', plan, 'validation');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.refusals[0]).toMatchObject({ code: 11004, status: 403 });
  });

  it('a blocked zone cannot leave previous only, nor finish from both', () => {
    const blockers = [refusal('uriOverrides', 'has overrides')];
    expect(run('previous_only', 'enterprise', 'validation', { blockers })).toEqual({ ok: false, refusals: blockers });
    expect(run('previous_only', 'pro', 'pending', { blockers })).toEqual({ ok: false, refusals: blockers });
    expect(run('both', 'enterprise', 'pending', { blockers })).toEqual({ ok: false, refusals: blockers });
  });

  it('Free zones cannot migrate but may deploy enabled rules', () => {
    expect(codeOf(run('previous_only', 'free', 'pending'))).toBe(11006);
    expect(run('previous_only', 'free', undefined)).toEqual({ ok: true, next: 'previous_only' });
  });

  it.each(['pro', 'business'] as const)('%s before migrating may only PUT disabled rules', (plan) => {
    expect(codeOf(run('previous_only', plan, undefined))).toBe(11007);
    expect(run('previous_only', plan, undefined, { anyRuleEnabled: false })).toEqual({ ok: true, next: 'previous_only' });
  });

  it('Enterprise may enable rules before migrating', () => {
    expect(run('previous_only', 'enterprise', undefined)).toEqual({ ok: true, next: 'previous_only' });
  });

  it('names the migration states', () => {
    expect([migrationStateOf('previous_only'), migrationStateOf('both'), migrationStateOf('new_only')]).toEqual(['start', 'validation', 'completed']);
  });
});
