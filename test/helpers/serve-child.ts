/**
 * `zonewall serve` as a child process, for the tests that start it (several times, for the restart
 * tests). Readiness, not time: a server is ready when its whole `listening on URL (...)` line is
 * out (it prints it once it listens and handles SIGINT/SIGTERM), never after a sleep. Every wait is
 * bounded, generously (on a loaded machine a start takes seconds, not minutes): a server not ready in
 * time is killed and the error says what it wrote, and a stop that does not finish in time ends in
 * SIGKILL. A server a test left running is killed when its test process exits, so a failed test
 * leaves no server behind on the machine.
 */
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable } from 'node:stream';

/** How long a server may take to say it listens. */
export const ServeReadyMs = 120_000;
/** How long a stopped server may take to exit before it is killed. */
export const ServeStopMs = 60_000;

/** How a served child ended. */
export interface ServeExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

/** A `zonewall serve` child. */
export interface ServeChild {
  child: ChildProcessByStdio<null, Readable, Readable>;
  /** The base URL once the server listens; rejects when it exits first or is not ready within `ServeReadyMs`. */
  url: Promise<string>;
  /** How the child ended, once it has closed. */
  closed: Promise<ServeExit>;
  /** Sends `signal` (SIGTERM) unless the child has ended, and resolves with its exit code once closed (SIGKILL after `ServeStopMs`). */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

const running = new Set<ChildProcessByStdio<null, Readable, Readable>>();
let reaping = false;

/** Kills the servers still running when the test process exits. */
function reapAtExit(): void {
  if (reaping) return;
  reaping = true;
  process.once('exit', () => {
    for (const child of running) child.kill('SIGKILL');
  });
}

/** The server's URL in its output, once its whole `listening on` line is out. */
export function listeningUrl(out: string): string | undefined {
  return /listening on (\S+) [^\n]*\n/.exec(out)?.[1];
}

/** Spawns `node ARGV...` (a zonewall entry point, then `serve` and its options) and watches it. */
export function spawnServe(argv: readonly string[], options: { env: NodeJS.ProcessEnv; cwd?: string }): ServeChild {
  return watchServe(spawn(process.execPath, [...argv], { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] }));
}

/**
 * Watches a `zonewall serve` child the test spawned itself (as another user, under a `ulimit`):
 * its URL once it listens, how it ended, its stop; killed at the test process's exit.
 */
export function watchServe(child: ChildProcessByStdio<null, Readable, Readable>): ServeChild {
  reapAtExit();
  running.add(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => { out += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { err += d.toString(); });
  const closed = new Promise<ServeExit>((resolve) => {
    child.on('close', (code, signal) => {
      running.delete(child);
      resolve({ code, signal, out, err });
    });
    child.on('error', (e) => {
      err += `${e.message}\n`;
      running.delete(child);
      resolve({ code: null, signal: null, out, err });
    });
  });
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`zonewall serve did not say it listens within ${ServeReadyMs / 1000} s; it wrote: ${out}${err}`));
    }, ServeReadyMs);
    const ready = (): void => {
      const found = listeningUrl(out);
      if (found === undefined) return;
      clearTimeout(timer);
      child.stdout.off('data', ready);
      resolve(found);
    };
    child.stdout.on('data', ready);
    void closed.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`zonewall serve exited (${code ?? signal}) before listening: ${err}`));
    });
  });
  // A rejection nobody waits for (the test stopped the server before asking for its URL) is no error.
  url.catch(() => undefined);
  const stop = async (signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> => {
    if (child.exitCode === null && child.signalCode === null) child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), ServeStopMs);
    try {
      return (await closed).code;
    } finally {
      clearTimeout(timer);
    }
  };
  return { child, url, closed, stop };
}
