/**
 * Reading SQLite's write-ahead log (file format: sqlite.org/fileformat2.html#walformat). PITR copies
 * each commit's page numbers out of the WAL right after the commit, before any checkpoint can fold
 * the frames into the database file. After a crash, the frames not yet logged are found by
 * validating the WAL exactly as SQLite's recovery does (salts and the cumulative checksum), so a
 * torn final transaction is ignored just as SQLite ignores it.
 */

/** Bytes of the WAL header. */
export const WAL_HEADER = 32;
/** Bytes of each frame header. */
export const FRAME_HEADER = 24;

/** The WAL header fields PITR needs. */
export interface WalHeader {
  pageSize: number;
  salt1: number;
  salt2: number;
  bigEndianChecksum: boolean;
  checksum: [number, number];
}

/** One frame's header. */
export interface WalFrame {
  /** 1-based frame number in this WAL generation. */
  index: number;
  pgno: number;
  /** Database size in pages after the commit, for a commit frame; 0 otherwise. */
  commitPages: number;
}

/** One committed transaction found in the WAL. */
export interface WalCommit {
  /** Frames of the transaction, in order. */
  frames: WalFrame[];
  /** Frame number of its commit frame. */
  endFrame: number;
  /** Database size in pages after it. */
  pagesAfter: number;
}

/** Parses the WAL header; null when absent, short or not a WAL. */
export function parseWalHeader(buf: Buffer): WalHeader | null {
  if (buf.length < WAL_HEADER) return null;
  const magic = buf.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return null;
  return {
    pageSize: buf.readUInt32BE(8) === 1 ? 65536 : buf.readUInt32BE(8),
    salt1: buf.readUInt32BE(16),
    salt2: buf.readUInt32BE(20),
    bigEndianChecksum: (magic & 1) === 1,
    checksum: [buf.readUInt32BE(24), buf.readUInt32BE(28)],
  };
}

/** SQLite's WAL checksum over `buf[start, end)`, continuing from `s`. */
function checksum(buf: Buffer, start: number, end: number, s: [number, number], bigEndian: boolean): [number, number] {
  let [s0, s1] = s;
  for (let i = start; i < end; i += 8) {
    const x0 = bigEndian ? buf.readUInt32BE(i) : buf.readUInt32LE(i);
    const x1 = bigEndian ? buf.readUInt32BE(i + 4) : buf.readUInt32LE(i + 4);
    s0 = (s0 + x0 + s1) >>> 0;
    s1 = (s1 + x1 + s0) >>> 0;
  }
  return [s0, s1];
}

/** Byte offset of frame `index` (1-based). */
export function frameOffset(index: number, pageSize: number): number {
  return WAL_HEADER + (index - 1) * (FRAME_HEADER + pageSize);
}

/**
 * Committed transactions in `buf` (frames `first`..), which starts at frame `first`'s offset. With
 * `validate`, checksums are verified from `seed` (the running checksum before frame `first`), as
 * SQLite's recovery does; otherwise frames are trusted up to the first salt mismatch. Frames after
 * the last commit frame (an unfinished or rolled-back transaction) are not returned.
 */
export function readCommits(
  buf: Buffer,
  header: WalHeader,
  first: number,
  validate: { seed: [number, number] } | null,
): WalCommit[] {
  const size = FRAME_HEADER + header.pageSize;
  const commits: WalCommit[] = [];
  let pending: WalFrame[] = [];
  let running = validate?.seed ?? [0, 0];
  for (let at = 0, index = first; at + size <= buf.length; at += size, index++) {
    const pgno = buf.readUInt32BE(at);
    if (pgno === 0 || buf.readUInt32BE(at + 8) !== header.salt1 || buf.readUInt32BE(at + 12) !== header.salt2) break;
    if (validate) {
      running = checksum(buf, at, at + 8, running, header.bigEndianChecksum);
      running = checksum(buf, at + FRAME_HEADER, at + size, running, header.bigEndianChecksum);
      if (running[0] !== buf.readUInt32BE(at + 16) || running[1] !== buf.readUInt32BE(at + 20)) break;
    }
    const commitPages = buf.readUInt32BE(at + 4);
    pending.push({ index, pgno, commitPages });
    if (commitPages !== 0) {
      commits.push({ frames: pending, endFrame: index, pagesAfter: commitPages });
      pending = [];
    }
  }
  return commits;
}

/** The running checksum after the WAL header and frames 1..`count` of `wal` (the whole file). */
export function checksumThrough(wal: Buffer, header: WalHeader, count: number): [number, number] {
  let running = checksum(wal, 0, 24, [0, 0], header.bigEndianChecksum);
  const size = FRAME_HEADER + header.pageSize;
  for (let index = 1; index <= count; index++) {
    const at = frameOffset(index, header.pageSize);
    running = checksum(wal, at, at + 8, running, header.bigEndianChecksum);
    running = checksum(wal, at + FRAME_HEADER, at + size, running, header.bigEndianChecksum);
  }
  return running;
}

/** True when the WAL header's own checksum is valid. */
export function headerValid(wal: Buffer, header: WalHeader): boolean {
  const [s0, s1] = checksum(wal, 0, 24, [0, 0], header.bigEndianChecksum);
  return s0 === header.checksum[0] && s1 === header.checksum[1];
}
