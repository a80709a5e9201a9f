/**
 * The embedded engine's state directory is private to the user: every directory in it 0700, every
 * file 0600 (the engine's SQLite files and their `-wal`/`-shm`/`-journal` side files, PITR logs and
 * bookmarks, namespace and zone lock files, apply records). The storage layer creates its files
 * with the process's umask, so while a state directory is open for writing the umask also masks
 * group and others (`process.umask(old | 0o077)`, restored when the last holder releases it; a
 * `workerd` child started meanwhile inherits it), and what an older zonewall left looser is
 * tightened when the directory is opened. Never used for a read-only opening, which changes nothing.
 */
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

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
    if (st.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  walk(dir);
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
  tightenStateDir(dir);
  let released = false;
  return {
    release(): void {
      if (released) return;
      released = true;
      if (--holders === 0 && saved !== undefined) {
        process.umask(saved);
        saved = undefined;
      }
    },
  };
}

/** The umask the user runs zonewall with (not the private one a held state directory sets). */
export function userUmask(): number {
  if (saved !== undefined) return saved;
  const current = process.umask(0o077);
  process.umask(current);
  return current;
}
