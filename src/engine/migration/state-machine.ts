/**
 * The migration state machine of seed 002, as pure functions. States: `previous_only`, `both`
 * (validation mode), `new_only` (final). The only trigger the engine has is the PUT of the
 * `http_request_firewall_managed` entry point, with or without `waf_migration`:
 *
 * | state          | waf_migration       | condition                     | next          |
 * |----------------|---------------------|-------------------------------|---------------|
 * | previous_only  | validation / 2      | Enterprise, zone compatible   | both          |
 * | both           | validation / 2      | zone compatible               | both (config updated) |
 * | previous_only  | pending / 1         | Pro, Business or Enterprise, compatible, an enabled execute rule | new_only |
 * | both           | pending / 1         | zone compatible, an enabled execute rule | new_only |
 * | new_only       | pending / 1         | -                             | new_only (plain PUT: a retried finish succeeds) |
 * | new_only       | validation / 2      | -                             | refused: already migrated |
 * | previous_only  | none                | Free or Enterprise; Pro/Business only with every rule disabled | previous_only |
 * | both, new_only | none                | -                             | unchanged     |
 *
 * `pending` without an enabled `execute` rule is refused (11014): the seed's pending "disables the
 * previous WAF as soon as the new one is saved and enabled", so finishing with no managed ruleset
 * deployed would leave the zone with neither WAF. "Compatible" depends on the phase: without
 * `phase_two=1` phase 1's admission rules apply as well (`phase-one.ts`).
 *
 * Free zones have no previous WAF (it needs Pro or higher), so they may deploy the Free managed
 * ruleset without migrating, and `waf_migration` is refused for them.
 */
import type { MigrationMode, MigrationState, WafState } from '../../api/index.js';
import type { PlanTier } from '../types.js';
import { MigrationErrors, type MigrationErrorKind } from './constants.js';

/** Which WAF versions run, `migration_state` of the check and status operations, a `waf_migration` mode (the wire contract's). */
export type { MigrationMode, MigrationState, WafState } from '../../api/index.js';

/** The migration phase whose rules apply: 2 with `phase_two=1`, else 1. */
export type MigrationPhase = 1 | 2;

/** The `migration_state` shown for a WAF state. */
export function migrationStateOf(state: WafState): MigrationState {
  return state === 'previous_only' ? 'start' : state === 'both' ? 'validation' : 'completed';
}

/** A refusal: an error kind and its message. */
export interface Refusal {
  kind: MigrationErrorKind;
  code: number;
  status: number;
  message: string;
}

/** Builds a refusal of a kind. */
export function refusal(kind: MigrationErrorKind, message: string): Refusal {
  return { kind, ...MigrationErrors[kind], message };
}

/**
 * Reads `waf_migration`: `pending` or `1`, `validation` or `2` (both spellings of the seed);
 * undefined when absent or empty; a refusal for anything else.
 */
export function parseMigrationMode(raw: string | null | undefined): MigrationMode | undefined | Refusal {
  if (raw === null || raw === undefined || raw === '') return undefined;
  if (raw === 'pending' || raw === '1') return 'pending';
  if (raw === 'validation' || raw === '2') return 'validation';
  return refusal('invalidMode', `waf_migration must be pending (or 1) or validation (or 2), got ${JSON.stringify(raw)}`);
}

/**
 * Reads `phase_two`: `1` or `true` selects phase 2; absent, empty, `0` or `false` phase 1; a refusal
 * for anything else.
 */
export function parsePhase(raw: string | null | undefined): MigrationPhase | Refusal {
  if (raw === null || raw === undefined || raw === '' || raw === '0' || raw === 'false') return 1;
  if (raw === '1' || raw === 'true') return 2;
  return refusal('invalidPhaseTwo', `phase_two must be 1 (phase-2 behaviour) or 0, got ${JSON.stringify(raw)}`);
}

/** What the transition needs to know. */
export interface TransitionInput {
  state: WafState;
  plan: PlanTier;
  mode: MigrationMode | undefined;
  /** Whether the body deploys at least one enabled rule. */
  anyRuleEnabled: boolean;
  /** Whether the body has at least one enabled `execute` rule (a managed ruleset deployed). */
  anyExecuteEnabled: boolean;
  /** Why the zone's configuration cannot migrate (URI overrides, limits); empty when compatible. */
  blockers: Refusal[];
}

/** The outcome: the next state, or the reasons for refusing the PUT. */
export type TransitionResult = { ok: true; next: WafState } | { ok: false; refusals: Refusal[] };

/** Decides a PUT of the entry point (see the table in the file comment). */
export function entrypointTransition(input: TransitionInput): TransitionResult {
  const { state, plan, mode } = input;
  if (mode === undefined) return plainPut(input);
  if (plan === 'free') {
    return fail(refusal('freePlan', 'Free zones have no previous WAF to migrate from: PUT the entry point without waf_migration to deploy the Cloudflare Free Managed Ruleset'));
  }
  if (state === 'new_only') {
    if (mode === 'pending') return { ok: true, next: 'new_only' };
    return fail(refusal('alreadyMigrated', 'the zone already finished its migration to the new WAF; validation mode is only available before that: PUT the entry point without waf_migration'));
  }
  if (mode === 'validation' && plan !== 'enterprise') {
    return fail(refusal('validationEnterpriseOnly', `validation mode (waf_migration=validation or 2) is for Enterprise zones only; this zone's plan is ${plan}: use waf_migration=pending (or 1) to migrate`));
  }
  const refusals = [...input.blockers];
  if (mode === 'pending' && !input.anyExecuteEnabled) {
    refusals.push(refusal('pendingWithoutEnabledRuleset',
      'waf_migration=pending finishes the migration and turns the previous WAF off, so the configuration must deploy the new WAF: give at least one enabled execute rule (e.g. the Cloudflare Managed Ruleset with "enabled": true); GET waf_migration/config?phase_two=1 proposes one'));
  }
  if (refusals.length > 0) return { ok: false, refusals };
  return { ok: true, next: mode === 'validation' ? 'both' : 'new_only' };
}

function plainPut(input: TransitionInput): TransitionResult {
  const { state, plan } = input;
  if (state === 'previous_only' && (plan === 'pro' || plan === 'business') && input.anyRuleEnabled) {
    return fail(refusal('enabledRulesBeforeMigration',
      `a ${plan} zone that has not migrated to the new WAF may only deploy disabled rules ("enabled": false); only Enterprise zones may enable managed rulesets alongside the previous WAF. Migrate with waf_migration=pending (or 1)`));
  }
  return { ok: true, next: state };
}

function fail(r: Refusal): TransitionResult {
  return { ok: false, refusals: [r] };
}
