/**
 * Crash safety: a child process writing a stream of coalesced batches (KV pairs plus a SQL row each)
 * is killed with SIGKILL mid-stream. After reopening, every batch is wholly present or wholly
 * absent, every batch the child saw confirmed is present, and the PITR log still restores to a
 * bookmark the child printed.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, it, expect } from 'vitest';
import { type ObjectState } from '../../src/storage/index.js';
import { openNamespace, tempDir } from './helpers.js';

const KEYS_PER_BATCH = 150;
const fixture = fileURLToPath(new URL('./fixtures/crash-writer.ts', import.meta.url));

interface Confirmed {
  n: number;
  bookmark: string;
}

/** Runs the writer until it has confirmed `atLeast` batches, then SIGKILLs it mid-stream. */
function runAndKill(dir: string, atLeast: number): Promise<Confirmed[]> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--import', 'tsx', fixture, dir, String(KEYS_PER_BATCH)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const confirmed: Confirmed[] = [];
    let buffered = '';
    let stderr = '';
    let killing = false;
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.stdout.on('data', (d: Buffer) => {
      buffered += d.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() as string;
      for (const line of lines) {
        const [, n, bookmark] = line.split(' ');
        confirmed.push({ n: Number(n), bookmark: bookmark as string });
      }
      // Kill at an arbitrary point of the stream: a varying delay after the threshold.
      if (!killing && confirmed.length >= atLeast) {
        killing = true;
        setTimeout(() => child.kill('SIGKILL'), Math.floor(Math.random() * 15));
      }
    });
    child.on('exit', (_code, signal) => {
      if (signal === 'SIGKILL') resolve(confirmed);
      else reject(new Error(`writer exited without being killed: ${stderr}`));
    });
  });
}

class Reader {
  constructor(readonly ctx: ObjectState) {}
  async batches(): Promise<{ byBatch: Record<number, number>; rows: Record<number, number> }> {
    const byBatch: Record<number, number> = {};
    for (const key of (await this.ctx.storage.list()).keys()) {
      const n = Number(key.slice(1, 7));
      byBatch[n] = (byBatch[n] ?? 0) + 1;
    }
    const rows: Record<number, number> = {};
    const { sql } = this.ctx.storage;
    if (sql.exec("SELECT count(*) AS c FROM sqlite_master WHERE name = 'batches'").one().c === 1) {
      for (const row of sql.exec<{ n: number; keys: number }>('SELECT n, keys FROM batches')) rows[row.n] = row.keys;
    }
    return { byBatch, rows };
  }
  restore(bookmark: string): Promise<string> {
    return this.ctx.storage.onNextSessionRestoreBookmark(bookmark);
  }
  restart(): void {
    this.ctx.abort('restart');
  }
}

describe('crash safety', () => {
  it('SIGKILL mid-stream leaves every coalesced batch wholly present or wholly absent', async () => {
    const dir = tempDir();
    for (const round of [1, 2]) {
      const confirmed = await runAndKill(dir, 8 * round);
      const ns = openNamespace(Reader, { dir, backend: 'sqlite' });
      const reader = ns.get('crash');
      const { byBatch, rows } = await reader.batches();
      const present = Object.keys(rows).map(Number).sort((a, b) => a - b);
      for (const n of present) expect(byBatch[n], `batch ${n}`).toBe(KEYS_PER_BATCH);
      for (const n of Object.keys(byBatch).map(Number)) expect(rows[n], `SQL row of batch ${n}`).toBe(KEYS_PER_BATCH);
      for (const { n } of confirmed) expect(rows[n], `confirmed batch ${n}`).toBe(KEYS_PER_BATCH);
      // The change log survived the crash too: restore to a bookmark the child printed.
      const target = confirmed[Math.floor(confirmed.length / 2)] as Confirmed;
      await reader.restore(target.bookmark);
      await reader.restart().catch(() => undefined);
      const restored = await reader.batches();
      expect(Object.keys(restored.rows).map(Number).sort((a, b) => a - b)).toEqual(
        Array.from({ length: target.n }, (_, i) => i + 1),
      );
      await ns.close();
    }
  }, 90_000);
});
