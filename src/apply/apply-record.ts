/**
 * The record of the last apply to a zone on the embedded engine: the PITR bookmark taken just
 * before it, in `<state-dir>/applies/<zone-id>.json`, so `zonewall rollback --zone NAME` can
 * restore the zone to before that apply. Written before the first write of an apply (an apply that
 * fails halfway can be rolled back too) and removed by a successful rollback.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ZonewallError, fileErrorReason } from '../errors.js';

/** What rollback needs. */
export interface ApplyRecord {
  zoneId: string;
  zone: string;
  bookmark: string;
  /** When the apply started (ISO 8601). */
  at: string;
}

/** The folder of the apply records (`<state-dir>/applies`). */
export function applyRecordsDir(stateDir: string): string {
  return join(stateDir, 'applies');
}

function recordPath(stateDir: string, zoneId: string): string {
  return join(applyRecordsDir(stateDir), `${zoneId}.json`);
}

/** Saves the record of an apply that is about to start (atomically: write, then rename). */
export function writeApplyRecord(stateDir: string, record: ApplyRecord): void {
  const path = recordPath(stateDir, record.zoneId);
  // Private, as the whole state directory (README): 0700 and 0600 whatever the umask.
  mkdirSync(applyRecordsDir(stateDir), { recursive: true, mode: 0o700 });
  writeFileSync(`${path}.tmp`, `${JSON.stringify(record, null, 2)}\n`, { mode: 0o600 });
  chmodSync(`${path}.tmp`, 0o600);
  renameSync(`${path}.tmp`, path);
}

/** The record of the last apply to a zone, if any. */
export function readApplyRecord(stateDir: string, zoneId: string): ApplyRecord | undefined {
  let text: string;
  try {
    text = readFileSync(recordPath(stateDir, zoneId), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new ZonewallError('ERR_IO', `cannot read ${recordPath(stateDir, zoneId)}: ${fileErrorReason(err)}`, { cause: err });
  }
  try {
    return JSON.parse(text) as ApplyRecord;
  } catch (err) {
    throw new ZonewallError('ERR_IO', `${recordPath(stateDir, zoneId)} is not valid JSON; delete it to forget the last apply`, { cause: err });
  }
}

/** Forgets the last apply to a zone. */
export function removeApplyRecord(stateDir: string, zoneId: string): void {
  rmSync(recordPath(stateDir, zoneId), { force: true });
}
