/**
 * What the writes of a rules phase (a zone entry point of plain rules: custom rules, rate limiting
 * rules) need to know about the phase: how one rule is read and validated, the zone plan's gates on
 * one rule, the rule quota, and a step of its own around the save (the managed entry point's WAF
 * migration step). `custom-ops.ts` runs every write (PUT, single-rule POST, PATCH, DELETE) of any
 * phase through one of these (the managed entry point's PUT is `managed-ops.ts`).
 */
import type { ServedPhase } from '../../api/index.js';
import type { Problems } from '../body-reader.js';
import type { ZoneRequestContext } from '../context.js';
import type { ApiMessage } from '../types.js';
import type { IncomingRule } from './identity.js';
import type { StoredRule } from './types.js';

/** A rules phase's validation. */
export interface RulesPhaseSpec<I extends IncomingRule = IncomingRule> {
  phase: ServedPhase;
  /** Reads one rule at `pointer` (its expressions checked); `extra` are further allowed keys. */
  read(item: unknown, pointer: string, problems: Problems, extra?: readonly string[]): I | undefined;
  /** The refusals of the zone's plan for one rule (`pointer` is the rule's). */
  gates(rule: I, pointer: string, ctx: ZoneRequestContext): ApiMessage[];
  /**
   * The refusals of one rule written beside the ruleset's `others` (single-rule POST and PATCH),
   * when the phase has checks across rules (the managed entry point: one execute rule per ruleset).
   */
  across?(rule: I, others: readonly StoredRule[]): ApiMessage[];
  /** The refusal of `count` rules, or undefined. */
  quota(count: number, ctx: ZoneRequestContext, pointer?: string): ApiMessage | undefined;
  /**
   * The phase's own step around a save, when it has one (the managed entry point: the WAF migration
   * step): decided with the rules about to be saved (throws when refused), recorded by `commit`
   * once they are saved.
   */
  step?(ctx: ZoneRequestContext, rules: readonly StoredRule[]): { commit(): void };
}
