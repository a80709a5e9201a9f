/**
 * The WAF migration over the v4 API: the status (`waf_state` derived when the service does not send
 * it), the service's proposed new WAF configuration, and the compatibility check.
 */
import { WafStates as ApiWafStates, type MigrationCheckResult } from '../../api/index.js';
import type { EntrypointBody, LiveMigrationStatus, WafState } from '../../plan/index.js';
import type { MigrationCheck } from '../provider.js';
import { AnswerShapes } from './answer-shape.js';
import type { V4Client } from './client.js';
import { V4Paths } from './constants.js';
import { ServiceError } from './errors.js';

/** The migration status, or null when the service has no migration API for the zone (404). */
export async function readLiveMigrationStatus(client: V4Client, zoneId: string): Promise<LiveMigrationStatus | null> {
  try {
    const raw = await client.result<Partial<LiveMigrationStatus> & Record<string, unknown>>('GET', V4Paths.migrationStatus(zoneId), { shape: AnswerShapes.migrationStatus });
    return normalizeMigrationStatus(raw);
  } catch (err) {
    if (err instanceof ServiceError && err.status === 404) return null;
    throw err;
  }
}

const WafStates: readonly WafState[] = ApiWafStates;

/**
 * Fills `waf_state` when the service does not send it (only the zonewall engine does): the
 * previous WAF switched off means the migration finished; both on means validation mode.
 */
export function normalizeMigrationStatus(raw: Partial<LiveMigrationStatus> & Record<string, unknown>): LiveMigrationStatus {
  const oldStatus = raw.old_waf_status === 'disabled' ? 'disabled' : 'enabled';
  const newStatus = raw.new_waf_status === 'enabled' ? 'enabled' : 'disabled';
  const derived: WafState = oldStatus === 'disabled' ? 'new_only' : newStatus === 'enabled' ? 'both' : 'previous_only';
  const state = WafStates.includes(raw.waf_state as WafState) ? (raw.waf_state as WafState) : derived;
  return {
    ...raw,
    migration_state: typeof raw.migration_state === 'string' ? raw.migration_state : 'start',
    old_waf_status: oldStatus,
    new_waf_status: newStatus,
    waf_state: state,
  };
}

/** The proposed new WAF configuration, or null when the service refuses it for the zone (a 4xx). */
export async function readMigrationConfig(client: V4Client, zoneId: string): Promise<EntrypointBody | null> {
  try {
    return await client.result<EntrypointBody>('GET', V4Paths.migrationConfig(zoneId), { query: { phase_two: 1 }, shape: AnswerShapes.migrationConfig });
  } catch (err) {
    if (err instanceof ServiceError && err.status >= 400 && err.status < 500 && err.status !== 401 && err.status !== 429) return null;
    throw err;
  }
}

/** The proposed new WAF configuration (refusals pass through). */
export function migrationConfig(client: V4Client, zoneId: string): Promise<EntrypointBody> {
  return client.result<EntrypointBody>('GET', V4Paths.migrationConfig(zoneId), { query: { phase_two: 1 }, shape: AnswerShapes.migrationConfig });
}

/** The migration compatibility check. */
export async function checkMigration(client: V4Client, zoneId: string): Promise<MigrationCheck> {
  const { result, messages } = await client.call<Partial<MigrationCheckResult>>('GET', V4Paths.migrationCheck(zoneId), { query: { phase_two: 1 }, shape: AnswerShapes.migrationCheck });
  // zonewall's engine puts the reasons in the result (a success keeps `messages` empty, seed 002); other services may use messages.
  const reasons = Array.isArray(result.reasons) && result.reasons.length > 0 ? result.reasons.map((r) => r.message) : messages.map((m) => m.message);
  return { compatible: result.compatible === true, migration_state: String(result.migration_state ?? 'start'), reasons };
}
