/**
 * Exclusion across processes: one process at a time has a namespace directory open. Real child
 * processes hold and contend for the lock: a second opener is refused with `ERR_STORAGE_LOCKED`
 * naming the directory, a SIGKILLed holder leaves no stale lock, `lockTimeoutMs` waits for the
 * holder, and two processes incrementing one counter lose no update.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ObjectNamespace, StorageLockedError, type ObjectState } from '../../src/storage/index.js';
import { openNamespace, tempDir } from './helpers.js';

const fixture = fileURLToPath(new URL('./fixtures/lock-child.ts', import.meta.url));

interface Child {
  proc: ChildProcess;
  /** Resolves with the first stdout line for which `match` is true. */
  line(match: (line: string) => boolean): Promise<string>;
  exited: Promise<number | null>;
}

function child(...args: string[]): Child {
  const proc = spawn(process.execPath, ['--import', 'tsx', fixture, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  const lines: string[] = [];
  const waiters: Array<{ match: (line: string) => boolean; resolve: (line: string) => void }> = [];
  let buffered = '';
  let stderr = '';
  proc.stderr?.on('data', (d: Buffer) => { stderr += d.toString(); });
  proc.stdout?.on('data', (d: Buffer) => {
    buffered += d.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop() as string;
    for (const part of parts) {
      lines.push(part);
      for (const w of waiters.splice(0)) if (w.match(part)) w.resolve(part); else waiters.push(w);
    }
  });
  const exited = new Promise<number | null>((res) => proc.on('exit', (code) => res(code)));
  return {
    proc,
    exited,
    line: (match) => new Promise((res, rej) => {
      const seen = lines.find(match);
      if (seen !== undefined) return res(seen);
      waiters.push({ match, resolve: res });
      void exited.then((code) => rej(new Error(`child exited (${String(code)}) before the line; stderr: ${stderr}`)));
    }),
  };
}

const TIMEOUT = 120_000;

describe('a namespace directory across processes', () => {
  it('refuses a second process with ERR_STORAGE_LOCKED naming the directory; a SIGKILLed holder leaves no stale lock', async () => {
    const dir = tempDir();
    const holder = child('hold', dir);
    await holder.line((l) => l === 'ready');
    const refused = JSON.parse(await child('open', dir).line((l) => l.startsWith('{'))) as Record<string, unknown>;
    expect(refused).toMatchObject({ code: 'ERR_STORAGE_LOCKED', dir: resolve(dir), locked: true });
    expect(refused.message).toContain(resolve(dir));
    expect(refused.message).toMatch(/in use by another process.*lockTimeoutMs/);

    holder.proc.kill('SIGKILL');
    await holder.exited;
    const after = JSON.parse(await child('open', dir).line((l) => l.startsWith('{'))) as Record<string, unknown>;
    expect(after).toEqual({ ok: true });
  }, TIMEOUT);

  it('with lockTimeoutMs, waits for the holder to close and then sees its writes', async () => {
    const dir = tempDir();
    const holder = child('hold', dir);
    await holder.line((l) => l === 'ready');
    const waiter = child('wait', dir);
    await waiter.line((l) => l === 'waiting');
    holder.proc.stdin?.write('release\n');
    await holder.line((l) => l === 'released');
    const seen = JSON.parse(await waiter.line((l) => l.startsWith('{'))) as { held: number };
    expect(seen.held).toBe(holder.proc.pid);
    expect(await waiter.exited).toBe(0);
  }, TIMEOUT);

  it('two processes incrementing one counter lose no update', async () => {
    const dir = tempDir();
    const n = 40;
    const workers = [child('count', dir, String(n)), child('count', dir, String(n))];
    for (const w of workers) await w.line((l) => l === 'done');
    expect(await Promise.all(workers.map((w) => w.exited))).toEqual([0, 0]);
    class Counter {
      constructor(readonly ctx: ObjectState) {}
      read(): Promise<number | undefined> {
        return this.ctx.storage.get<number>('n');
      }
    }
    expect(await openNamespace(Counter, { dir }).get('c').read()).toBe(2 * n);
  }, TIMEOUT);

  it('in one process, open() with lockTimeoutMs 0 refuses at once and the constructor validates the option', async () => {
    const dir = tempDir();
    class Empty {}
    openNamespace(Empty, { dir });
    await expect(ObjectNamespace.open(Empty, { dir })).rejects.toThrow(/already open in this process/);
    expect(() => new ObjectNamespace(Empty, { dir: tempDir(), lockTimeoutMs: -1 })).toThrow(/lockTimeoutMs/);
    expect(StorageLockedError.name).toBe('StorageLockedError');
  });
});
