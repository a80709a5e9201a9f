/**
 * The phases the engine serves and what the Rulesets handlers share about them: whether a phase is
 * served, the real 404 of a phase without an entry point (10003, also for an unserved phase, as the
 * real API has no entry point there), the refusal of a write to an unserved phase (20213), finding
 * an entry point by ruleset id, and the whole-list write dispatched to the phase's operations.
 */
import { ManagedPhase, RatelimitPhase, RulesetErrorMessages, ServedPhases, type ServedPhase } from '../../api/index.js';
import type { ZoneRequestContext } from '../context.js';
import { CustomRulesSpec, putCustomRules } from './custom-ops.js';
import { rulesetError } from './errors.js';
import { ManagedRulesSpec, ManagedWriteQuery, putManagedRules } from './managed-ops.js';
import { RatelimitRulesSpec } from './ratelimit-ops.js';
import type { RulesPhaseSpec } from './rules-phase-spec.js';
import { loadRuleset } from './store.js';
import type { StoredRuleset } from './types.js';
import { allowQuery } from './write.js';

/** Whether the engine serves `phase`. */
export function isServed(phase: string): phase is ServedPhase {
  return (ServedPhases as readonly string[]).includes(phase);
}

/** The real 404 of a phase without an entry point. */
export function entrypointNotFound(phase: string): Error {
  return rulesetError('entrypointNotFound', `${RulesetErrorMessages.entrypointNotFound} ${phase} phase`);
}

/** Refuses a write to a phase the engine does not serve. */
export function phaseNotServed(phase: string, pointer?: string): Error {
  return rulesetError('phaseNotServed', `phase ${JSON.stringify(phase)} is not served by zonewall's engine; it serves ${ServedPhases.join(' and ')}`, pointer);
}

/** Writes the whole rule list of the entry point of `phase` (PUT by phase or by id). */
export function putRules(ctx: ZoneRequestContext, phase: ServedPhase, existing: StoredRuleset | undefined): StoredRuleset {
  allowQuery(ctx, phase === ManagedPhase ? ManagedWriteQuery : []);
  return phase === ManagedPhase ? putManagedRules(ctx, ctx.body, existing) : putCustomRules(ctx, ctx.body, existing, undefined, rulesSpecOf(phase));
}

/** The rules-phase validation of a phase (the managed one's is for its single-rule operations). */
export function rulesSpecOf(phase: ServedPhase): RulesPhaseSpec {
  if (phase === ManagedPhase) return ManagedRulesSpec as unknown as RulesPhaseSpec;
  return (phase === RatelimitPhase ? RatelimitRulesSpec : CustomRulesSpec) as RulesPhaseSpec;
}

/** The entry point whose id is `id`, with its phase; undefined when none. */
export function entrypointById(ctx: ZoneRequestContext, id: string): { phase: ServedPhase; entry: StoredRuleset } | undefined {
  for (const phase of ServedPhases) {
    const entry = loadRuleset(ctx.sql, phase);
    if (entry !== undefined && entry.id === id) return { phase, entry };
  }
  return undefined;
}

