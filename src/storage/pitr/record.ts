/**
 * The binary form of one change-log record: a fixed 57-byte header (kind, sequence number, time,
 * WAL position, page counts, page size, restore reference and token) followed by page entries
 * (`u32 pgno`, `u8 flags`, then the before- and/or after-image). Framed on disk by `log.ts` as
 * `[u32 length][u32 crc32][payload]`. Little-endian; sequence numbers and times as float64, exact
 * up to 2^53.
 */
import { crc32 } from 'node:zlib';

/** What a record records. */
export const RecordKind = { commit: 1, restore: 2, restoreDone: 3, gap: 4 } as const;

/** A page of a record: its content before (and, for a restore, after) the change; null = absent. */
export interface PageImage {
  pgno: number;
  before: Buffer | null;
  after?: Buffer | null;
}

/** One log record. */
export interface LogRecord {
  kind: 1 | 2 | 3 | 4;
  seq: number;
  time: number;
  /** WAL position after a commit (salts of its generation and its commit frame). */
  salt1: number;
  salt2: number;
  endFrame: number;
  pagesBefore: number;
  pagesAfter: number;
  pageSize: number;
  /** Restore: the target sequence number; restore-done: the restore's sequence number. */
  ref: number;
  /** Restore: the token of the request it serves. */
  token: number;
  pages: PageImage[];
}

/** Bytes of the fixed header of a record payload. */
export const FIXED = 57;

/** A framed record: `[u32 length][u32 crc32][payload]`. */
export function encode(r: LogRecord): Buffer {
  let size = FIXED;
  for (const p of r.pages) size += 5 + (p.before?.length ?? 0) + (p.after?.length ?? 0);
  const out = Buffer.allocUnsafe(8 + size);
  const b = out.subarray(8);
  b.writeUInt8(r.kind, 0);
  b.writeDoubleLE(r.seq, 1);
  b.writeDoubleLE(r.time, 9);
  [r.salt1, r.salt2, r.endFrame, r.pagesBefore, r.pagesAfter, r.pageSize].forEach((v, i) => b.writeUInt32LE(v >>> 0, 17 + 4 * i));
  b.writeDoubleLE(r.ref, 41);
  b.writeUInt32LE(r.token >>> 0, 49);
  b.writeUInt32LE(r.pages.length, 53);
  let at = FIXED;
  for (const p of r.pages) {
    b.writeUInt32LE(p.pgno, at);
    b.writeUInt8((p.before ? 1 : 0) | (p.after ? 2 : 0), at + 4);
    at += 5;
    if (p.before) at += p.before.copy(b, at);
    if (p.after) at += p.after.copy(b, at);
  }
  out.writeUInt32LE(size, 0);
  out.writeUInt32LE(crc32(b), 4);
  return out;
}

/** The header fields of a payload (pages left empty). */
export function decodeHeader(b: Buffer): LogRecord {
  const u = (i: number): number => b.readUInt32LE(17 + 4 * i);
  return {
    kind: b.readUInt8(0) as LogRecord['kind'], seq: b.readDoubleLE(1), time: b.readDoubleLE(9),
    salt1: u(0), salt2: u(1), endFrame: u(2), pagesBefore: u(3), pagesAfter: u(4), pageSize: u(5),
    ref: b.readDoubleLE(41), token: b.readUInt32LE(49), pages: [],
  };
}

/** A whole payload, page images included. */
export function decode(b: Buffer): LogRecord {
  const record = decodeHeader(b);
  const count = b.readUInt32LE(53);
  let at = FIXED;
  for (let i = 0; i < count; i++) {
    const pgno = b.readUInt32LE(at);
    const flags = b.readUInt8(at + 4);
    at += 5;
    const page: PageImage = { pgno, before: null };
    if (flags & 1) { page.before = Buffer.from(b.subarray(at, at + record.pageSize)); at += record.pageSize; }
    if (flags & 2) { page.after = Buffer.from(b.subarray(at, at + record.pageSize)); at += record.pageSize; }
    record.pages.push(page);
  }
  return record;
}
