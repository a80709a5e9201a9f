/**
 * Reading a change log segment file (`log.ts` writes them): records framed as `[u32 length][u32
 * crc32][payload]`, walked from an offset with only each payload's fixed header, or whole with its
 * checksum verified, stopping at the first torn record.
 */
import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { crc32 } from 'node:zlib';
import { FIXED } from './record.js';

/** Up to `length` bytes of the open file `fd` at `offset` (fewer at the end of the file). */
export function readAt(fd: number, offset: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length);
  const n = readSync(fd, buf, 0, length, offset);
  return n === length ? buf : buf.subarray(0, n);
}

/** Walks a segment's records: (offset, payload header or full payload). Stops at a torn record. */
export function* walk(file: string, full: boolean, from = 0): Generator<{ offset: number; end: number; payload: Buffer }> {
  const fd = openSync(file, 'r');
  try {
    const size = statSync(file).size;
    for (let offset = from; offset + 8 <= size;) {
      const head = readAt(fd, offset, 8);
      const length = head.readUInt32LE(0);
      if (length < FIXED || offset + 8 + length > size) return;
      const payload = readAt(fd, offset + 8, full ? length : FIXED);
      if (full && crc32(payload) !== head.readUInt32LE(4)) return;
      yield { offset, end: offset + 8 + length, payload };
      offset += 8 + length;
    }
  } finally {
    closeSync(fd);
  }
}
