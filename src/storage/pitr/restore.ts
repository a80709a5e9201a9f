/**
 * Applying a point-in-time restore, at the start of a session, while SQLite has the file closed and
 * the WAL folded in. The target state is rebuilt by undoing the log's records newest-first: each
 * page takes the before-image from the oldest record after the target that touched it, and the
 * file takes the size it had then. The restore is logged first, as a record holding both the
 * current pages (so it can be undone like a commit) and the target pages (so a crash mid-write is
 * finished at the next open), then written to the file, fsynced, and marked done.
 */
import { closeSync, existsSync, fsyncSync, ftruncateSync, fstatSync, openSync, readFileSync, readSync, renameSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { ChangeLog, RecordKind, type LogRecord, type PageImage } from './log.js';
import { databasePageSize } from './recorder.js';

/** A restore waiting for the next session. */
export interface PendingRestore {
  target: number;
  token: number;
}

const PENDING = 'restore-pending.json';

/** Records (durably) that the next session must restore to `target`. */
export function requestRestore(dir: string, pending: PendingRestore): void {
  const tmp = join(dir, `${PENDING}.tmp`);
  writeFileSync(tmp, JSON.stringify(pending), { flush: true });
  renameSync(tmp, join(dir, PENDING));
}

/** Whether a restore waits for the next session, or was cut short by a crash (`applyRestore`). */
export function hasPendingRestore(dir: string): boolean {
  return existsSync(join(dir, PENDING));
}

/** The pending restore, if any. */
export function pendingRestore(dir: string): PendingRestore | null {
  const file = join(dir, PENDING);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, 'utf8')) as PendingRestore;
}

function clearPending(dir: string): void {
  const file = join(dir, PENDING);
  if (existsSync(file)) unlinkSync(file);
}

function readPage(fd: number, pgno: number, pageSize: number): Buffer {
  const buf = Buffer.alloc(pageSize);
  readSync(fd, buf, 0, pageSize, (pgno - 1) * pageSize);
  return buf;
}

/** Writes a restore record's target pages into the file, sets its size, fsyncs, and logs it done. */
export function finishRestore(log: ChangeLog, file: string, record: LogRecord, now: number): void {
  const fd = openSync(file, 'r+');
  try {
    for (const page of record.pages) {
      if (page.after) writeSync(fd, page.after, 0, record.pageSize, (page.pgno - 1) * record.pageSize);
    }
    ftruncateSync(fd, record.pagesAfter * record.pageSize);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  log.append({ ...record, kind: RecordKind.restoreDone, ref: record.seq, pages: [] }, now);
  log.sync();
}

/** Target page images: for each page touched after `target`, its content at `target`. */
function targetImages(log: ChangeLog, target: number): { images: Map<number, Buffer | null>; pages: number } | null {
  const refs = log.after(target);
  const first = refs[0];
  if (!first) return null;
  const images = new Map<number, Buffer | null>();
  for (let i = refs.length - 1; i >= 0; i--) {
    for (const page of log.read(refs[i] as (typeof refs)[number]).pages) images.set(page.pgno, page.before);
  }
  return { images, pages: first.header.pagesBefore };
}

/** Restores the (closed, checkpointed) database `file` to the state after record `request.target`. */
export function applyRestore(log: ChangeLog, dir: string, file: string, request: PendingRestore, now: number): void {
  const target = targetImages(log, request.target);
  const pageSize = databasePageSize(file);
  if (target === null || pageSize === null) {
    clearPending(dir);
    return;
  }
  const fd = openSync(file, 'r');
  const pages: PageImage[] = [];
  let current: number;
  try {
    current = Math.floor(fstatSync(fd).size / pageSize);
    for (const [pgno, image] of target.images) {
      if (pgno > target.pages) continue;
      pages.push({ pgno, before: pgno <= current ? readPage(fd, pgno, pageSize) : null, after: image ?? Buffer.alloc(pageSize) });
    }
    // Pages the restore cuts off must be kept for undoing it.
    for (let pgno = target.pages + 1; pgno <= current; pgno++) pages.push({ pgno, before: readPage(fd, pgno, pageSize) });
  } finally {
    closeSync(fd);
  }
  const record = log.append(
    {
      kind: RecordKind.restore, salt1: 0, salt2: 0, endFrame: 0, pagesBefore: current, pagesAfter: target.pages,
      pageSize, ref: request.target, token: request.token, pages,
    },
    now,
  );
  log.sync();
  // The request goes only once the restore is done: until then it tells the next open (which
  // finishes a cut-short restore from its record) that the log must be read before SQLite opens
  // the file (`pitr.ts` reads it lazily otherwise).
  finishRestore(log, file, record, now);
  clearPending(dir);
}
