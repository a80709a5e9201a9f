/**
 * Writing a user's file safely: a temp file beside it, renamed over it, so an interrupted or failed
 * write never leaves half a file or clobbers the old one. Used for saved plans, exported manifests
 * and manifests rewritten by `zonewall migrate`.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ZonewallError } from '../errors.js';

/** Writes `text` to `file` atomically, creating missing parent directories; `what` names it in errors. */
export function writeFileAtomic(file: string, text: string, what = file): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    mkdirSync(dirname(resolve(file)), { recursive: true });
    writeFileSync(tmp, text, 'utf8');
    renameSync(tmp, file);
  } catch (err) {
    removeQuietly(tmp);
    throw new ZonewallError('ERR_IO', `cannot write ${what}: ${(err as Error).message}`, { cause: err });
  }
}

/** Best-effort clean-up of the temp file: the original error is the one worth reporting. */
function removeQuietly(file: string): void {
  try {
    rmSync(file, { force: true });
  } catch {
    // Nothing was written there (e.g. its directory is a file): nothing to clean up.
  }
}
