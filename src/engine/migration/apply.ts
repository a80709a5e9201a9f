/**
 * The migration step of a PUT of the entry point: reads `waf_migration` and `phase_two` (phase 1's
 * admission rules apply without `phase_two=1`), decides the transition with the zone's state, plan,
 * compatibility and the body's enabled execute rules, and refuses the PUT when the state machine
 * says no. The new state is recorded only after the configuration was saved (`commit`), in the same transaction: "saves the
 * new configuration, then disables the previous WAF".
 */
import { ApiError } from '../api-errors.js';
import type { ZoneRequestContext } from '../context.js';
import type { ApiMessage } from '../types.js';
import { zoneBlockers } from './inputs.js';
import { entrypointTransition, parseMigrationMode, parsePhase, type Refusal, type WafState } from './state-machine.js';
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
  const phase = parsePhase(ctx.query.get('phase_two'));
  if (typeof phase === 'object') refuse([phase]);
  const current = loadWafState(ctx.sql);
  const blockers = mode === undefined || current.state === 'new_only' ? [] : zoneBlockers(ctx.sql, phase);
  const anyExecuteEnabled = enabledExecuteIn(ctx.body);
  const result = entrypointTransition({ state: current.state, plan: ctx.zone.plan, mode, anyRuleEnabled, anyExecuteEnabled, blockers });
  if (!result.ok) refuse(result.refusals);
  return { next: result.next, commit: () => void recordTransition(ctx.sql, current, result.next, ctx.now) };
}

/**
 * Whether the (already validated) PUT body has an enabled `execute` rule. Read from the body here so
 * the Rulesets module's call stays `applyMigrationStep(ctx, anyRuleEnabled)`; `enabled` defaults to
 * true, as the Rulesets API's.
 */
function enabledExecuteIn(body: unknown): boolean {
  const rules = (body as { rules?: unknown } | undefined)?.rules;
  if (!Array.isArray(rules)) return false;
  return rules.some((r: unknown) => typeof r === 'object' && r !== null
    && (r as { action?: unknown }).action === 'execute' && (r as { enabled?: unknown }).enabled !== false);
}
