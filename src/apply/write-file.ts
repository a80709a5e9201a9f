/**
 * Writing a user's file safely: a temp file beside it, renamed over it, so an interrupted or failed
 * write never leaves half a file or clobbers the old one. Used for saved plans, exported manifests
 * and manifests rewritten by `zonewall migrate`.
 */
import { chmodSync, mkdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { ZonewallError, fileErrorReason } from '../errors.js';
import { userUmask } from '../providers/index.js';

/** Writes `text` to `file` atomically, creating missing parent directories; `what` names it in errors. */
export function writeFileAtomic(file: string, text: string, what = file): void {
  if (file.trim() === '') throw new ZonewallError('ERR_USAGE', 'cannot write to an empty path (an unset variable?): give a file name');
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    makeDirs(dirname(resolve(file)));
    writeFileSync(tmp, text, 'utf8');
    // The user's file keeps its mode, or gets the user's umask's: not the private umask that an
    // embedded engine open for writing sets meanwhile (providers/engine/private-state.ts).
    chmodSync(tmp, statSync(file, { throwIfNoEntry: false })?.mode ?? 0o666 & ~userUmask());
    renameSync(tmp, file);
  } catch (err) {
    removeQuietly(tmp);
    throw new ZonewallError('ERR_IO', `cannot write ${what}: ${fileErrorReason(err)}`, { cause: err });
  }
}

/**
 * Creates a missing directory and its missing parents with the modes the user's umask gives (an
 * engine held open for writing masks the process's umask further, for its state directory only).
 */
function makeDirs(dir: string): void {
  const first = mkdirSync(dir, { recursive: true });
  if (first === undefined) return;
  const mode = 0o777 & ~userUmask();
  for (let d = dir; ; d = dirname(d)) {
    chmodSync(d, mode);
    if (d === first || dirname(d) === d) break;
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
