/**
 * The PITR change log fsyncs only what it wrote: opening and closing a log that was only read (a
 * read-only plan on the embedded engine) does not fsync, while an append is made durable by
 * `sync()` and by `close()`. fsync calls are counted through a partial mock of node:fs.
 */
import { appendFileSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

const counts = vi.hoisted(() => ({ fsync: 0 }));
vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  return { ...fs, fsyncSync: (fd: number) => { counts.fsync++; fs.fsyncSync(fd); } };
});
const { ChangeLog, RecordKind } = await import('../../src/storage/pitr/log.js');

const record = { kind: RecordKind.commit, salt1: 1, salt2: 2, endFrame: 1, pagesBefore: 0, pagesAfter: 0, pageSize: 4096, pages: [], ref: 0, token: 0 };
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'zw-pitr-sync-'));
  counts.fsync = 0;
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('PITR change log durability', () => {
  it('fsyncs appends, and nothing when only read', () => {
    const log = new ChangeLog(dir);
    log.append(record, 1000);
    log.sync();
    expect(counts.fsync).toBe(1);
    log.sync();
    expect(counts.fsync).toBe(1);
    log.append(record, 1001);
    log.close();
    expect(counts.fsync).toBe(2);

    counts.fsync = 0;
    const reopened = new ChangeLog(dir);
    expect(reopened.lastSeq).toBe(2);
    reopened.sync();
    reopened.close();
    expect(counts.fsync).toBe(0);
  });

  it('opens from the synced note, checks what follows it, and ignores a note that does not match', () => {
    const log = new ChangeLog(dir);
    log.append(record, 1000);
    log.append(record, 1001);
    log.sync();
    // Written after the last fsync: a crash here leaves it past the note.
    log.append(record, 1002);
    const segment = join(dir, readdirSync(dir).find((f) => f.endsWith('.log')) as string);
    expect(new ChangeLog(dir).lastSeq).toBe(3);
    const size = statSync(segment).size;
    appendFileSync(segment, Buffer.from([200, 0, 0, 0, 1, 2, 3]));
    const torn = new ChangeLog(dir);
    expect(torn.lastSeq).toBe(3);
    expect(statSync(segment).size).toBe(size);
    torn.close();
    let seq = 3;
    for (const note of ['{"segment":1,"offs', JSON.stringify({ segment: 1, offset: 0, end: size * 2, seq: 1 }), JSON.stringify({ segment: 1, offset: 0, end: 40, seq: 9 })]) {
      writeFileSync(join(dir, 'synced'), note);
      const reopened = new ChangeLog(dir);
      expect(reopened.lastSeq).toBe(seq);
      expect(reopened.after(0).map((r) => r.header.seq)).toEqual(Array.from({ length: seq }, (_, i) => i + 1));
      reopened.append(record, 1003);
      seq++;
      reopened.close();
    }
    expect(new ChangeLog(dir).lastSeq).toBe(6);
  });
});
