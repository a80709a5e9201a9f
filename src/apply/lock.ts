/**
 * One apply per zone at a time. The lock is a file created with O_EXCL (`wx`) holding the holder's
 * pid, host and start time: under the engine's state directory for the embedded engine, under
 * `os.tmpdir()/zonewall-locks` for remote providers (keyed by a hash of the provider description,
 * which names the base URL, and the zone). A second apply waits up to `timeoutMs` for it (default
 * 0: refuse at once with ERR_LOCKED naming the holder). A lock left by a process that no longer
 * runs on this host is taken over.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, openSync, readFileSync, rmSync, writeSync, closeSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ZonewallError } from '../errors.js';

/** Another apply holds the zone. */
export class LockedError extends ZonewallError {
  constructor(message: string) {
    super('ERR_LOCKED', message);
  }
}

/** A held lock. */
export interface ZoneLock {
  path: string;
  release(): void;
}

/** Where and for how long to lock. */
export interface LockOptions {
  /** Directory of lock files. */
  dir: string;
  /** What is locked (a zone id, plus the provider for remote locks). */
  key: string;
  /** For messages. */
  zone: string;
  /** How long to wait for another holder; 0 refuses at once. */
  timeoutMs?: number;
  /** Poll interval while waiting (tests shorten it). */
  pollMs?: number;
}

interface Holder {
  pid: number;
  host: string;
  at: string;
}

/** The lock directory: the engine's state dir, or a temp dir for remote providers. */
export function lockDir(provider: { kind: 'engine' | 'http' }, stateDir: string | undefined): string {
  return provider.kind === 'engine' && stateDir !== undefined ? join(stateDir, 'locks') : join(tmpdir(), 'zonewall-locks');
}

/** The lock key of a zone on a provider. */
export function lockKey(provider: { kind: 'engine' | 'http'; description: string }, zoneId: string): string {
  return provider.kind === 'engine' ? zoneId : createHash('sha256').update(`${provider.description}\n${zoneId}`).digest('hex').slice(0, 32);
}

function readHolder(path: string): Holder | undefined {
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as Holder;
  } catch {
    return undefined; // being written or already released
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function tryCreate(path: string): boolean {
  try {
    const fd = openSync(path, 'wx');
    const holder: Holder = { pid: process.pid, host: hostname(), at: new Date().toISOString() };
    writeSync(fd, JSON.stringify(holder));
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw new ZonewallError('ERR_IO', `cannot create the lock file ${path}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Takes the zone's lock, waiting up to `timeoutMs`.
 * @example const lock = await acquireZoneLock({ dir, key: zone.id, zone: zone.name }); try { ... } finally { lock.release(); }
 */
export async function acquireZoneLock(options: LockOptions): Promise<ZoneLock> {
  mkdirSync(options.dir, { recursive: true });
  const path = join(options.dir, `${options.key}.lock`);
  const deadline = Date.now() + (options.timeoutMs ?? 0);
  for (;;) {
    if (tryCreate(path)) break;
    const holder = readHolder(path);
    if (holder !== undefined && holder.host === hostname() && !alive(holder.pid)) {
      rmSync(path, { force: true }); // left by a process that died
      continue;
    }
    if (Date.now() >= deadline) {
      const who = holder === undefined ? 'another process' : `process ${holder.pid} on ${holder.host} (since ${holder.at})`;
      throw new LockedError(`zone ${options.zone} is locked by ${who}, which is applying to it; wait for it to finish, or pass --lock-timeout to wait (lock file ${path})`);
    }
    await sleep(Math.min(options.pollMs ?? 100, Math.max(1, deadline - Date.now())));
  }
  let held = true;
  return {
    path,
    release() {
      if (!held) return;
      held = false;
      rmSync(path, { force: true });
    },
  };
}
