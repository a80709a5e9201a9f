/**
 * A namespace opened for reading (`readOnly`), over real SQLite files: it reads what writers
 * committed and writes nothing (no file created, changed or removed: lock files, alarm index,
 * `-wal`/`-shm` side files and directory entries included); an object without a file reads as
 * empty; writes are refused by SQLite; a writer is kept out while it reads, and a writer already at
 * work in another process (a real child) does not stop it, nor does a writer killed with committed
 * pages still in its WAL hide them.
 */
import { spawn } from 'node:child_process';
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { listing } from '../helpers/file-listing.js';
import { ObjectNamespace, type ObjectState } from '../../src/storage/index.js';
import { openNamespace, tempDir } from './helpers.js';

const fixture = fileURLToPath(new URL('./fixtures/lock-child.ts', import.meta.url));

class Counter {
  constructor(readonly ctx: ObjectState) {}
  async read(key: string): Promise<unknown> {
    return this.ctx.storage.get(key);
  }
  async write(key: string, value: unknown): Promise<void> {
    await this.ctx.storage.put(key, value);
  }
}

async function written(dir: string, values: Record<string, unknown>): Promise<void> {
  const ns = new ObjectNamespace(Counter, { dir });
  for (const [key, value] of Object.entries(values)) await ns.get('c').write(key, value);
  await ns.close();
}

/** A child process holding `dir` for writing (it wrote `held` = its pid), until `release` or a kill. */
function holder(dir: string) {
  const proc = spawn(process.execPath, ['--import', 'tsx', fixture, 'hold', dir], { stdio: ['pipe', 'pipe', 'pipe'] });
  const ready = new Promise<void>((resolve, reject) => {
    proc.stdout.on('data', (d: Buffer) => { if (d.toString().includes('ready')) resolve(); });
    proc.on('exit', (code) => reject(new Error(`holder exited ${code}`)));
  });
  const exited = new Promise<void>((resolve) => proc.on('exit', () => resolve()));
  return { proc, ready, exited };
}

describe('a read-only namespace', () => {
  it('reads committed data and leaves every file as it was', async () => {
    const dir = tempDir();
    await written(dir, { a: 1, b: 'two' });
    const before = listing(dir);
    const ns = openNamespace(Counter, { dir, readOnly: true });
    expect(await ns.get('c').read('a')).toBe(1);
    expect(await ns.get('c').read('b')).toBe('two');
    // An object with no file reads as empty, and gets none.
    expect(await ns.get('nobody').read('a')).toBeUndefined();
    await expect(ns.get('c').write('a', 3)).rejects.toThrow(/readonly/i);
    expect(ns.hibernate('c')).toBe(true);
    expect(await ns.get('c').read('a')).toBe(1);
    await ns.close();
    expect(listing(dir)).toEqual(before);
  });

  it('of a directory that does not exist reads as empty and creates nothing', async () => {
    const dir = join(tempDir(), 'missing');
    const ns = openNamespace(Counter, { dir, readOnly: true });
    expect(await ns.get('c').read('a')).toBeUndefined();
    await ns.close();
    expect(() => statSync(dir)).toThrow(/ENOENT/);
  });

  it('keeps a writer out while it reads, writing nothing to do so', async () => {
    const dir = tempDir();
    await written(dir, { a: 1 });
    const before = listing(dir);
    const reader = openNamespace(Counter, { dir, readOnly: true });
    expect(await reader.get('c').read('a')).toBe(1);
    const opened = new Promise<string>((resolve) => {
      const proc = spawn(process.execPath, ['--import', 'tsx', fixture, 'open', dir], { stdio: ['ignore', 'pipe', 'inherit'] });
      let out = '';
      proc.stdout.on('data', (d: Buffer) => { out += d.toString(); });
      proc.on('exit', () => resolve(out));
    });
    const answer = JSON.parse(await opened) as { locked?: boolean };
    expect(answer.locked).toBe(true);
    await reader.close();
    expect(listing(dir)).toEqual(before);
    // Once the reader closed, a writer opens it.
    const writer = new ObjectNamespace(Counter, { dir });
    await writer.close();
  });

  it('reads what a writer in another process committed while that writer holds the directory', async () => {
    const dir = tempDir();
    await written(dir, { a: 1 });
    const child = holder(dir);
    try {
      await child.ready;
      const ns = openNamespace(Counter, { dir, readOnly: true });
      expect(await ns.get('c').read('held')).toBe(child.proc.pid);
      expect(await ns.get('c').read('a')).toBe(1);
      await ns.close();
    } finally {
      child.proc.stdin.end('release\n');
      await child.exited;
    }
  });

  it('reads the commits a killed writer left in its WAL, and leaves them there for the next writer to log', async () => {
    const dir = tempDir();
    await written(dir, { a: 1 });
    const child = holder(dir);
    await child.ready;
    child.proc.kill('SIGKILL');
    await child.exited;
    // The object's file and its WAL (SQLite may add a -shm index beside them: see read-only.ts).
    const files = () => listing(dir).filter((line) => /\.sqlite(-wal)? /.test(line) && line.includes('objects'));
    const before = files();
    expect(before.some((line) => /-wal [1-9]/.test(line))).toBe(true);
    const ns = openNamespace(Counter, { dir, readOnly: true });
    expect(await ns.get('c').read('held')).toBe(child.proc.pid);
    await ns.close();
    expect(files()).toEqual(before);
  });
});
