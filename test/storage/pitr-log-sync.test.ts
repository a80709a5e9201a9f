/**
 * The PITR change log fsyncs only what it wrote: opening and closing a log that was only read (a
 * read-only plan on the embedded engine) does not fsync, while an append is made durable by
 * `sync()` and by `close()`. fsync calls are counted through a partial mock of node:fs.
 */
import { mkdtempSync, rmSync } from 'node:fs';
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
});
