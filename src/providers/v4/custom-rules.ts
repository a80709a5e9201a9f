/**
 * The `http_request_firewall_custom` phase over the Rulesets API: read the entry point (404 10003,
 * or any 404, means the zone has no custom rules yet), PUT the whole list, and the single-rule POST,
 * PATCH and DELETE. Every write answers the whole ruleset at its new version, which the caller
 * uses to learn new rule ids. Paths and the phase come from the wire contract (`src/api`).
 */
import type { CustomRuleBody, CustomRulePosition, LiveCustomEntrypoint } from '../../plan/index.js';
import type { V4Client } from './client.js';
import { CustomPhase, V4Paths } from './constants.js';
import { ServiceError } from './errors.js';

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

/** POST of one rule. */
export function createCustomRule(client: V4Client, zoneId: string, rulesetId: string, body: CustomRuleBody, position?: CustomRulePosition): Promise<LiveCustomEntrypoint> {
  return client.result<LiveCustomEntrypoint>('POST', V4Paths.rulesetRules(zoneId, rulesetId), { body: { ...body, ...(position !== undefined ? { position } : {}) } });
}

/** PATCH of one rule: complete body and/or position. */
export function updateCustomRule(client: V4Client, zoneId: string, rulesetId: string, ruleId: string, change: { body?: CustomRuleBody; position?: CustomRulePosition }): Promise<LiveCustomEntrypoint> {
  const { id: _id, ...rest } = change.body ?? { action: '', expression: '', enabled: true };
  const body = { ...(change.body !== undefined ? rest : {}), ...(change.position !== undefined ? { position: change.position } : {}) };
  return client.result<LiveCustomEntrypoint>('PATCH', V4Paths.rulesetRule(zoneId, rulesetId, ruleId), { body });
}

/** DELETE of one rule. */
export function deleteCustomRule(client: V4Client, zoneId: string, rulesetId: string, ruleId: string): Promise<LiveCustomEntrypoint> {
  return client.result<LiveCustomEntrypoint>('DELETE', V4Paths.rulesetRule(zoneId, rulesetId, ruleId));
}
