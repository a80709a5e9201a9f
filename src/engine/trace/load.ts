/**
 * A zone's stored state as the trace reads it (both trace routes load it the same way).
 */
import { CustomPhase, RatelimitPhase } from '../../api/index.js';
import type { ZoneRequestContext } from '../context.js';
import { rulesInEvaluationOrder } from '../firewall-rules/store.js';
import { loadWafState } from '../migration/store.js';
import { listPageRules } from '../page-rules/index.js';
import { loadSettings } from '../previous-waf/store.js';
import { loadEntrypoint, loadRuleset } from '../rulesets/store.js';
import type { ZoneTraceInput } from './zone.js';

/** The zone's stored state, as the trace reads it (the settings' `enabled` is the zone setting `waf`). */
export function loadTraceZone(ctx: ZoneRequestContext): ZoneTraceInput {
  return {
    wafState: loadWafState(ctx.sql).state,
    plan: ctx.zone.plan,
    firewallRules: rulesInEvaluationOrder(ctx.sql),
    entrypoint: loadEntrypoint(ctx.sql),
    customRules: loadRuleset(ctx.sql, CustomPhase),
    rateLimitRules: loadRuleset(ctx.sql, RatelimitPhase),
    previousWaf: loadSettings(ctx.sql),
    pageRules: listPageRules(ctx.sql),
  };
}
