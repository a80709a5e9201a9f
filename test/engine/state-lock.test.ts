/**
 * The engine's state-directory lock: a second opener waits up to its timeout (the CLI's
 * `--lock-timeout`) instead of refusing at once; a stale or cut-short lock is taken over; the
 * directory is private (0700).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine/index.js';
import { ObjectNamespace } from '../../src/storage/index.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'zw-state-lock-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('engine state-directory lock', () => {
  it('refuses a second opener at once by default, and waits for the first with a timeout', async () => {
    const first = await Engine.open({ dir, logError: () => {} });
    await expect(Engine.open({ dir })).rejects.toMatchObject({ code: 'ERR_LOCKED' });
    const second = Engine.open({ dir, lockTimeoutMs: 30_000 });
    setTimeout(() => { void first.close(); }, 200);
    const engine = await second;
    await engine.close();
  });

  it('takes over a lock whose process is gone, or whose file is empty', async () => {
    mkdirSync(dir, { recursive: true });
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    for (const text of [String(dead), '']) {
      writeFileSync(join(dir, 'engine.lock'), text);
      const engine = await Engine.open({ dir });
      await engine.close();
    }
  });

  it('a second process gets the engine\'s own ERR_LOCKED message, and the storage lock guards its namespaces', async () => {
    const engineUrl = new URL('../../src/engine/index.js', import.meta.url).href;
    const script = `const { Engine } = await import(${JSON.stringify(engineUrl)});
      const engine = await Engine.open({ dir: ${JSON.stringify(dir)} });
      console.log('ready');
      process.stdin.on('data', async () => { await engine.close(); process.exit(0); });`;
    const holder = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['pipe', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve, reject) => {
        holder.stdout.on('data', (d: Buffer) => { if (d.toString().includes('ready')) resolve(); });
        holder.on('exit', (code) => reject(new Error(`holder exited with ${String(code)}`)));
      });
      const err = await Engine.open({ dir }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'ERR_LOCKED' });
      expect((err as Error).message).toMatch(/engine state directory .* is in use by process \d+/);
      // Reaching past the engine to one of its namespaces is refused by the storage lock.
      class Empty {}
      let nsErr: unknown;
      try {
        new ObjectNamespace(Empty, { dir: join(dir, 'zones') });
      } catch (e) {
        nsErr = e;
      }
      expect(nsErr).toMatchObject({ code: 'ERR_STORAGE_LOCKED' });
    } finally {
      holder.stdin.write('close\n');
      await new Promise((resolve) => holder.on('exit', resolve));
    }
    const engine = await Engine.open({ dir });
    await engine.close();
  }, 60_000);

  it('makes the state directory private to its owner', async () => {
    const state = join(dir, 'state');
    const engine = await Engine.open({ dir: state });
    await engine.close();
    expect(statSync(state).mode & 0o777).toBe(0o700);
    expect(statSync(join(state, 'zones')).mode & 0o777).toBe(0o700);
  });
});
