/**
 * Point-in-time recovery on the SQLite backend. The seed says the reference's local simulator cannot
 * do PITR because it keeps no durable change log; zonewall keeps one (`pitr/`), so it works locally.
 * `openPitr` runs before SQLite opens an object's file: it finishes an interrupted restore, logs
 * commits a crash left unlogged, applies a pending restore (the "next restart" after `ctx.abort()`
 * or a process restart), and prunes the log to the 30-day window. When none of that can be needed,
 * it runs at the session's first write or PITR call instead (`SessionPitr`). `PitrService` is the API.
 *
 * Decisions where the seed is silent:
 * - `getCurrentBookmark()` waits for pending implicit writes to commit (inside a transaction it
 *   answers at once with the state before the transaction), so the bookmark covers them. Each call
 *   returns a bookmark strictly greater than the last, as the reference's do (`pitr/bookmark.ts`).
 * - `getBookmarkForTime(t)` refuses times older than 30 days or in the future (`RangeError`).
 * - `onNextSessionRestoreBookmark(b)` returns the bookmark of the state at the call: writes made
 *   between the call and the restart are undone by the restore and not covered by that bookmark,
 *   so call `ctx.abort()` right after it.
 */
import { randomInt } from 'node:crypto';
import { existsSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { StorageRangeError, StorageTypeError } from './errors.js';
import { StorageLimits } from './limits.js';
import { BookmarkCounter, formatBookmark, parseBookmark } from './pitr/bookmark.js';
import { ChangeLog, RecordKind } from './pitr/log.js';
import { WalRecorder } from './pitr/recorder.js';
import { applyRestore, finishRestore, hasPendingRestore, pendingRestore, requestRestore } from './pitr/restore.js';
import type { StorageSession } from './session.js';

/** What `ctx.storage` needs from point-in-time recovery. */
export interface PitrApi {
  /** Bookmark of the current point in time. */
  current(): Promise<string>;
  /** Bookmark for about `timestamp`, within the window. */
  forTime(timestamp: unknown): string;
  /** Arranges a restore at the next restart; resolves to the bookmark that undoes it. */
  restoreOnNextSession(bookmark: unknown): Promise<string>;
}

/** The change log and WAL recorder of one session. */
export interface PitrParts {
  log: ChangeLog;
  recorder: WalRecorder;
  dir: string;
}

const GAP = 'gap';

/** Records that logging failed, so the next open starts the log afresh. */
export function markGap(dir: string): void {
  try {
    writeFileSync(join(dir, GAP), '', { flush: true });
  } catch {
    // Best effort: the disk that failed the log may refuse this too.
  }
}

function foldWal(file: string): void {
  const db = new Database(file);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/**
 * Whether the log must be read before SQLite opens the file: a restore waits (or was cut short,
 * `restore.ts` keeps its request until it is done), logging failed (a gap), or the WAL holds
 * commits a crash may have left unlogged, which SQLite would fold into the file. Otherwise the log
 * can wait for the session's first write or bookmark (`SessionPitr`).
 */
function logNeededAtOpen(dir: string, file: string): boolean {
  return hasPendingRestore(dir) || existsSync(join(dir, GAP)) || (statSync(`${file}-wal`, { throwIfNoEntry: false })?.size ?? 0) > 0;
}

/**
 * The PITR log of one session, read when first needed: at open when `logNeededAtOpen` says so,
 * else at the session's first write (`beforeBegin`) or PITR call. A session that only reads (every
 * zone of a plan) never reads it: reading the log was a third of the cost of opening a zone. Until
 * the first write nothing changes the file or the WAL, so the log read then finds what it would
 * have found at open.
 */
export class SessionPitr {
  readonly dir: string;
  readonly #file: string;
  readonly #now: () => number;
  #parts: PitrParts | null = null;
  #db: Database.Database | null = null;

  /** Before SQLite opens `file`: reads the log now if it must (`logNeededAtOpen`). */
  constructor(dir: string, file: string, now: () => number) {
    this.dir = dir;
    this.#file = file;
    this.#now = now;
    if (logNeededAtOpen(dir, file)) this.#parts = openPitr(dir, file, now);
  }

  /** After SQLite opened the file. */
  attach(db: Database.Database): void {
    this.#db = db;
    this.#parts?.recorder.attach(db);
  }

  /** The log and its recorder, read now if they were not. */
  parts(): PitrParts {
    if (this.#parts === null) {
      if (this.#db === null) throw new Error('SessionPitr.parts(): the database is not attached yet');
      const parts = openPitr(this.dir, this.#file, this.#now);
      try {
        parts.recorder.attach(this.#db);
      } catch (err) {
        parts.log.close();
        throw err;
      }
      this.#parts = parts;
    }
    return this.#parts;
  }

  /** Before the connection closes (SQLite checkpoints on close): makes the log durable and closes it, if it was read. */
  close(): void {
    const parts = this.#parts;
    if (parts === null) return;
    try {
      parts.recorder.close();
    } catch {
      markGap(this.dir);
    }
    parts.log.close();
  }
}

/** Brings an object's log and file to a consistent state before SQLite opens the file. */
export function openPitr(dir: string, file: string, now: () => number): PitrParts {
  const log = new ChangeLog(dir);
  if (existsSync(join(dir, GAP))) {
    log.restartAfterGap();
    unlinkSync(join(dir, GAP));
  }
  const last = log.last;
  if (last?.kind === RecordKind.restore) {
    const ref = log.after(last.seq - 1)[0];
    if (ref) finishRestore(log, file, log.read(ref), now());
  }
  const recorder = new WalRecorder(log, file, now);
  recorder.recover();
  const pending = pendingRestore(dir);
  if (pending) {
    const done = log.last?.kind === RecordKind.restoreDone && log.last.token === pending.token;
    if (!done && existsSync(file)) {
      foldWal(file);
      applyRestore(log, dir, file, pending, now());
    } else {
      unlinkSync(join(dir, 'restore-pending.json'));
    }
  }
  log.prune(now() - StorageLimits.pitrWindowMs);
  return { log, recorder, dir };
}

function toTime(timestamp: unknown): number {
  const time = timestamp instanceof Date ? timestamp.getTime() : typeof timestamp === 'number' ? new Date(timestamp).getTime() : NaN;
  if (!Number.isFinite(time)) {
    throw new StorageTypeError('getBookmarkForTime() needs a Date or a number of milliseconds since the epoch.');
  }
  return time;
}

/** The PITR API of one session. */
export class PitrService implements PitrApi {
  readonly #pitr: SessionPitr;
  readonly #session: StorageSession;
  readonly #now: () => number;
  readonly #calls: BookmarkCounter;

  /** @internal built by `open.ts` per session. */
  constructor(pitr: SessionPitr, session: StorageSession, now: () => number) {
    this.#pitr = pitr;
    this.#session = session;
    this.#now = now;
    this.#calls = new BookmarkCounter(pitr.dir);
  }

  /** Bookmark of the latest commit, after pending implicit writes commit; greater than every earlier one. */
  async current(): Promise<string> {
    await this.#settled();
    const { log } = this.#pitr.parts();
    return formatBookmark(log.lastSeq, log.lineage, this.#calls.next());
  }

  /** Bookmark of the state at `timestamp` (number or Date) within the window. */
  forTime(timestamp: unknown): string {
    const time = toTime(timestamp);
    const now = this.#now();
    const days = StorageLimits.pitrWindowMs / 86_400_000;
    if (time < now - StorageLimits.pitrWindowMs) {
      throw new StorageRangeError(
        `getBookmarkForTime(): ${new Date(time).toISOString()} is outside the point-in-time recovery window ` +
          `of the last ${days} days; pass a time after ${new Date(now - StorageLimits.pitrWindowMs).toISOString()}.`,
      );
    }
    if (time > now) {
      throw new StorageRangeError(
        `getBookmarkForTime(): ${new Date(time).toISOString()} is in the future; use getCurrentBookmark() for now.`,
      );
    }
    const { log } = this.#pitr.parts();
    return formatBookmark(Math.max(log.seqAt(time), log.firstRestorableSeq), log.lineage);
  }

  /** Records a restore for the next session; resolves to the bookmark of the state now. */
  async restoreOnNextSession(bookmark: unknown): Promise<string> {
    const { log, dir } = this.#pitr.parts();
    const seq = parseBookmark(bookmark, log.lineage);
    await this.#settled();
    if (seq > log.lastSeq) {
      throw new StorageRangeError(`The bookmark "${String(bookmark)}" is later than the current state of this object.`);
    }
    const ended = log.endOf(seq);
    if (seq < log.firstRestorableSeq || (ended !== null && ended < this.#now() - StorageLimits.pitrWindowMs)) {
      throw new StorageRangeError(
        `The bookmark "${String(bookmark)}" is older than the point-in-time recovery window of the last ` +
          `${StorageLimits.pitrWindowMs / 86_400_000} days and can no longer be restored.`,
      );
    }
    requestRestore(dir, { target: seq, token: randomInt(2 ** 32 - 1) });
    return formatBookmark(log.lastSeq, log.lineage, this.#calls.next());
  }

  /** Waits for pending implicit writes; inside a transaction, the state before it counts. */
  async #settled(): Promise<void> {
    if (this.#session.depth === 0) await this.#session.sync();
    this.#session.requireUsable();
  }
}
