import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { acquireZoneLock, LockedError, zoneLocksDir, lockKey } from '../../src/apply/index.js';
import { apiIdentity } from '../../src/apply/lock.js';

let dir: string;
beforeEach(() => { dir = mkdtempSync(join(tmpdir(), 'zw-lock-')); });
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('zone locks', () => {
  it('refuses a second holder at once, naming the first, and frees on release', async () => {
    const lock = await acquireZoneLock({ dir, key: 'z1', zone: 'example.com' });
    expect(JSON.parse(readFileSync(lock.path, 'utf8'))).toMatchObject({ pid: process.pid, host: hostname() });
    const second = acquireZoneLock({ dir, key: 'z1', zone: 'example.com' });
    await expect(second).rejects.toThrow(LockedError);
    await expect(acquireZoneLock({ dir, key: 'z1', zone: 'example.com' })).rejects.toThrow(`zone example.com is locked by process ${process.pid}`);
    await expect(acquireZoneLock({ dir, key: 'z1', zone: 'example.com' })).rejects.toMatchObject({ code: 'ERR_LOCKED' });
    // Another zone is independent.
    (await acquireZoneLock({ dir, key: 'z2', zone: 'other.example.com' })).release();
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
    (await acquireZoneLock({ dir, key: 'z1', zone: 'example.com' })).release();
  });

  it('waits for the holder when given a timeout', async () => {
    const first = await acquireZoneLock({ dir, key: 'z1', zone: 'example.com' });
    const waiting = acquireZoneLock({ dir, key: 'z1', zone: 'example.com', timeoutMs: 30_000, pollMs: 5 });
    setTimeout(() => first.release(), 20);
    const second = await waiting;
    expect(JSON.parse(readFileSync(second.path, 'utf8')).pid).toBe(process.pid);
    second.release();
  });

  it('takes over a lock left by a process that no longer runs', async () => {
    const dead = spawnSync(process.execPath, ['-e', '']).pid!;
    writeFileSync(join(dir, 'z1.lock'), JSON.stringify({ pid: dead, host: hostname(), at: '2024-01-01T00:00:00Z' }));
    const lock = await acquireZoneLock({ dir, key: 'z1', zone: 'example.com' });
    expect(JSON.parse(readFileSync(lock.path, 'utf8')).pid).toBe(process.pid);
    lock.release();
  });

  it('keys remote locks by provider and zone, under the temp directory', () => {
    const a = { kind: 'http' as const, description: 'v4 API at http://127.0.0.1:1/client/v4' };
    const b = { kind: 'http' as const, description: 'v4 API at http://127.0.0.1:2/client/v4' };
    expect(lockKey(a, 'z')).not.toBe(lockKey(b, 'z'));
    expect(lockKey(a, 'z')).toMatch(/^[0-9a-f]{32}$/);
    expect(zoneLocksDir(a, undefined)).toBe(join(tmpdir(), `zonewall-locks-${process.getuid!()}`));
    expect(zoneLocksDir({ kind: 'engine' }, '/state')).toBe(join('/state', 'locks'));
    expect(lockKey({ kind: 'engine', description: 'x' }, 'zid')).toBe('zid');
  });

  it('takes over an empty or cut-short lock file (left by a kill while it was written)', async () => {
    for (const text of ['', '{"pid": 12', 'garbage']) {
      writeFileSync(join(dir, 'z1.lock'), text);
      const lock = await acquireZoneLock({ dir, key: 'z1', zone: 'example.com' });
      expect(JSON.parse(readFileSync(lock.path, 'utf8')).pid).toBe(process.pid);
      lock.release();
    }
  });

  it('keys two spellings of one API origin the same, and different zones or hosts apart', () => {
    const key = (url: string, zone = 'z') => lockKey({ kind: 'http', description: `v4 API at ${url}` }, zone);
    const one = key('http://127.0.0.1:8484/client/v4');
    for (const same of ['http://localhost:8484/client/v4', 'http://LOCALHOST:8484/client/v4/', 'http://[::1]:8484/client/v4//', 'http://127.0.0.1:8484//client//v4']) {
      expect(key(same)).toBe(one);
    }
    expect(apiIdentity('https://api.example.com:443/client/v4/')).toBe('https://api.example.com/client/v4');
    expect(key('http://127.0.0.1:8485/client/v4')).not.toBe(one);
    expect(key('http://127.0.0.1:8484/client/v4', 'other')).not.toBe(one);
    expect(key('https://api.example.com/client/v4')).not.toBe(key('https://api.example.net/client/v4'));
  });

  it('creates the lock directory and lock files private to the user (0700 / 0600), tightening an open directory', async () => {
    const locks = join(dir, 'locks');
    const lock = await acquireZoneLock({ dir: locks, key: 'z1', zone: 'example.com' });
    expect(statSync(locks).mode & 0o777).toBe(0o700);
    expect(statSync(lock.path).mode & 0o777).toBe(0o600);
    lock.release();
    chmodSync(locks, 0o755);
    (await acquireZoneLock({ dir: locks, key: 'z1', zone: 'example.com' })).release();
    expect(statSync(locks).mode & 0o777).toBe(0o700);
  });

  it('releases only its own lock: a lock taken over from it is left to the new holder', async () => {
    const first = await acquireZoneLock({ dir, key: 'z1', zone: 'example.com' });
    writeFileSync(first.path, JSON.stringify({ pid: process.pid, host: hostname(), at: 'now', nonce: 'someone-else' }));
    first.release();
    expect(existsSync(first.path)).toBe(true);
  });
});
