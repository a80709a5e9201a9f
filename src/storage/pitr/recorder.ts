/**
 * Feeds the change log from SQLite's WAL. Automatic checkpoints are off on PITR databases, so every
 * page version since the last checkpoint is still in the WAL or, for pages the WAL does not hold,
 * in the database file. Right after each COMMIT, the recorder reads the new frames' page numbers
 * and logs the before-image of each page (its latest earlier frame, else its bytes in the database
 * file, else "absent" for pages beyond the old size). Every ~1000 frames it fsyncs the log and
 * checkpoints with TRUNCATE, which is safe because everything the checkpoint overwrites is logged.
 *
 * A crash can land between a COMMIT and its log append. The frames are still in the WAL (nothing
 * checkpoints before the log is synced), so `recover()`, run before SQLite opens the file, validates
 * the WAL as SQLite's own recovery does and logs the commits that are missing.
 */
import { closeSync, existsSync, fstatSync, openSync, readFileSync, readSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { parkCursors } from '../open-cursors.js';
import { ChangeLog, RecordKind, type PageImage } from './log.js';
import {
  checksumThrough, FRAME_HEADER, frameOffset, headerValid, parseWalHeader, readCommits, WAL_HEADER,
  type WalCommit, type WalHeader,
} from './wal.js';

/** WAL frames after which the recorder checkpoints (SQLite's default auto-checkpoint). */
const CHECKPOINT_FRAMES = 1000;

function pread(fd: number, length: number, position: number): Buffer {
  const buf = Buffer.alloc(length);
  readSync(fd, buf, 0, length, position);
  return buf;
}

/** Page size from a database file's header, or null when the file is empty. */
export function databasePageSize(file: string): number | null {
  if (!existsSync(file)) return null;
  const fd = openSync(file, 'r');
  try {
    const header = pread(fd, 100, 0);
    const raw = header.readUInt16BE(16);
    return raw === 0 ? null : raw === 1 ? 65536 : raw;
  } finally {
    closeSync(fd);
  }
}

/** Copies each commit's before-images from the WAL into the change log. */
export class WalRecorder {
  readonly #log: ChangeLog;
  readonly #dbFile: string;
  readonly #walFile: string;
  readonly #now: () => number;
  readonly #frameOf = new Map<number, number>();
  #header: WalHeader | null = null;
  #logged = 0;
  #pages = 0;
  #walFd: number | null = null;
  #dbFd: number | null = null;
  #db: Database.Database | null = null;
  /** `recover()` found no WAL, or an empty one: nothing to checkpoint at `attach()`. */
  #walEmpty = false;

  constructor(log: ChangeLog, dbFile: string, now: () => number) {
    this.#log = log;
    this.#dbFile = dbFile;
    this.#walFile = `${dbFile}-wal`;
    this.#now = now;
  }

  /** Before SQLite opens the file: logs the commits a crash left in the WAL unlogged. */
  recover(): void {
    this.#walEmpty = true;
    if (!existsSync(this.#walFile)) return;
    const wal = readFileSync(this.#walFile);
    this.#walEmpty = wal.length === 0;
    const header = parseWalHeader(wal);
    if (!header || !headerValid(wal, header)) return;
    this.#header = header;
    const last = this.#log.last;
    const sameGeneration = last?.kind === RecordKind.commit && last.salt1 === header.salt1 && last.salt2 === header.salt2;
    const start = sameGeneration && last ? last.endFrame : 0;
    // In the same generation the file may lag behind the WAL; otherwise it was fully checkpointed.
    this.#pages = sameGeneration && last ? last.pagesAfter : this.#fileSizeInPages(header.pageSize);
    // Index the frames already logged: they hold the before-images of later commits' pages.
    for (let index = 1; index <= start; index++) {
      const at = frameOffset(index, header.pageSize);
      if (at + FRAME_HEADER > wal.length) break;
      this.#frameOf.set(wal.readUInt32BE(at), index);
    }
    const seed = checksumThrough(wal, header, start);
    const commits = readCommits(wal.subarray(frameOffset(start + 1, header.pageSize)), header, start + 1, { seed });
    this.#withWal(() => {
      for (const commit of commits) this.#record(commit);
    });
    this.#log.sync();
    this.#reset();
  }

  /** After SQLite opened the file: fold the (fully logged) WAL into the file and start tracking. */
  attach(db: Database.Database): void {
    this.#db = db;
    // A WAL that was absent or empty before SQLite opened the file (after a clean close) has nothing to fold.
    if (!this.#walEmpty) db.pragma('wal_checkpoint(TRUNCATE)');
    this.#reset();
    const pageSize = databasePageSize(this.#dbFile);
    this.#pages = pageSize === null ? 0 : this.#fileSizeInPages(pageSize);
  }

  /** Right after a COMMIT: logs it (and any commit not yet logged); checkpoints now and then. */
  afterCommit(): void {
    // No WAL yet (a commit that wrote nothing, on a file whose WAL nobody opened): nothing to log.
    if (this.#walFd === null && !existsSync(this.#walFile)) return;
    this.#withWal((walFd) => {
      const size = fstatSync(walFd).size;
      if (size < WAL_HEADER) return;
      const header = parseWalHeader(pread(walFd, WAL_HEADER, 0));
      if (!header) return;
      if (!this.#header || header.salt1 !== this.#header.salt1 || header.salt2 !== this.#header.salt2) {
        // A new WAL generation: everything before it is in the database file now.
        this.#frameOf.clear();
        this.#logged = 0;
        this.#header = header;
      }
      const from = frameOffset(this.#logged + 1, header.pageSize);
      if (size <= from) return;
      const commits = readCommits(pread(walFd, size - from, from), header, this.#logged + 1, null);
      for (const commit of commits) this.#record(commit);
    });
    if (this.#logged >= CHECKPOINT_FRAMES) this.checkpoint();
  }

  /** Syncs the log, then folds the WAL into the database file. */
  checkpoint(): void {
    if (!this.#db?.open) return;
    this.#log.sync();
    // A running statement (an unfinished SQL cursor) would make the checkpoint fail with SQLITE_LOCKED.
    parkCursors(this.#db);
    const [result] = this.#db.pragma('wal_checkpoint(TRUNCATE)') as Array<{ busy: number }>;
    if (result?.busy === 0) this.#reset();
  }

  /** Before the connection closes (SQLite checkpoints on close): make the log durable. */
  close(): void {
    this.#log.sync();
    this.#closeFds();
  }

  #reset(): void {
    this.#frameOf.clear();
    this.#logged = 0;
    this.#header = null;
    this.#closeFds();
  }

  #closeFds(): void {
    if (this.#walFd !== null) closeSync(this.#walFd);
    if (this.#dbFd !== null) closeSync(this.#dbFd);
    this.#walFd = null;
    this.#dbFd = null;
  }

  #withWal(fn: (walFd: number) => void): void {
    this.#walFd ??= openSync(this.#walFile, 'r');
    this.#dbFd ??= existsSync(this.#dbFile) ? openSync(this.#dbFile, 'r') : null;
    fn(this.#walFd);
  }

  #fileSizeInPages(pageSize: number): number {
    return existsSync(this.#dbFile) ? Math.floor(fstatSafe(this.#dbFile) / pageSize) : 0;
  }

  #beforeImage(pgno: number, pageSize: number): Buffer {
    const frame = this.#frameOf.get(pgno);
    if (frame !== undefined) return pread(this.#walFd as number, pageSize, frameOffset(frame, pageSize) + FRAME_HEADER);
    if (this.#dbFd === null) return Buffer.alloc(pageSize);
    return pread(this.#dbFd, pageSize, (pgno - 1) * pageSize);
  }

  #record(commit: WalCommit): void {
    const header = this.#header as WalHeader;
    const pageSize = header.pageSize;
    const pagesBefore = this.#pages;
    const pages: PageImage[] = [];
    const seen = new Set<number>();
    for (const { pgno } of commit.frames) {
      if (seen.has(pgno)) continue;
      seen.add(pgno);
      pages.push({ pgno, before: pgno > pagesBefore ? null : this.#beforeImage(pgno, pageSize) });
    }
    // A shrinking commit drops pages without writing them: keep what they held.
    for (let pgno = commit.pagesAfter + 1; pgno <= pagesBefore; pgno++) {
      if (!seen.has(pgno)) pages.push({ pgno, before: this.#beforeImage(pgno, pageSize) });
    }
    this.#log.append(
      {
        kind: RecordKind.commit, salt1: header.salt1, salt2: header.salt2, endFrame: commit.endFrame,
        pagesBefore, pagesAfter: commit.pagesAfter, pageSize, ref: 0, token: 0, pages,
      },
      this.#now(),
    );
    for (const frame of commit.frames) this.#frameOf.set(frame.pgno, frame.index);
    this.#logged = commit.endFrame;
    this.#pages = commit.pagesAfter;
  }
}

function fstatSafe(file: string): number {
  const fd = openSync(file, 'r');
  try {
    return fstatSync(fd).size;
  } finally {
    closeSync(fd);
  }
}
