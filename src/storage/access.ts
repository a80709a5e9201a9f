/**
 * Permission failures of a namespace directory as `StorageAccessError` (one line: the path, its
 * owner and mode, what to do) instead of SQLite's `attempt to write a readonly database` or Node's
 * bare `EACCES`. Typical cause: a `sudo zonewall ...` that left root's files in a user's directory.
 *
 * - A writer checks, when it opens the directory and when it opens an object, the few paths that
 *   opening and writing will use (`assertUsable`): SQLite opens a file it may not write read-only
 *   without a word and only fails at the first write, and a PITR log it may not write fails after
 *   the commit it logs. Checked at open, the error comes before the object writes anything.
 * - A reader opens first and, when opening fails, asks which path refused it (`accessErrorOf`): a
 *   read writes nothing, so it needs no check ahead (a plan stays one `open` a file).
 * `access(2)` answers for this process's user; root passes every check (and every open).
 */
import { accessSync, constants, lstatSync, readdirSync, type Stats } from 'node:fs';
import { dirname, join } from 'node:path';
import { accessDetail, StorageAccessError, StorageWriteError } from './errors.js';
import { writeFailureReason } from './session-reset.js';

/** A path this user may not use as asked, and its `lstat`. */
export interface Blocked {
  path: string;
  stat: Stats;
}

/** Node's and SQLite's codes of a failure that a permission can cause (checked against the paths before it is said so). */
function mayBePermission(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code === 'ERR_STORAGE') return mayBePermission((err as { cause?: unknown }).cause); // a StorageError saying it
  if (typeof code !== 'string') return false;
  return code === 'EACCES' || code === 'EPERM' || code === 'SQLITE_PERM' || code.startsWith('SQLITE_READONLY')
    || code.startsWith('SQLITE_CANTOPEN') || code.startsWith('SQLITE_IOERR');
}

/**
 * The first of `paths` (folders with `deep`: and what they hold) this user cannot read (`writes`:
 * or write); folders also need search (`x`). Missing paths and symbolic links are skipped;
 * `skipOwn` skips paths this user owns. One `access` call a path; `lstat` only for one refused.
 */
export function findBlocked(paths: readonly string[], writes: boolean, options: { deep?: boolean; skipOwn?: boolean; uid?: number } = {}): Blocked | undefined {
  const uid = options.uid ?? process.getuid?.();
  const mode = writes ? constants.R_OK | constants.W_OK : constants.R_OK;
  const stack: Array<[string, boolean | undefined]> = paths.map((p): [string, boolean | undefined] => [p, undefined]).reverse();
  while (stack.length > 0) {
    const [path, known] = stack.pop()!;
    let folder = known;
    if (folder === undefined) {
      let st: Stats | undefined;
      try {
        st = lstatSync(path, { throwIfNoEntry: false });
      } catch (err) {
        // A folder above it this user may not search (`x`) hides it: that folder is the one refused.
        const above = mayBePermission(err) ? unsearchableAbove(path) : undefined;
        if (above !== undefined) return above;
        continue;
      }
      if (st === undefined || st.isSymbolicLink()) continue;
      folder = st.isDirectory();
    }
    try {
      accessSync(path, folder ? mode | constants.X_OK : mode);
    } catch {
      const stat = lstatSync(path, { throwIfNoEntry: false });
      // Its own is skipped (zonewall makes its own files usable, or storage says them when it opens
      // them), but not its own folder it may not list or search: no walk (this one, the mode
      // tightening's) can look into it, and zonewall does not widen a mode it finds.
      if (stat !== undefined && !(options.skipOwn === true && stat.uid === uid && !(folder && !readable(path, true)))) return { path, stat };
      continue; // gone since, or its own and skipped
    }
    if (!folder || options.deep !== true) continue;
    for (const entry of readdirSync(path, { withFileTypes: true })) {
      if (!entry.isSymbolicLink()) stack.push([join(path, entry.name), entry.isDirectory()]);
    }
  }
  return undefined;
}

/**
 * The outermost folder above `path` this user may not search (`x`), which keeps it from looking at
 * `path` at all (`lstat` fails with EACCES), and its `lstat`; undefined when there is none.
 */
function unsearchableAbove(path: string): Blocked | undefined {
  const above: string[] = [];
  for (let dir = dirname(path); above[above.length - 1] !== dir; dir = dirname(dir)) above.push(dir);
  for (const dir of above.reverse()) {
    try {
      accessSync(dir, constants.X_OK);
    } catch {
      const stat = lstatSync(dir, { throwIfNoEntry: false });
      return stat === undefined ? undefined : { path: dir, stat };
    }
  }
  return undefined;
}

/** Whether this user may read `path` (a folder: and search it). */
function readable(path: string, folder: boolean): boolean {
  try {
    accessSync(path, folder ? constants.R_OK | constants.X_OK : constants.R_OK);
    return true;
  } catch {
    return false;
  }
}

/** The typed error for a path `findBlocked` found (asked for writing, it says a path it may not even read as not readable). */
export function accessError(blocked: Blocked, writes: boolean, root: string, uid: number, cause?: unknown): StorageAccessError {
  const { path, stat } = blocked;
  const folder = stat.isDirectory();
  const lacksRead = writes && !readable(path, folder);
  return new StorageAccessError({ path, owner: stat.uid, mode: stat.mode, folder, uid, writes, root, lacksRead }, cause === undefined ? undefined : { cause });
}

/**
 * Refuses (`StorageAccessError`) the first of `paths` this user cannot read or (`writes`) write;
 * folders with `deep` are checked with what they hold. No check without POSIX owners (Windows).
 */
export function assertUsable(paths: readonly string[], writes: boolean, root: string, deep = false): void {
  const uid = process.getuid?.();
  if (uid === undefined) return;
  const blocked = findBlocked(paths, writes, { deep, uid });
  if (blocked !== undefined) throw accessError(blocked, writes, root, uid);
}

/**
 * `err` said as a `StorageAccessError` when it is a permission failure on one of `paths` (checked
 * now, after the failure); undefined when it is not (the caller keeps `err`).
 */
export function accessErrorOf(err: unknown, paths: readonly string[], writes: boolean, root: string): StorageAccessError | undefined {
  const uid = process.getuid?.();
  if (uid === undefined || !mayBePermission(err)) return undefined;
  const blocked = findBlocked(paths, writes, { uid });
  return blocked === undefined ? undefined : accessError(blocked, writes, root, uid, err);
}

/** The paths of one object's SQLite storage: the folder it is in, its file and the file's side files. */
export function objectPaths(file: string): string[] {
  return [dirname(file), file, `${file}-wal`, `${file}-shm`, `${file}-journal`];
}

/**
 * The failure `err` of a write after the files opened as a `StorageWriteError`, when the file
 * system refused it (`writeFailureReason`); undefined for any other failure. It names the first of
 * `paths` this user may not write now (its mode and owner, what to do), else `paths[0]` and the
 * reason; folders with `deep` are looked into. `committed`: the transaction was durable, a write
 * after it failed (the PITR log); `opening`: the write was SQLite's opening of the file, before any change;
 * `pending`: it was the PITR log's work at open (a restore), which stays requested.
 */
export function writeFailureOf(err: unknown, paths: readonly string[], root: string, at: { committed: boolean; deep?: boolean; opening?: boolean; pending?: boolean }): StorageWriteError | undefined {
  const reason = writeFailureReason(err);
  if (reason === undefined) return undefined;
  const uid = process.getuid?.();
  const blocked = uid === undefined ? undefined : findBlocked(paths, true, { uid, deep: at.deep === true });
  if (blocked !== undefined && uid !== undefined) {
    const { path, stat } = blocked;
    const folder = stat.isDirectory();
    const why = accessDetail({ path, owner: stat.uid, mode: stat.mode, folder, uid, writes: true, root, lacksRead: !readable(path, folder) });
    return new StorageWriteError({ path, root, why, committed: at.committed, opening: at.opening, pending: at.pending }, { cause: err });
  }
  const path = paths[0] ?? root;
  return new StorageWriteError({ path, root, why: `writing ${path} failed: ${reason}`, committed: at.committed, opening: at.opening, pending: at.pending }, { cause: err });
}
