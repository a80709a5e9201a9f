/**
 * The one place where the CLI turns a failure into a message and an exit code. Every error a user
 * can cause ends as one line on stderr (`error: ...`) and exit 1; an interrupt exits 130 (SIGINT)
 * or 143 (SIGTERM); a closed stdout (`zonewall plan --json | head -1`) ends quietly. Only a bug
 * (an error zonewall did not expect) mentions a stack trace, and shows it only with `--debug` or
 * `ZONEWALL_DEBUG=1`.
 */
import { CommanderError } from 'commander';
import { ZonewallError, damagedStateError } from '../errors.js';
import { ExitCodes } from './exit-codes.js';

/** The user stopped the run; `signal` decides the exit code. */
export class InterruptedError extends ZonewallError {
  constructor(readonly signal: 'SIGINT' | 'SIGTERM', message: string) {
    super('ERR_INTERRUPTED', message);
  }
}

/** Whether the run shows stack traces (`--debug` or `ZONEWALL_DEBUG=1`). */
export function debugWanted(argv: readonly string[], env: NodeJS.ProcessEnv): boolean {
  return argv.includes('--debug') || /^(1|true|yes)$/i.test(env.ZONEWALL_DEBUG ?? '');
}

function codeOf(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** A system error a user can meet and fix, worded for them; undefined for anything else. */
function systemMessage(err: unknown): string | undefined {
  const code = codeOf(err);
  const e = err as NodeJS.ErrnoException & { address?: string; port?: number };
  switch (code) {
    case 'EADDRINUSE': return `port ${e.port ?? '?'} on ${e.address ?? 'this host'} is already in use (another zonewall serve?): stop it, or pass --port with another port (0 picks a free one)`;
    case 'EADDRNOTAVAIL': return `cannot listen on ${e.address ?? 'that address'}: it is not an address of this machine`;
    case 'EACCES': case 'EPERM': return `permission denied${e.path !== undefined ? `: ${e.path}` : e.port !== undefined ? ` for port ${e.port}` : ''}`;
    case 'ENOENT': return e.path !== undefined ? `no such file or directory: ${e.path}` : undefined;
    case 'ENOSPC': return 'no space left on the device';
    case 'EMFILE': return 'too many open files (raise the limit with ulimit -n)';
    default: return undefined;
  }
}

/** Whether `err` is the end of a stdout/stderr pipe whose reader went away. */
export function isBrokenPipe(err: unknown): boolean {
  return codeOf(err) === 'EPIPE' || codeOf(err) === 'ERR_STREAM_DESTROYED';
}

/**
 * Writes the one-line report of `err` to `write` and returns the exit code.
 * @example process.exitCode = reportError(err, (s) => process.stderr.write(s), false);
 */
export function reportError(thrown: unknown, write: (text: string) => void, debug: boolean): number {
  // A damaged database file of the state directory (SQLite's CORRUPT or NOTADB behind the error) is the user's to fix, not a bug.
  const err = damagedStateError(thrown) ?? thrown;
  if (err instanceof CommanderError) return err.exitCode === 0 ? ExitCodes.ok : ExitCodes.error; // commander printed it
  if (isBrokenPipe(err)) return ExitCodes.ok;
  if (err instanceof InterruptedError) {
    write(`${err.message}\n`);
    return err.signal === 'SIGTERM' ? ExitCodes.terminated : ExitCodes.interrupted;
  }
  const stack = debug && err instanceof Error && err.stack !== undefined ? `\n${err.stack}` : '';
  if (err instanceof ZonewallError) {
    // A manifest's errors are its located reasons, one a line, as plan and validate print them:
    // not under a first line "error: invalid manifest (1 error):" that says no place.
    const reasons = (err as { reasons?: unknown }).reasons;
    const lines = err.message.split('\n');
    if (err.code === 'ERR_MANIFEST' && Array.isArray(reasons) && reasons.length > 0 && lines.length > 1) {
      write(`${lines.slice(1).join('\n')}${stack}\n`);
      return ExitCodes.error;
    }
    // A state directory this user may not use: the CLI's way out is another one.
    const way = err.code === 'ERR_STATE_ACCESS' ? ', or pass another --state-dir' : '';
    write(`error: ${err.message}${way}${stack}\n`);
    return ExitCodes.error;
  }
  // A write the state directory refused after its files opened (storage's `StorageWriteError`: a
  // reset of the object, so not a `ZonewallError`): its message is the one line, rolled back.
  if (err instanceof Error && codeOf(err) === 'ERR_STATE_WRITE') {
    write(`error: ${err.message}${stack}\n`);
    return ExitCodes.error;
  }
  const known = systemMessage(err);
  if (known !== undefined) {
    write(`error: ${known}${stack}\n`);
    return ExitCodes.error;
  }
  const message = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
  write(`internal error: ${message.split('\n')[0]}${stack || ' (this is a bug in zonewall; run again with --debug or ZONEWALL_DEBUG=1 for the stack trace, and report it)'}\n`);
  return ExitCodes.error;
}

/**
 * Makes a closed stdout or stderr end the output quietly instead of crashing: once the reader is
 * gone, writes to that stream are dropped and the run finishes normally (an apply still releases
 * its lock).
 */
export function quietOnBrokenPipe(stream: NodeJS.WriteStream): void {
  stream.on('error', (err) => {
    if (!isBrokenPipe(err)) throw err;
    stream.write = (() => true) as typeof stream.write;
  });
}
