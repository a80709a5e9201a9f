/**
 * Stale-lock takeover under real concurrency: several processes (the built CLI's lock module, each
 * in its own `node`) start at one instant against a lock left by a dead process; exactly one may
 * hold it. Before locks were created whole and taken over under a guard, most trials had several.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot, requireBuild } from '../helpers/e2e-cli.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'zw-lock-race-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const lockModule = pathToFileURL(join(repoRoot, 'dist', 'apply', 'lock.js')).href;

/** One contender: waits for the start instant, tries once, holds a winning lock for `holdMs`. */
function contender(startAt: number, holdMs: number): Promise<string> {
  const script = `
    const { acquireZoneLock } = await import(${JSON.stringify(lockModule)});
    while (Date.now() < ${startAt}) {}
    try {
      const lock = await acquireZoneLock({ dir: ${JSON.stringify(dir)}, key: 'z1', zone: 'example.com' });
      await new Promise((r) => setTimeout(r, ${holdMs}));
      lock.release();
      console.log('held');
    } catch (err) {
      console.log(err.code === 'ERR_LOCKED' ? 'busy' : 'error ' + err.message);
    }`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  return new Promise((resolve) => child.on('close', () => resolve(out.trim())));
}

describe('zone locks under concurrency', () => {
  it('6 processes racing for a lock left by a dead process: exactly one holds it, every trial', async () => {
    requireBuild();
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    for (let trial = 0; trial < 4; trial++) {
      for (const text of [JSON.stringify({ pid: dead, host: hostname(), at: '2024-01-01T00:00:00Z' }), '']) {
        writeFileSync(join(dir, 'z1.lock'), text);
        const startAt = Date.now() + 2500;
        const outcomes = await Promise.all(Array.from({ length: 6 }, () => contender(startAt, 2000)));
        expect(outcomes.filter((o) => o === 'held'), outcomes.join(',')).toHaveLength(1);
        expect(outcomes.filter((o) => o === 'busy')).toHaveLength(5);
      }
    }
  }, 120_000);
});
