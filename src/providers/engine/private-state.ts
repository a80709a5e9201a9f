/**
 * The embedded engine's state directory is private to the user: every directory in it 0700, every
 * file 0600 (the engine's SQLite files and their `-wal`/`-shm`/`-journal` side files, PITR logs and
 * bookmarks, namespace and zone lock files, apply records). The storage layer creates its files
 * with the process's umask, so while a state directory is open for writing the umask also masks
 * group and others (`process.umask(old | 0o077)`, restored when the last holder releases it; a
 * `workerd` child started meanwhile inherits it), and what an older zonewall left looser is
 * tightened when the directory is opened. Never used for a read-only opening, which changes nothing.
 *
 * This walk is not merged with the CLI's access walk ahead of a writer (`cli/state-dir-access.ts`,
 * storage's `findBlocked`), though both visit every entry: that one must end before anything is
 * changed (a refused command changes nothing, modes included), this one changes modes; and this one
 * also runs for library callers (`openProvider`) who do no walk ahead. One walk would either chmod
 * before knowing the directory usable, or carry its list of loose paths from the CLI down through
 * `openProvider` to here: harder to read, for a second pass of one `lstat` an entry.
 */
import { chmodSync, lstatSync, readdirSync, type Stats } from 'node:fs';
import { join } from 'node:path';
import { accessError } from '../../engine/index.js';

let holders = 0;
let saved: number | undefined;

/** The mode bits a private entry keeps: 0700 for directories, 0600 for files. */
const DirMode = 0o700;
const FileMode = 0o600;

/**
 * Chmods every entry under `dir` (itself included) that group or others may use, to 0700 or 0600;
 * entries owned by another user and symbolic links are left alone; a missing `dir` is nothing to do.
 */
export function tightenStateDir(dir: string): void {
  const uid = typeof process.getuid === 'function' ? process.getuid() : undefined;
  const walk = (path: string): void => {
    let st;
    try {
      st = lstatSync(path);
    } catch {
      return; // gone meanwhile, or not there yet
    }
    if (st.isSymbolicLink() || (uid !== undefined && st.uid !== uid)) return;
    if ((st.mode & 0o077) !== 0) {
      try {
        chmodSync(path, st.isDirectory() ? DirMode : FileMode);
      } catch {
        // A file removed meanwhile (a WAL checkpointed away): nothing to tighten.
      }
    }
    if (st.isDirectory()) for (const name of listFolder(path, st, dir, uid)) walk(join(path, name));
  };
  walk(dir);
}

/**
 * The names in `path`, a folder of the state directory `root`; one of its own this user may not
 * list (mode 0300, 0100: zonewall does not widen modes it finds) is the state directory's access
 * error (`ERR_STATE_ACCESS`, one line naming it), not a bare EACCES.
 */
function listFolder(path: string, st: Stats, root: string, uid: number | undefined): string[] {
  try {
    return readdirSync(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (uid !== undefined && (code === 'EACCES' || code === 'EPERM')) throw accessError({ path, stat: st }, true, root, uid, err);
    throw err;
  }
}

/**
 * Keeps the files created from now on private (umask with group and others masked) until
 * `release()`, and tightens what `dir` already holds. Nested holders share one umask change.
 * @example const held = holdPrivateState(stateDir); try { ... } finally { held.release(); }
 */
export function holdPrivateState(dir: string): { release(): void } {
  if (holders++ === 0) {
    saved = process.umask(0o077);
    process.umask(saved | 0o077);
  }
  let released = false;
  const held = {
    release(): void {
      if (released) return;
      released = true;
      if (--holders === 0 && saved !== undefined) {
        process.umask(saved);
        saved = undefined;
      }
    },
  };
  try {
    tightenStateDir(dir);
  } catch (err) {
    held.release();
    throw err;
  }
  return held;
}

/** The umask the user runs zonewall with (not the private one a held state directory sets). */
export function userUmask(): number {
  if (saved !== undefined) return saved;
  const current = process.umask(0o077);
  process.umask(current);
  return current;
}
