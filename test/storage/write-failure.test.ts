/**
 * A write the file system refuses after the object's files opened (here a file size limit,
 * `ulimit -f`, which fails the WAL's write past it, as a full disk or a failing file system would)
 * is a `StorageWriteError` (`ERR_STATE_WRITE`) naming the file and saying nothing was written: it
 * was a reset error saying only "Object was reset ... disk I/O error: SQLITE_IOERR_WRITE". It is
 * still a reset of the object (a `StorageResetError`, `durableObjectReset`), and the transaction
 * was rolled back: the value before the failed write is what the object reads afterwards.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outputOf, repoRoot, requireBuild, tempDir } from '../helpers/e2e-cli.js';

let temp: ReturnType<typeof tempDir>;
beforeAll(() => {
  requireBuild();
  temp = tempDir('storage-write-failure');
});
afterAll(() => temp.cleanup());

describe('a write refused after the object opened', () => {
  it('is a StorageWriteError naming the file, a reset of the object, rolled back', async () => {
    const dir = join(temp.dir, 'ns');
    const script = `
      const { ObjectNamespace, StorageResetError, StorageWriteError } = await import(${JSON.stringify(pathToFileURL(join(repoRoot, 'dist', 'storage', 'index.js')).href)});
      class Box {
        constructor(ctx) { this.ctx = ctx; }
        async put(v) { await this.ctx.storage.put('v', v); }
        async big() { for (let i = 0; i < 64; i++) this.ctx.storage.put('k' + i, 'x'.repeat(4000)); this.ctx.storage.put('v', 'after'); await this.ctx.storage.sync(); }
        async get() { return this.ctx.storage.get('v'); }
      }
      const ns = new ObjectNamespace(Box, { dir: ${JSON.stringify(dir)} });
      const x = ns.get('x');
      await x.put('before');
      let out;
      try { await x.big(); out = { ok: true }; }
      catch (err) { out = { ok: false, name: err.constructor.name, code: err.code, message: err.message, path: err.path, committed: err.committed, reset: err instanceof StorageResetError, write: err instanceof StorageWriteError, marker: err.durableObjectReset }; }
      out.after = await x.get();
      await ns.close();
      process.stdout.write(JSON.stringify(out));
    `;
    const run = await outputOf(spawn('/bin/bash', ['-c', `ulimit -f 128 && exec '${process.execPath}' --input-type=module -e "$SCRIPT"`], { env: { PATH: process.env.PATH ?? '', SCRIPT: script }, stdio: ['ignore', 'pipe', 'pipe'] }));
    if (run.stdout === '') throw new Error(run.stderr);
    const out = JSON.parse(run.stdout) as Record<string, unknown>;
    const file = out.path as string;
    expect(file).toMatch(new RegExp(`^${dir.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/objects/[0-9a-f]{64}\\.sqlite$`));
    expect(out).toEqual({
      ok: false, name: 'StorageWriteError', code: 'ERR_STATE_WRITE', path: file, committed: false, reset: true, write: true, marker: true,
      message: `cannot write the state directory ${dir}: writing ${file} failed: disk I/O error (SQLITE_IOERR_WRITE); nothing was written (the change was rolled back)`,
      after: 'before',
    });
  }, 30_000);
});
