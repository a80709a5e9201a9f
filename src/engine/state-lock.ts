/**
 * One process per engine state directory. The engine's zone list and each zone object live in
 * memory as well as on disk, so two processes on one directory (say `zonewall serve` and a
 * `zonewall apply` on the embedded engine) would not see each other's changes and could corrupt
 * the PITR logs. `engine.lock` holds the owner's pid (see `../lock-file.ts`: created whole, a stale
 * or unreadable one taken over atomically); a second opener waits up to `timeoutMs` (the CLI's
 * `--lock-timeout`) and then refuses. The state directory is private to its owner (0700): it
 * holds every zone's configuration.
 */
import { join } from 'node:path';
import { ZonewallError } from '../errors.js';
import { acquireLockFile, type LockHolder } from '../lock-file.js';

function busy(dir: string, holder: LockHolder | undefined): ZonewallError {
  const who = holder === undefined ? 'another process'
    : holder.pid === process.pid ? 'this process (close the other Engine first)'
    : `process ${holder.pid} (a running zonewall serve?)`;
  return new ZonewallError('ERR_LOCKED', `the engine state directory ${dir} is in use by ${who}; stop it, talk to it over HTTP, or pass --lock-timeout to wait`);
}

/** Takes the lock of `dir` (which must exist), waiting up to `timeoutMs`; returns its release function. */
export async function lockStateDir(dir: string, timeoutMs = 0): Promise<() => void> {
  const held = await acquireLockFile(join(dir, 'engine.lock'), { timeoutMs, pollMs: 100, busy: (holder) => busy(dir, holder) });
  return () => held.release();
}
