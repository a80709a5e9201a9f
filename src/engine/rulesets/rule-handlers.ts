/**
 * Single-rule routes of the zone entry points: `POST .../rulesets/{ruleset_id}/rules` (add, with
 * an optional `position`), `PATCH` and `DELETE .../rules/{rule_id}`. Each answers the whole ruleset
 * at its new version. They are served on every served entry point (custom, rate limiting, managed),
 * each validated as a PUT of its whole entry point would be (`rulesSpecOf`); on the managed one the
 * WAF migration step of a PUT without `waf_migration` runs too.
 */
import { CustomPhase, RulesetRoutes } from '../../api/index.js';
import type { RulesPhaseSpec } from './rules-phase-spec.js';
import type { ZoneRequestContext, ZoneRoute } from '../context.js';
import { ok } from '../envelope.js';
import type { ApiResponse } from '../types.js';
import { addCustomRule, deleteCustomRule, patchCustomRule } from './custom-ops.js';
import { rulesetError } from './errors.js';
import { entrypointById, rulesSpecOf } from './phases.js';
import type { StoredRuleset } from './types.js';
import { rulesetView } from './views.js';
import { allowQuery } from './write.js';

/** The single-rule routes. */
export const ruleRoutes: ZoneRoute[] = [
  { method: 'POST', pattern: RulesetRoutes.rules, handler: (ctx) => withCustom(ctx, (entry, spec) => addCustomRule(ctx, entry, spec)) },
  { method: 'PATCH', pattern: RulesetRoutes.rule, handler: (ctx) => withCustom(ctx, (entry, spec) => patchCustomRule(ctx, entry, ctx.params.rule_id!, spec)) },
  { method: 'DELETE', pattern: RulesetRoutes.rule, handler: (ctx) => withCustom(ctx, (entry, spec) => deleteCustomRule(ctx, entry, ctx.params.rule_id!, spec)) },
];

function withCustom(ctx: ZoneRequestContext, op: (entry: StoredRuleset, spec: RulesPhaseSpec) => StoredRuleset): ApiResponse {
  allowQuery(ctx);
  const id = ctx.params.ruleset_id!;
  const found = entrypointById(ctx, id);
  if (found === undefined) throw rulesetError('rulesetNotFound', `no ruleset ${JSON.stringify(id)} in this zone: GET /zones/{zone_id}/rulesets/phases/${CustomPhase}/entrypoint gives the custom rules' ruleset`);
  return ok(rulesetView(op(found.entry, rulesSpecOf(found.phase)), found.phase));
}
