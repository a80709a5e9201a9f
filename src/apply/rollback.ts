/**
 * Rollback of the last apply to a zone on the embedded engine: restore the PITR bookmark recorded
 * before that apply, then forget the record (a second rollback has nothing to undo). Remote
 * providers have no bookmarks: rollback refuses with a clear message.
 */
import { ZonewallError } from '../errors.js';
import type { Provider } from '../providers/index.js';
import { readApplyRecord, removeApplyRecord, type ApplyRecord } from './apply-record.js';

/**
 * Restores a zone to before its last apply; resolves with the record it used.
 * @example const record = await rollbackZone(provider, zone.id, '.zonewall');
 */
export async function rollbackZone(provider: Provider, zone: { id: string; name: string }, stateDir: string | undefined): Promise<ApplyRecord> {
  if (provider.restore === undefined || stateDir === undefined) {
    throw new ZonewallError('ERR_USAGE', `rollback needs the embedded engine (${provider.description} keeps no bookmarks); undo a remote apply by applying the previous manifest`);
  }
  const record = readApplyRecord(stateDir, zone.id);
  if (record === undefined) {
    throw new ZonewallError('ERR_USAGE', `no apply to roll back for zone ${zone.name} in ${stateDir} (a rollback undoes the last apply once)`);
  }
  try {
    await provider.restore(zone.id, record.bookmark);
  } catch (err) {
    throw historyRefusal(err, zone.name, stateDir, record) ?? err;
  }
  removeApplyRecord(stateDir, zone.id);
  return record;
}

/**
 * Storage's refusal of the bookmark zonewall itself recorded (by its code: apply does not import
 * storage): the zone's point-in-time history (its PITR log, or the lineage that ties the log to the
 * database) is missing or damaged, so the restore changed nothing. One line, not an internal error.
 */
function historyRefusal(err: unknown, zone: string, stateDir: string, record: ApplyRecord): ZonewallError | undefined {
  if (err instanceof ZonewallError) return undefined;
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== 'ERR_STORAGE_ARGUMENT' && code !== 'ERR_STORAGE_LIMIT') return undefined;
  const reason = err instanceof Error ? err.message : String(err);
  return new ZonewallError('ERR_STATE_DAMAGED', `cannot roll back ${zone} to before the apply of ${record.at}: its point-in-time history in ${stateDir} is missing or damaged (${reason}); nothing was rolled back (undo the apply by applying the previous manifest)`, { cause: err });
}
