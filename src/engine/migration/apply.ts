/**
 * The migration step of a PUT of the entry point: reads `waf_migration` (and ignores `phase_two`,
 * which only selects the current phase-2 behaviour), decides the transition with the zone's state,
 * plan and compatibility, and refuses the PUT when the state machine says no. The new state is
 * recorded only after the configuration was saved (`commit`), in the same transaction: "saves the
 * new configuration, then disables the previous WAF".
 */
import { ApiError } from '../api-errors.js';
import type { ZoneRequestContext } from '../context.js';
import type { ApiMessage } from '../types.js';
import { zoneBlockers } from './inputs.js';
import { entrypointTransition, parseMigrationMode, type Refusal, type WafState } from './state-machine.js';
import { loadWafState, recordTransition } from './store.js';

/** A decided step: `commit` records the next state once the configuration is stored. */
export interface MigrationStep {
  next: WafState;
  commit(): void;
}

/** Throws the refusals as one error (status of the first). */
export function refuse(refusals: Refusal[]): never {
  const errors: ApiMessage[] = refusals.map((r) => ({ code: r.code, message: r.message }));
  throw new ApiError(refusals[0]!.status, errors);
}

/** Decides the migration step of a PUT of the entry point (throws when refused). */
export function applyMigrationStep(ctx: ZoneRequestContext, anyRuleEnabled: boolean): MigrationStep {
  const mode = parseMigrationMode(ctx.query.get('waf_migration'));
  if (typeof mode === 'object') refuse([mode]);
  const current = loadWafState(ctx.sql);
  const blockers = mode === undefined || current.state === 'new_only' ? [] : zoneBlockers(ctx.sql);
  const result = entrypointTransition({ state: current.state, plan: ctx.zone.plan, mode, anyRuleEnabled, blockers });
  if (!result.ok) refuse(result.refusals);
  return { next: result.next, commit: () => void recordTransition(ctx.sql, current, result.next, ctx.now) };
}
