/**
 * One process per engine state directory. The engine's zone list and each zone object live in
 * memory as well as on disk, so two processes on one directory (say `zonewall serve` and a
 * `zonewall apply` on the embedded engine) would not see each other's changes and could corrupt
 * the PITR logs. `engine.lock` holds the owner's pid; a lock whose process is gone is stale and
 * taken over.
 */
import { closeSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ZonewallError } from '../errors.js';

/** Takes the lock of `dir` (which must exist); returns its release function. */
export function lockStateDir(dir: string): () => void {
  const file = join(dir, 'engine.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(file, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      return () => rmSync(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') {
        throw new ZonewallError('ERR_IO', `cannot lock the engine state directory ${dir}: ${(err as Error).message}`, { cause: err });
      }
      const owner = Number(readFileSync(file, 'utf8').trim());
      if (Number.isInteger(owner) && owner > 0 && alive(owner)) {
        const who = owner === process.pid ? 'this process (close the other Engine first)' : `process ${owner} (a running zonewall serve?)`;
        throw new ZonewallError('ERR_LOCKED', `the engine state directory ${dir} is in use by ${who}; stop it, or talk to it over HTTP`);
      }
      rmSync(file, { force: true }); // stale: its process is gone
    }
  }
  throw new ZonewallError('ERR_LOCKED', `the engine state directory ${dir} is being locked by another process; try again`);
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
