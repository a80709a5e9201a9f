/**
 * Whether this user can use the embedded engine's state directory as a command needs it, checked
 * before the engine opens it: a file or folder of it this user cannot read (or, for a command that
 * writes, cannot write) and does not own (so zonewall cannot give itself access, as it does to its
 * own files: 0600/0700) is one line naming the path, its owner and mode, and what to do. Without it,
 * the engine met the file deep inside a write (`attempt to write a readonly database`, a 500 and
 * a stack trace in the server log) or Node's bare `EACCES`. Typical cause: a `sudo zonewall ...`
 * that left root's files in the user's state directory.
 */
import { accessSync, constants, lstatSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { ZonewallError } from '../errors.js';

/**
 * The first path under `dir` (itself included) this user cannot use as `mode` asks and does not own.
 * One `access` call a path (every plan makes this walk): the owner and mode are read only for a
 * path it refuses, and the entry types come with the folder's listing.
 */
function firstBlocked(dir: string, mode: number, uid: number): { path: string; stat: Stats } | undefined {
  const top = lstatSync(dir, { throwIfNoEntry: false });
  if (top === undefined || top.isSymbolicLink()) return undefined;
  const stack: Array<[string, boolean]> = [[dir, top.isDirectory()]];
  while (stack.length > 0) {
    const [path, folder] = stack.pop()!;
    try {
      accessSync(path, folder ? mode | constants.X_OK : mode);
    } catch {
      const stat = lstatSync(path, { throwIfNoEntry: false });
      if (stat !== undefined && stat.uid !== uid) return { path, stat };
      continue; // gone since, or its own: zonewall sets the modes of its files itself
    }
    if (!folder) continue;
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (!entry.isSymbolicLink()) stack.push([join(path, entry.name), entry.isDirectory()]);
    }
  }
  return undefined;
}

/**
 * Refuses (`ERR_USAGE`, one line) a state directory holding a file or folder this user cannot read
 * (`writes`: or write) and does not own. A missing directory passes (it is created).
 *
 * @example assertStateDirUsable('.zonewall', { writes: true })
 */
export function assertStateDirUsable(dir: string, use: { writes: boolean }, uid: number | undefined = process.getuid?.()): void {
  if (uid === undefined) return; // no POSIX owners (Windows)
  const blocked = firstBlocked(dir, use.writes ? constants.R_OK | constants.W_OK : constants.R_OK, uid);
  if (blocked === undefined) return;
  const { path, stat } = blocked;
  const mode = (stat.mode & 0o777).toString(8).padStart(4, '0');
  const what = stat.isDirectory() ? 'folder' : 'file';
  throw new ZonewallError('ERR_USAGE',
    `cannot ${use.writes ? 'write' : 'read'} the state directory ${dir}: the ${what} ${path} (mode ${mode}, owner uid ${stat.uid}) is not ${use.writes ? 'writable' : 'readable'} by this user (uid ${uid}): ` +
    `run zonewall as its owner, or give the files to this user (chown -R ${uid} ${dir}), or pass another --state-dir`);
}
