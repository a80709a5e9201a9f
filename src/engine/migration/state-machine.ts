/**
 * The migration state machine of seed 002, as pure functions. States: `previous_only`, `both`
 * (validation mode), `new_only` (final). The only trigger the engine has is the PUT of the
 * `http_request_firewall_managed` entry point, with or without `waf_migration`:
 *
 * | state          | waf_migration       | condition                     | next          |
 * |----------------|---------------------|-------------------------------|---------------|
 * | previous_only  | validation / 2      | Enterprise, zone compatible   | both          |
 * | both           | validation / 2      | zone compatible               | both (config updated) |
 * | previous_only  | pending / 1         | Pro, Business or Enterprise, compatible | new_only |
 * | both           | pending / 1         | zone compatible               | new_only      |
 * | new_only       | pending / 1         | -                             | new_only (plain PUT: a retried finish succeeds) |
 * | new_only       | validation / 2      | -                             | refused: already migrated |
 * | previous_only  | none                | Free or Enterprise; Pro/Business only with every rule disabled | previous_only |
 * | both, new_only | none                | -                             | unchanged     |
 *
 * Free zones have no previous WAF (it needs Pro or higher), so they may deploy the Free managed
 * ruleset without migrating, and `waf_migration` is refused for them.
 */
import type { PlanTier } from '../types.js';
import { MigrationErrors, type MigrationErrorKind } from './constants.js';

/** Which WAF versions run on a zone (seed: previous only, both, new only). */
export type WafState = 'previous_only' | 'both' | 'new_only';

/** `migration_state` of the check and status operations: `start` (real), then zonewall's values. */
export type MigrationState = 'start' | 'validation' | 'completed';

/** A `waf_migration` mode. */
export type MigrationMode = 'pending' | 'validation';

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

/** What the transition needs to know. */
export interface TransitionInput {
  state: WafState;
  plan: PlanTier;
  mode: MigrationMode | undefined;
  /** Whether the body deploys at least one enabled rule. */
  anyRuleEnabled: boolean;
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
  if (input.blockers.length > 0) return { ok: false, refusals: input.blockers };
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
