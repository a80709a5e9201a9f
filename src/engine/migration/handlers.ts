/**
 * The WAF migration API (seed 002): `GET waf_migration/check` (compatibility; the reasons in the
 * result's `reasons`, so a success keeps `messages` empty), `GET waf_migration/config` (the new
 * configuration derived from the previous WAF, its firewall rules and Page Rules) and
 * `GET waf_migration/status` (both WAFs' state and the migration state). The step that moves the
 * zone is the PUT of the entry point (`apply.ts`, called from the Rulesets API).
 *
 * Status: `migration_state` (`start`, `validation`, `completed`), `old_waf_status` and
 * `new_waf_status` (`enabled`/`disabled`), zonewall's `waf_state` (`previous_only`, `both`,
 * `new_only`), and once a migration began, `created` (when) and `source` (`api`, or
 * `zone_creation` for a zone created with `waf: 'new'`). The previous WAF is enabled when it exists
 * (Pro or higher, not migrated) and the zone setting `waf` is on; the new WAF is enabled when the
 * entry point deploys at least one enabled managed ruleset.
 *
 * Check and config read `phase_two`: without `phase_two=1` phase 1's admission rules apply (check:
 * more reasons; config: refused with them, since phase 1 had nothing to convert them into).
 */
import type { ZoneRequestContext, ZoneRoute } from '../context.js';
import { ok } from '../envelope.js';
import { loadSettings } from '../previous-waf/store.js';
import { loadEntrypoint } from '../rulesets/store.js';
import { deploysEnabledRuleset } from '../rulesets/types.js';
import type { ApiResponse } from '../types.js';
import { refuse } from './apply.js';
import { checkResult, compatibilityBlockers } from './check.js';
import { deriveConfig } from './config.js';
import { listPageRules } from '../page-rules/index.js';
import { firewallRulesOf, phaseOneOf, zoneBlockers } from './inputs.js';
import { migrationStateOf, parsePhase, type MigrationPhase } from './state-machine.js';
import { loadWafState, type WafStateRecord } from './store.js';

const BASE = '/zones/:zone_id/waf_migration';

/** Routes of the migration API. */
export const migrationRoutes: ZoneRoute[] = [
  { method: 'GET', pattern: `${BASE}/check`, handler: check },
  { method: 'GET', pattern: `${BASE}/config`, handler: config },
  { method: 'GET', pattern: `${BASE}/status`, handler: status },
];

function phaseOf(ctx: ZoneRequestContext): MigrationPhase {
  const phase = parsePhase(ctx.query.get('phase_two'));
  if (typeof phase === 'object') refuse([phase]);
  return phase;
}

function check(ctx: ZoneRequestContext): ApiResponse {
  const phase = phaseOf(ctx);
  const state = loadWafState(ctx.sql);
  const configuration = state.state === 'new_only' ? [] : zoneBlockers(ctx.sql, phase);
  return ok(checkResult(state.state, compatibilityBlockers(state.state, ctx.zone.plan, configuration), phase));
}

function config(ctx: ZoneRequestContext): ApiResponse {
  const phase = phaseOf(ctx);
  const state = loadWafState(ctx.sql);
  const blockers = compatibilityBlockers(state.state, ctx.zone.plan, phase === 1 && state.state !== 'new_only' ? phaseOneOf(ctx.sql) : []);
  if (blockers.length > 0) refuse(blockers);
  return ok(deriveConfig(loadSettings(ctx.sql), firewallRulesOf(ctx.sql), listPageRules(ctx.sql)));
}

/** Whether the previous WAF runs on the zone. */
export function previousWafEnabled(state: WafStateRecord, plan: string): boolean {
  return state.state !== 'new_only' && plan !== 'free' && state.previousWaf === 'on';
}

function status(ctx: ZoneRequestContext): ApiResponse {
  const state = loadWafState(ctx.sql);
  const newEnabled = deploysEnabledRuleset(loadEntrypoint(ctx.sql));
  const result: Record<string, unknown> = {
    migration_state: migrationStateOf(state.state),
    old_waf_status: previousWafEnabled(state, ctx.zone.plan) ? 'enabled' : 'disabled',
    new_waf_status: newEnabled ? 'enabled' : 'disabled',
    waf_state: state.state,
  };
  if (state.migrationCreated !== null) result.created = state.migrationCreated;
  if (state.migrationSource !== null) result.source = state.migrationSource;
  return ok(result);
}
