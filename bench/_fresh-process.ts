/**
 * One fresh Node.js process as a user starts it, for the benchmarks that judge the whole CLI beside
 * a floor run the same way: its wall time and its peak memory (max RSS, reported on exit by
 * `_rss.mjs`, preloaded into both sides alike). The median of interleaved rounds is what each judges.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const rss = fileURLToPath(new URL('./_rss.mjs', import.meta.url));

/** What one process took. */
export interface ProcessRun {
  ms: number;
  rssMiB: number;
  stdout: string;
}

/** Runs `node args...` to its end; throws unless it exits with one of `expectCode`. */
export function runProcess(args: readonly string[], expectCode: readonly number[] = [0]): ProcessRun {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, ['--import', rss, ...args], { encoding: 'utf8', env: { ...process.env, NO_COLOR: '1' }, maxBuffer: 256 * 1024 * 1024 });
  const ms = performance.now() - t0;
  if (!expectCode.includes(r.status ?? -1)) throw new Error(`${args.join(' ')} exited ${String(r.status)}: ${r.stderr.slice(0, 2000)}`);
  const m = /@@maxrss (\d+)/.exec(r.stderr);
  return { ms, rssMiB: m === null ? 0 : Number(m[1]) / 1024, stdout: r.stdout };
}

/** The median (the upper one of an even count). */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
