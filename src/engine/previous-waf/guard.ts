/**
 * The previous WAF's availability: its APIs answer only for a Pro or higher zone that has not
 * finished its migration. After the migration (state `new_only`) they refuse with 403 and code
 * 11010 naming the Rulesets API as the way forward (seed: "the previous WAF's APIs stop working");
 * on a Free zone (no previous WAF: it needs Pro or higher) with 403 and code 11011. In validation
 * mode (`both`) they keep working: the previous WAF still runs.
 */
import { ApiError } from '../api-errors.js';
import type { ZoneRequestContext } from '../context.js';
import { MigrationErrors } from '../migration/constants.js';
import { loadWafState, type WafStateRecord } from '../migration/store.js';

/** Refuses the call unless the zone's previous WAF still exists; returns the zone's WAF state. */
export function requirePreviousWaf(ctx: ZoneRequestContext): WafStateRecord {
  const state = loadWafState(ctx.sql);
  if (state.state === 'new_only') {
    throw ApiError.from(MigrationErrors.previousWafRetired, `zone ${ctx.zone.name} has migrated to the new WAF (WAF Managed Rules): the previous WAF's APIs (packages, groups, rules, overrides, the waf setting) no longer work. Use the Rulesets API: /zones/${ctx.zone.id}/rulesets/phases/http_request_firewall_managed/entrypoint`);
  }
  if (ctx.zone.plan === 'free') {
    throw ApiError.from(MigrationErrors.previousWafUnavailable, `the previous WAF (WAF managed rules) needs a Pro plan or higher; zone ${ctx.zone.name} is on the Free plan. Deploy the Cloudflare Free Managed Ruleset with the Rulesets API instead`);
  }
  return state;
}
