/**
 * Whether this user can write the embedded engine's state directory, checked before a command that
 * writes opens it: a file or folder of it this user cannot write and does not own (so zonewall
 * cannot give itself access, as it does to its own files: 0600/0700) is one line naming the path,
 * its owner and mode, and what to do (`StorageAccessError`, `ERR_STATE_ACCESS`). Typical cause: a
 * `sudo zonewall ...` that left root's files in the user's state directory.
 *
 * A command that only reads (`plan`, `export`, ...) does not walk: the storage layer says the file
 * it could not read when it meets it, and a read leaves nothing half-done.
 *
 * Why a writer still walks the whole directory first, though storage says an object's files it may
 * not write when it opens the object, before that object writes anything (`storage/access.ts`):
 * - an apply is not atomic across its writes: each request is one write, lists are written before
 *   the zones, zones one after another, and a failure stops the apply where it is (`ApplyError`
 *   says what was applied). Storage's check comes when an object is first opened, and a writer
 *   opens some only midway: the account object at a zone's first write that uses a list, a zone
 *   created at its first write, another zone's object after the first zone was applied;
 * - some files are not storage's: `engine.lock`, the zone locks (`locks/`), the apply records
 *   (`applies/`, written just before each zone's first write).
 * The walk is one `access` call a path. Storage's check covers what it cannot see: a file changed
 * after it (a long `serve`, which answers a clean API error) and a file of the user's own it may
 * not write (0400: zonewall tightens modes, it does not widen them), which apply meets while it
 * plans, when each zone's object opens, before its first write.
 */
import { accessError, findBlocked } from '../storage/index.js';

/**
 * Refuses (`ERR_STATE_ACCESS`, one line) a state directory holding a file or folder this user
 * cannot read (`writes`: or write) and does not own. A missing directory passes (it is created).
 *
 * @example assertStateDirUsable('.zonewall', { writes: true })
 */
export function assertStateDirUsable(dir: string, use: { writes: boolean }, uid: number | undefined = process.getuid?.()): void {
  if (uid === undefined) return; // no POSIX owners (Windows)
  const blocked = findBlocked([dir], use.writes, { deep: true, skipOwn: true, uid });
  if (blocked !== undefined) throw accessError(blocked, use.writes, dir, uid);
}

/**
 * Refuses (`ERR_STATE_ACCESS`, one line) a folder of the state directory that a command will change
 * after its writes, the user's own too (the walk passes the user's own paths, and zonewall does not
 * widen their modes): rollback removes the apply record from `applies/` after restoring the zone, so
 * it asks here before restoring (else it restored, then failed). A missing folder passes.
 *
 * @example assertStateFolderWritable('.zonewall/applies', '.zonewall')
 */
export function assertStateFolderWritable(folder: string, root: string, uid: number | undefined = process.getuid?.()): void {
  if (uid === undefined) return;
  const blocked = findBlocked([folder], true, { uid });
  if (blocked !== undefined) throw accessError(blocked, true, root, uid);
}
