/**
 * A rules phase over the Rulesets API (the custom phase, the managed phase, and any phase a kind
 * adds): read the entry point (404 10003, or any 404, means the zone has none yet), PUT the whole
 * list (with the managed phase's migration step flag when asked), and the single-rule POST, PATCH
 * and DELETE. Every write answers the whole ruleset at its new version, which the caller
 * uses to learn new rule ids. Paths and the phase come from the wire contract (`src/api`).
 *
 * Retries never duplicate or fail a write that went through: a POST whose answer is lost is not
 * resent blindly (the entry point is read again and the rule looked up by `ref`, as for filters),
 * and a DELETE of a rule that is already gone (a retried DELETE whose first answer was lost) is done.
 */
import type { ServedPhase } from '../../api/index.js';
import type { RulePosition, LiveRuleset, PhaseBody, PhaseRuleBody, PhaseStep } from '../../plan/index.js';
import { AnswerShapes } from './answer-shape.js';
import type { V4Client } from './client.js';
import { V4Codes, V4Limits, V4Paths } from './constants.js';
import { ProviderError, ServiceError, isUnknownOutcome } from './errors.js';

/** A phase entry point, or null when the zone has none (404). */
export async function readPhase<R extends LiveRuleset>(client: V4Client, zoneId: string, phase: ServedPhase): Promise<R | null> {
  try {
    return await client.result<R>('GET', V4Paths.entrypoint(zoneId, phase), { shape: AnswerShapes.ruleset });
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) return null;
    throw err;
  }
}

/** PUT of a whole phase (creates the entry point when missing); `step`: the WAF migration step it also takes. */
export function putPhase<R extends LiveRuleset = LiveRuleset>(client: V4Client, zoneId: string, phase: ServedPhase, body: PhaseBody, options: { step?: PhaseStep } = {}): Promise<R> {
  const query = options.step === undefined ? undefined : { waf_migration: options.step, phase_two: 1 };
  return client.result<R>('PUT', V4Paths.entrypoint(zoneId, phase), { query, body, shape: AnswerShapes.ruleset });
}

/** POST of one rule; after a lost answer, the rule is looked up by ref before it is sent again. */
export async function createPhaseRule<R extends LiveRuleset = LiveRuleset>(client: V4Client, zoneId: string, phase: ServedPhase, rulesetId: string, body: PhaseRuleBody, position?: RulePosition): Promise<R> {
  const path = V4Paths.rulesetRules(zoneId, rulesetId);
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.result<R>('POST', path, { body: { ...body, ...(position !== undefined ? { position } : {}) }, shape: AnswerShapes.ruleset });
    } catch (err) {
      if (!isUnknownOutcome(err)) throw err;
      if (body.ref === undefined) throw new ProviderError(`${err.message}; the rule has no ref to re-read it by, so it is not sent again: read the zone before retrying`, { cause: err, outcome: 'unknown' });
      if (attempt >= V4Limits.createAttempts) throw err;
      await client.transport.backoff(attempt, { method: 'POST', path });
      const live = await readPhase<R>(client, zoneId, phase);
      if (live?.rules.some((r) => r.ref === body.ref) === true) return live;
    }
  }
}

/** PATCH of one rule: complete body and/or position. */
export function updatePhaseRule<R extends LiveRuleset = LiveRuleset>(client: V4Client, zoneId: string, rulesetId: string, ruleId: string, change: { body?: PhaseRuleBody; position?: RulePosition }): Promise<R> {
  const { id: _id, ...rest } = change.body ?? { action: '', expression: '', enabled: true };
  const body = { ...(change.body !== undefined ? rest : {}), ...(change.position !== undefined ? { position: change.position } : {}) };
  return client.result<R>('PATCH', V4Paths.rulesetRule(zoneId, rulesetId, ruleId), { body, shape: AnswerShapes.ruleset });
}

/** DELETE of one rule; a rule that is already gone is deleted (the ruleset as it is is returned). */
export async function deletePhaseRule<R extends LiveRuleset = LiveRuleset>(client: V4Client, zoneId: string, phase: ServedPhase, rulesetId: string, ruleId: string): Promise<R> {
  try {
    return await client.result<R>('DELETE', V4Paths.rulesetRule(zoneId, rulesetId, ruleId), { shape: AnswerShapes.ruleset });
  } catch (err) {
    if (!(err instanceof ServiceError && err.status === 404 && err.hasCode(V4Codes.ruleNotFound))) throw err;
    const live = await readPhase<R>(client, zoneId, phase);
    if (live === null || live.id !== rulesetId) throw err;
    return live;
  }
}
