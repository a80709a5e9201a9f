/**
 * The `http_request_firewall_custom` phase over the Rulesets API: read the entry point (404 10003,
 * or any 404, means the zone has no custom rules yet), PUT the whole list, and the single-rule POST,
 * PATCH and DELETE. Every write answers the whole ruleset at its new version, which the caller
 * uses to learn new rule ids. Paths and the phase come from the wire contract (`src/api`).
 *
 * Retries never duplicate or fail a write that went through: a POST whose answer is lost is not
 * resent blindly (the entry point is read again and the rule looked up by `ref`, as for filters),
 * and a DELETE of a rule that is already gone (a retried DELETE whose first answer was lost) is done.
 */
import type { CustomRuleBody, CustomRulePosition, LiveCustomEntrypoint } from '../../plan/index.js';
import type { V4Client } from './client.js';
import { CustomPhase, V4Codes, V4Limits, V4Paths } from './constants.js';
import { ProviderError, ServiceError, isUnknownOutcome } from './errors.js';

/** The custom phase entry point, or null when the zone has none (404). */
export async function readCustomEntrypoint(client: V4Client, zoneId: string): Promise<LiveCustomEntrypoint | null> {
  try {
    return await client.result<LiveCustomEntrypoint>('GET', V4Paths.entrypoint(zoneId, CustomPhase));
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) return null;
    throw err;
  }
}

/** PUT of the whole custom phase (creates the entry point when missing). */
export function putCustomEntrypoint(client: V4Client, zoneId: string, body: { description?: string; rules: CustomRuleBody[] }): Promise<LiveCustomEntrypoint> {
  return client.result<LiveCustomEntrypoint>('PUT', V4Paths.entrypoint(zoneId, CustomPhase), { body });
}

/** POST of one rule; after a lost answer, the rule is looked up by ref before it is sent again. */
export async function createCustomRule(client: V4Client, zoneId: string, rulesetId: string, body: CustomRuleBody, position?: CustomRulePosition): Promise<LiveCustomEntrypoint> {
  const path = V4Paths.rulesetRules(zoneId, rulesetId);
  for (let attempt = 1; ; attempt++) {
    try {
      return await client.result<LiveCustomEntrypoint>('POST', path, { body: { ...body, ...(position !== undefined ? { position } : {}) } });
    } catch (err) {
      if (!isUnknownOutcome(err)) throw err;
      if (body.ref === undefined) throw new ProviderError(`${err.message}; the rule has no ref to re-read it by, so it is not sent again: read the zone before retrying`, { cause: err, outcome: 'unknown' });
      if (attempt >= V4Limits.createAttempts) throw err;
      await client.transport.backoff(attempt, { method: 'POST', path });
      const live = await readCustomEntrypoint(client, zoneId);
      if (live?.rules.some((r) => r.ref === body.ref) === true) return live;
    }
  }
}

/** PATCH of one rule: complete body and/or position. */
export function updateCustomRule(client: V4Client, zoneId: string, rulesetId: string, ruleId: string, change: { body?: CustomRuleBody; position?: CustomRulePosition }): Promise<LiveCustomEntrypoint> {
  const { id: _id, ...rest } = change.body ?? { action: '', expression: '', enabled: true };
  const body = { ...(change.body !== undefined ? rest : {}), ...(change.position !== undefined ? { position: change.position } : {}) };
  return client.result<LiveCustomEntrypoint>('PATCH', V4Paths.rulesetRule(zoneId, rulesetId, ruleId), { body });
}

/** DELETE of one rule; a rule that is already gone is deleted (the ruleset as it is is returned). */
export async function deleteCustomRule(client: V4Client, zoneId: string, rulesetId: string, ruleId: string): Promise<LiveCustomEntrypoint> {
  try {
    return await client.result<LiveCustomEntrypoint>('DELETE', V4Paths.rulesetRule(zoneId, rulesetId, ruleId));
  } catch (err) {
    if (!(err instanceof ServiceError && err.status === 404 && err.hasCode(V4Codes.ruleNotFound))) throw err;
    const live = await readCustomEntrypoint(client, zoneId);
    if (live === null || live.id !== rulesetId) throw err;
    return live;
  }
}
