/**
 * One lock file, correct under concurrency; shared by the apply's zone locks (`apply/lock.ts`) and
 * the engine's state-directory lock (`engine/state-lock.ts`), which is why it sits at the root
 * beside `errors.ts` (a neutral place every module may import). A lock is created whole or not at
 * all: the holder's record is written to a private temp file (mode 0600) and hard-linked to the
 * lock path, which fails with EEXIST when the lock exists, so no reader ever sees a half-written
 * lock; then the lock is read back and its nonce verified. A lock whose holder is dead (same host,
 * pid gone) or whose content is unreadable (empty, cut short, garbage: left by a kill of an older
 * version that wrote in place) is stale; taking it over runs under a short-lived guard lock and
 * re-checks, under the guard, that the lock file is still the very stale file that was judged
 * (same inode, same bytes), so of many processes racing for one stale lock exactly one wins.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, linkSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ZonewallError, fileErrorReason } from './errors.js';

/** Who holds a lock. */
export interface LockHolder {
  pid: number;
  host: string;
  at: string;
  nonce: string;
}

/** The lock file as seen by a reader: its holder when the content parses, and what identifies the file. */
interface Seen {
  holder: LockHolder | undefined;
  ino: number;
  text: string;
  mtimeMs: number;
}

/** A guard older than this whose holder cannot be confirmed alive is abandoned (it is held for microseconds). */
const GuardStaleMs = 2000;

/** Whether `pid` runs on this host (EPERM: it runs, as another user). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function parseHolder(text: string): LockHolder | undefined {
  // Engine locks of earlier versions hold a bare pid.
  if (/^\s*[1-9]\d*\s*$/.test(text)) return { pid: Number(text), host: hostname(), at: '?', nonce: '' };
  try {
    const h = JSON.parse(text) as Partial<LockHolder> | null;
    if (h !== null && typeof h === 'object' && Number.isInteger(h.pid) && (h.pid ?? 0) > 0 && typeof h.host === 'string') {
      return { pid: h.pid!, host: h.host, at: typeof h.at === 'string' ? h.at : '?', nonce: typeof h.nonce === 'string' ? h.nonce : '' };
    }
  } catch {
    // unreadable: empty, cut short or not ours
  }
  return undefined;
}

function look(path: string): Seen | undefined {
  try {
    const st = statSync(path);
    const text = readFileSync(path, 'utf8');
    return { holder: parseHolder(text), ino: st.ino, text, mtimeMs: st.mtimeMs };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw ioError(path, err);
  }
}

function ioError(path: string, err: unknown): ZonewallError {
  // In words, not Node's errno text naming the lock's temp file; a read-only state directory says what the command needs.
  const code = (err as NodeJS.ErrnoException | null)?.code;
  const needs = code === 'EACCES' || code === 'EPERM' || code === 'EROFS' ? ` (this command writes there: it needs write access to ${dirname(path)})` : '';
  return new ZonewallError('ERR_IO', `cannot use the lock file ${path}: ${fileErrorReason(err)}${needs}`, { cause: err });
}

/** Whether a seen lock no longer protects anything. */
function isStale(seen: Seen): boolean {
  if (seen.holder === undefined) return true;
  return seen.holder.host === hostname() && !processAlive(seen.holder.pid);
}

/** Creates `path` whole (temp file + link) and verifies it is ours; false when it exists. */
function create(path: string): LockHolder | undefined {
  const holder: LockHolder = { pid: process.pid, host: hostname(), at: new Date().toISOString(), nonce: randomBytes(8).toString('hex') };
  const tmp = `${path}.${process.pid}.${holder.nonce}.tmp`;
  try {
    const fd = openSync(tmp, 'wx', 0o600);
    try {
      writeSync(fd, JSON.stringify(holder));
    } finally {
      closeSync(fd);
    }
    linkSync(tmp, path);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return undefined;
    throw ioError(path, err);
  } finally {
    rmSync(tmp, { force: true });
  }
  return look(path)?.holder?.nonce === holder.nonce ? holder : undefined;
}

/** Removes `path` only if it is still the file `seen` describes. */
function removeIfSame(path: string, seen: Seen): void {
  const now = look(path);
  if (now !== undefined && now.ino === seen.ino && now.text === seen.text) rmSync(path, { force: true });
}

/** Takes over a stale lock under the guard; true when the stale file was removed (by us). */
function takeOver(path: string, seen: Seen): boolean {
  const guardPath = `${path}.guard`;
  const guard = create(guardPath);
  if (guard === undefined) {
    const g = look(guardPath);
    // A guard is held for microseconds; one that stays is left by a process killed while holding it.
    if (g !== undefined && (g.holder === undefined || isStale(g)) && Date.now() - g.mtimeMs > GuardStaleMs) removeIfSame(guardPath, g);
    return false;
  }
  try {
    const now = look(path);
    if (now === undefined || now.ino !== seen.ino || now.text !== seen.text) return false;
    rmSync(path, { force: true });
    return true;
  } finally {
    heldLock(guardPath, guard).release();
  }
}

/** What a held lock looks like to its holder. */
export interface HeldLock {
  path: string;
  release(): void;
}

/** Options of `acquireLockFile`. */
export interface AcquireOptions {
  /** How long to wait for a live holder; 0 refuses at once. */
  timeoutMs?: number;
  /** Poll interval while waiting. */
  pollMs?: number;
  /** The error to throw when the lock stays held (the holder, when readable). */
  busy(holder: LockHolder | undefined): Error;
}

/** Tries once, taking over a stale lock; the holder seen when another one holds it. */
export function tryLockFile(path: string): { held: HeldLock } | { holder: LockHolder | undefined } {
  for (let attempt = 0; attempt < 20; attempt++) {
    const mine = create(path);
    if (mine !== undefined) return { held: heldLock(path, mine) };
    const seen = look(path);
    if (seen === undefined) continue; // released meanwhile
    if (!isStale(seen)) return { holder: seen.holder };
    takeOver(path, seen); // won or lost, the next create says who holds it
  }
  return { holder: undefined };
}

/** The locks this process holds, so an interrupt can release them before it exits. */
const holding = new Set<HeldLock>();

function heldLock(path: string, mine: LockHolder): HeldLock {
  let held = true;
  const lock: HeldLock = {
    path,
    release() {
      if (!held) return;
      held = false;
      holding.delete(lock);
      const seen = look(path);
      if (seen?.holder?.nonce === mine.nonce) rmSync(path, { force: true });
    },
  };
  holding.add(lock);
  return lock;
}

/** Releases every lock this process holds (synchronous: safe in a signal handler that then exits). */
export function releaseHeldLocks(): void {
  for (const lock of [...holding]) lock.release();
}

/**
 * Takes the lock at `path`, waiting up to `timeoutMs` for a live holder.
 * @example const lock = await acquireLockFile(path, { busy: (h) => new Error(`held by ${h?.pid}`) }); try { ... } finally { lock.release(); }
 */
export async function acquireLockFile(path: string, options: AcquireOptions): Promise<HeldLock> {
  const deadline = Date.now() + (options.timeoutMs ?? 0);
  for (;;) {
    const got = tryLockFile(path);
    if ('held' in got) return got.held;
    if (Date.now() >= deadline) throw options.busy(got.holder);
    await sleep(Math.min(options.pollMs ?? 100, Math.max(1, deadline - Date.now())));
  }
}

/** Creates `dir` (and parents) private to this user (0700), tightening an existing one this user owns. */
export function makePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const st = statSync(dir);
  if ((st.mode & 0o077) !== 0 && typeof process.getuid === 'function' && st.uid === process.getuid()) chmodSync(dir, 0o700);
}
