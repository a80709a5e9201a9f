/**
 * `POST /zones/{zone_id}/rulesets`: creates the zone entry point of a phase (`kind: zone`), with
 * a required `name`, an optional `description` and optional `rules` (validated as a PUT's). Only one
 * `zone` ruleset may exist per phase: a second one is refused with the real 20217 answer, pointer
 * `/kind` (delete the existing one, or PUT it). Zone custom rulesets (`kind: custom`) and other
 * phases are not served (20213).
 */
import { ManagedPhase, RulesetErrorMessages, RulesetFieldLimits, RulesetKinds } from '../../api/index.js';
import { BodyReader, Problems, quote } from '../body-reader.js';
import type { ZoneRequestContext } from '../context.js';
import { ok } from '../envelope.js';
import type { ApiResponse } from '../types.js';
import { putCustomRules } from './custom-ops.js';
import { rulesetError } from './errors.js';
import { putManagedRules } from './managed-ops.js';
import { isServed, phaseNotServed, rulesSpecOf } from './phases.js';
import { loadRuleset } from './store.js';
import { expressionCheck, readRulesetBody } from './validate.js';
import { rulesetView } from './views.js';
import { allowQuery } from './write.js';

/** The route handler. */
export function createRuleset(ctx: ZoneRequestContext): ApiResponse {
  allowQuery(ctx);
  const problems = new Problems();
  const r = new BodyReader(ctx.body, '', problems, 'a ruleset object');
  r.allowOnly(['name', 'kind', 'phase', 'description', 'rules']);
  const name = r.string('name', { required: true, nonEmpty: true, maxLength: RulesetFieldLimits.name });
  const kind = r.oneOf('kind', RulesetKinds, { required: true });
  const phase = r.string('phase', { required: true, nonEmpty: true });
  // A refused name (or an unknown field): the description and rules of a served phase are read
  // too, so one answer lists every problem of the body.
  if (problems.list.length > 0 && kind === 'zone' && phase !== undefined && isServed(phase) && r.has('rules')) {
    const spec = rulesSpecOf(phase);
    const rest = { rules: r.raw('rules'), ...(r.has('description') ? { description: r.raw('description') } : {}) };
    readRulesetBody(rest, problems, phase, (item, pointer, p) => spec.read(item, pointer, p), expressionCheck(phase));
  }
  problems.throwIfAny();
  if (kind === 'custom') throw rulesetError('phaseNotServed', 'zone custom rulesets (kind "custom") are not served by zonewall\'s engine; create the phase entry point with kind "zone"', '/kind');
  if (kind !== 'zone') throw rulesetError('immutableField', `kind ${quote(kind)} cannot be created in a zone; use "zone" for a phase entry point`, '/kind');
  if (!isServed(phase!)) throw phaseNotServed(phase!, '/phase');
  if (loadRuleset(ctx.sql, phase) !== undefined) {
    throw rulesetError('zoneRulesetExists', `${RulesetErrorMessages.zoneRulesetExists} ${phase}`, '/kind');
  }
  const { kind: _k, phase: _p, name: _n, ...rest } = ctx.body as Record<string, unknown>;
  const body = { ...rest, rules: rest.rules ?? [] };
  const entry = phase === ManagedPhase ? putManagedRules(ctx, body, undefined, name) : putCustomRules(ctx, body, undefined, name, rulesSpecOf(phase));
  return ok(rulesetView(entry, phase));
}
