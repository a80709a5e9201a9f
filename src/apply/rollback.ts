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
  await provider.restore(zone.id, record.bookmark);
  removeApplyRecord(stateDir, zone.id);
  return record;
}
