/**
 * The durable change log of one object (`<object>.pitr/`): an append-only sequence of records in
 * 16 MiB segment files named by their first sequence number. Each committed transaction is one
 * record holding its sequence number (the bookmark), its time, and the before-image of every page
 * it changed, so any earlier state is rebuilt by undoing records newest-first. A restore is itself
 * a record (before- and after-images), so a restore can be undone like any commit.
 *
 * Records are framed as `[u32 length][u32 crc32][payload]`; a torn tail (a crash mid-append) fails
 * its CRC and is cut off at open. A segment is fsynced before the next one starts and before any
 * WAL checkpoint, so only the tail of the newest segment can ever be torn, and what a tear loses is
 * still in the WAL, from which `recorder.ts` logs it again.
 *
 * Opening must find the newest record and cut a torn tail, but only what was written after the
 * last fsync can be torn. So after each fsync the log notes that durable end in `synced` (offset
 * and sequence number of the newest record), and open checksums only what follows it, instead of
 * the whole newest segment (1.3 MB for a zone of 2,000 objects, on every open, read-only plans
 * included). The note is a hint, written without fsync: one that does not match the segment (a
 * crash before it was written, a torn note) is ignored and the whole segment is checked as before.
 */
import { closeSync, fstatSync, fsyncSync, mkdirSync, openSync, readdirSync, readFileSync, ftruncateSync, unlinkSync, writeFileSync, writeSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { StorageError } from '../errors.js';
import { decode, decodeHeader, encode, FIXED, RecordKind, type LogRecord } from './record.js';
import { readAt, walk } from './segment-file.js';

export { RecordKind, type LogRecord, type PageImage } from './record.js';

/** Where a record is, with its header fields. */
export interface RecordRef {
  file: string;
  offset: number;
  header: LogRecord;
}

interface Segment {
  firstSeq: number;
  firstTime: number;
  /** The segment starts with a gap marker: no state before it can be rebuilt. */
  gap: boolean;
}

const SEGMENT_BYTES = 16 * 1024 * 1024;

/** The durable end of the log as of the last fsync (file `synced`; see the file comment). */
interface SyncedNote {
  /** First sequence number of the newest segment (its name). */
  segment: number;
  /** Offset of the newest record in it, and the end of that record. */
  offset: number;
  end: number;
  seq: number;
}

const SYNCED = 'synced';

/** The change log of one object. */
export class ChangeLog {
  /** 32 hex digits naming this object's log; the last group of its bookmarks. */
  readonly lineage: string;
  readonly #dir: string;
  readonly #segments: Segment[] = [];
  #fd: number | null = null;
  #size = 0;
  #last: LogRecord | null = null;
  /** Offset of `#last` in the newest segment. */
  #lastOffset = 0;
  /** Bytes written since the last fsync: a log only read (a plan) is never synced, so never flushed to disk. */
  #unsynced = false;

  constructor(dir: string) {
    this.#dir = dir;
    try {
      mkdirSync(dir, { recursive: true });
      const lineageFile = join(dir, 'lineage');
      let lineage: string;
      try {
        lineage = readFileSync(lineageFile, 'utf8').trim();
      } catch {
        lineage = randomBytes(16).toString('hex');
        writeFileSync(lineageFile, lineage, { flush: true });
      }
      this.lineage = lineage;
      this.#load();
    } catch (err) {
      throw new StorageError(`Cannot open the PITR change log in ${dir}: ${(err as Error).message}`, { cause: err });
    }
  }

  /** The newest record, or null for an empty log. */
  get last(): LogRecord | null {
    return this.#last;
  }

  /** Sequence number of the newest record (0 when empty). */
  get lastSeq(): number {
    return this.#last?.seq ?? 0;
  }

  /** The oldest sequence number whose state can still be rebuilt. */
  get firstRestorableSeq(): number {
    const first = this.#segments[0];
    if (!first) return this.lastSeq;
    return first.gap ? first.firstSeq : first.firstSeq - 1;
  }

  /** Appends a record (sequence number and time assigned here); durable after `sync()`. */
  append(record: Omit<LogRecord, 'seq' | 'time'>, now: number): LogRecord {
    const full: LogRecord = { ...record, seq: this.lastSeq + 1, time: Math.max(this.#last?.time ?? 0, now) };
    const bytes = encode(full);
    if (this.#fd === null || this.#size + bytes.length > SEGMENT_BYTES) this.#roll(full);
    writeSync(this.#fd as number, bytes, 0, bytes.length, this.#size);
    this.#unsynced = true;
    this.#lastOffset = this.#size;
    this.#size += bytes.length;
    this.#last = full;
    return full;
  }

  /** Makes every appended record durable. */
  sync(): void {
    if (this.#fd === null || !this.#unsynced) return;
    fsyncSync(this.#fd);
    this.#unsynced = false;
    this.#noteSynced();
  }

  /** Closes the current segment (after syncing it). */
  close(): void {
    if (this.#fd === null) return;
    this.sync();
    closeSync(this.#fd);
    this.#fd = null;
  }

  /** Headers of every record with a sequence number above `seq`, ascending. */
  after(seq: number): RecordRef[] {
    const refs: RecordRef[] = [];
    for (let i = 0; i < this.#segments.length; i++) {
      const next = this.#segments[i + 1];
      if (next && next.firstSeq <= seq + 1) continue;
      const file = this.#file(this.#segments[i] as Segment);
      for (const { offset, payload } of walk(file, false)) {
        const header = decodeHeader(payload);
        if (header.seq > seq) refs.push({ file, offset, header });
      }
    }
    return refs;
  }

  /** The full record at `ref`. */
  read(ref: RecordRef): LogRecord {
    const fd = openSync(ref.file, 'r');
    try {
      const length = readAt(fd, ref.offset, 8).readUInt32LE(0);
      return decode(readAt(fd, ref.offset + 8, length));
    } finally {
      closeSync(fd);
    }
  }

  /** The sequence number of the state at `time`: the newest record at or before it. */
  seqAt(time: number): number {
    let index = -1;
    for (let i = 0; i < this.#segments.length; i++) if ((this.#segments[i] as Segment).firstTime <= time) index = i;
    if (index < 0) return this.firstRestorableSeq;
    let seq = (this.#segments[index] as Segment).firstSeq;
    for (const { payload } of walk(this.#file(this.#segments[index] as Segment), false)) {
      const header = decodeHeader(payload);
      if (header.time > time) break;
      seq = header.seq;
    }
    return seq;
  }

  /** The time the state of `seq` ended (the next record's time), or null if it is current. */
  endOf(seq: number): number | null {
    if (seq >= this.lastSeq) return null;
    return this.after(seq)[0]?.header.time ?? null;
  }

  /**
   * Forgets every record (a logging failure left a gap): states before now can no longer be
   * rebuilt, but sequence numbers continue, so later bookmarks stay ordered.
   */
  restartAfterGap(): void {
    const last = this.#last;
    this.close();
    for (const segment of this.#segments.splice(0)) unlinkSync(this.#file(segment));
    if (!last) return;
    const { seq: _seq, time: _time, ...rest } = last;
    this.append({ ...rest, kind: RecordKind.gap, salt1: 0, salt2: 0, endFrame: 0, pages: [], ref: 0, token: 0 }, last.time);
    this.sync();
  }

  /** Deletes segments whose every state ended before `cutoff` (the PITR window). */
  prune(cutoff: number): void {
    while (this.#segments.length > 1 && (this.#segments[1] as Segment).firstTime <= cutoff) {
      unlinkSync(this.#file(this.#segments.shift() as Segment));
    }
  }

  /** Notes the durable end just fsynced (a hint: see the file comment). */
  #noteSynced(): void {
    const tail = this.#segments[this.#segments.length - 1];
    if (!tail || !this.#last) return;
    const note: SyncedNote = { segment: tail.firstSeq, offset: this.#lastOffset, end: this.#size, seq: this.#last.seq };
    try {
      writeFileSync(join(this.#dir, SYNCED), JSON.stringify(note));
    } catch {
      // Only a hint: the next open checks the whole segment instead.
    }
  }

  /**
   * Where checksumming the newest segment must start: the end of the durable records the note
   * describes, with the newest of them as `#last`; 0 when there is no note that matches the file.
   */
  #durableEnd(tail: Segment, fd: number): number {
    let note: SyncedNote;
    try {
      note = JSON.parse(readFileSync(join(this.#dir, SYNCED), 'utf8')) as SyncedNote;
    } catch {
      return 0;
    }
    const { segment, offset, end, seq } = note ?? {};
    if (segment !== tail.firstSeq || !Number.isSafeInteger(offset) || !Number.isSafeInteger(end) || offset < 0) return 0;
    if (end - offset < 8 + FIXED || end > fstatSync(fd).size) return 0;
    const head = readAt(fd, offset, 8 + FIXED);
    if (head.length !== 8 + FIXED || offset + 8 + head.readUInt32LE(0) !== end) return 0;
    const header = decodeHeader(head.subarray(8));
    if (header.seq !== seq) return 0;
    this.#last = header;
    this.#lastOffset = offset;
    return end;
  }

  #file(segment: Segment): string {
    return join(this.#dir, `${segment.firstSeq.toString(16).padStart(16, '0')}.log`);
  }

  #roll(first: LogRecord): void {
    this.close();
    const segment: Segment = { firstSeq: first.seq, firstTime: first.time, gap: first.kind === RecordKind.gap };
    this.#fd = openSync(this.#file(segment), 'w');
    this.#unsynced = true;
    this.#size = 0;
    this.#segments.push(segment);
  }

  #load(): void {
    const names = readdirSync(this.#dir).filter((n) => /^[0-9a-f]{16}\.log$/.test(n)).sort();
    for (const name of names) {
      const file = join(this.#dir, name);
      const first = walk(file, false).next();
      if (first.done) { unlinkSync(file); continue; }
      const header = decodeHeader(first.value.payload);
      this.#segments.push({ firstSeq: header.seq, firstTime: header.time, gap: header.kind === RecordKind.gap });
    }
    const tail = this.#segments[this.#segments.length - 1];
    if (!tail) return;
    const file = this.#file(tail);
    this.#fd = openSync(file, 'r+');
    let end = this.#durableEnd(tail, this.#fd);
    for (const record of walk(file, true, end)) {
      end = record.end;
      this.#last = decodeHeader(record.payload);
      this.#lastOffset = record.offset;
    }
    // Cut a torn tail off; what it held is still in the WAL and gets logged again.
    if (fstatSync(this.#fd).size !== end) {
      ftruncateSync(this.#fd, end);
      this.#unsynced = true;
    }
    this.#size = end;
    if (this.#last === null) {
      closeSync(this.#fd);
      this.#fd = null;
      unlinkSync(file);
      this.#segments.pop();
      if (this.#segments.length > 0) this.#load2();
    }
  }

  /** After dropping an empty tail segment: find the last record of the previous one. */
  #load2(): void {
    const tail = this.#segments[this.#segments.length - 1] as Segment;
    for (const record of walk(this.#file(tail), true)) {
      this.#last = decodeHeader(record.payload);
      this.#lastOffset = record.offset;
    }
  }
}
