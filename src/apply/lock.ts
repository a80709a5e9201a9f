/**
 * One apply per zone at a time. The lock is a file (see `../lock-file.ts`: created whole, verified,
 * a stale one taken over atomically) holding the holder's pid, host and start time: under the
 * engine's state directory for the embedded engine, under a private (0700) per-user directory in
 * `os.tmpdir()` for remote providers. A remote lock is keyed by the zone's resolved identity: the
 * API's normalised origin and base path (`localhost`, `127.0.0.1` and `[::1]` are one host; default
 * ports and trailing slashes do not count) plus the zone id, so two spellings of one URL share one
 * lock. A second apply waits up to `timeoutMs` for it (default 0: refuse at once with ERR_LOCKED
 * naming the holder).
 */
import { createHash } from 'node:crypto';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { ZonewallError } from '../errors.js';
import { acquireLockFile, makePrivateDir, type LockHolder } from '../lock-file.js';

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

/** The lock directory: the engine's state dir, or a private per-user temp dir for remote providers. */
export function zoneLocksDir(provider: { kind: 'engine' | 'http' }, stateDir: string | undefined): string {
  if (provider.kind === 'engine' && stateDir !== undefined) return join(stateDir, 'locks');
  const uid = typeof process.getuid === 'function' ? String(process.getuid()) : userInfo().username;
  return join(tmpdir(), `zonewall-locks-${uid}`);
}

const LoopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

/**
 * The normalised identity of a v4 API base URL: lower-case scheme and host, loopback names as one,
 * default ports dropped (URL does that), repeated and trailing slashes dropped.
 * @example apiIdentity('http://LOCALHOST:80/client/v4/') === 'http://127.0.0.1/client/v4'
 */
export function apiIdentity(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url.trim().replace(/\/+$/, '');
  }
  const host = LoopbackHosts.has(u.hostname.toLowerCase()) || /^127\./.test(u.hostname) ? '127.0.0.1' : u.hostname.toLowerCase();
  const path = u.pathname.replace(/\/{2,}/g, '/').replace(/\/+$/, '');
  return `${u.protocol}//${host}${u.port === '' ? '' : `:${u.port}`}${path}`;
}

/** The lock key of a zone on a provider: the zone id, plus the API's identity for remote providers. */
export function lockKey(provider: { kind: 'engine' | 'http'; description: string }, zoneId: string): string {
  if (provider.kind === 'engine') return zoneId;
  const url = /(\S+:\/\/\S+)$/.exec(provider.description)?.[1] ?? provider.description;
  return createHash('sha256').update(`${apiIdentity(url)}\n${zoneId}`).digest('hex').slice(0, 32);
}

function busy(options: LockOptions, path: string, holder: LockHolder | undefined): LockedError {
  const who = holder === undefined ? 'another process' : `process ${holder.pid} on ${holder.host} (since ${holder.at})`;
  return new LockedError(`zone ${options.zone} is locked by ${who}, which is applying to it; wait for it to finish, or pass --lock-timeout to wait (lock file ${path})`);
}

/**
 * Takes the zone's lock, waiting up to `timeoutMs`.
 * @example const lock = await acquireZoneLock({ dir, key: zone.id, zone: zone.name }); try { ... } finally { lock.release(); }
 */
export async function acquireZoneLock(options: LockOptions): Promise<ZoneLock> {
  makePrivateDir(options.dir);
  const path = join(options.dir, `${options.key}.lock`);
  return acquireLockFile(path, {
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    ...(options.pollMs !== undefined ? { pollMs: options.pollMs } : {}),
    busy: (holder) => busy(options, path, holder),
  });
}
