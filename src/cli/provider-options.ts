/**
 * The provider options every command that touches a zone shares (`plan`, `apply`, `export`,
 * `migrate`, `rollback`, ...): `--remote`, `--state-dir`, `--rate-limit`, `--timeout`, and the
 * environment they fall back to. Which provider a command gets:
 *
 * | given                         | provider                                   |
 * |-------------------------------|--------------------------------------------|
 * | `--remote URL`                | HTTP, at URL                               |
 * | `--state-dir DIR`             | embedded engine in DIR (even if `ZONEWALL_API_URL` is set) |
 * | `ZONEWALL_API_URL` in the env | HTTP, at that URL                          |
 * | nothing                       | embedded engine in the nearest `.zonewall` (`findStateDir`) |
 *
 * Credentials are never options: the HTTP provider reads `ZONEWALL_API_TOKEN`, or
 * `ZONEWALL_AUTH_EMAIL` + `ZONEWALL_AUTH_KEY`, from the environment.
 */
import { existsSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import type { Command } from 'commander';
import { WorkerdStateFolder } from '../engine/index.js';
import { ZonewallError } from '../errors.js';
import { DefaultStateDir, HttpDefaults, ProviderEnv, openProvider, parseRateLimit, providerTarget } from '../providers/index.js';
import type { Provider, ProviderOptions, RetryEvent } from '../providers/index.js';
import { budgetProgress } from './views/budget-progress.js';
import { parseDuration } from './commands/duration.js';
import { assertStateDirUsable } from './state-dir-access.js';

/** The provider options as commander parses them. */
export interface ProviderCliOptions {
  remote?: string;
  stateDir?: string;
  rateLimit?: string;
  timeout?: string;
}

/** How `--state-dir` defaults, in every command's help. */
export const StateDirHelp = `state directory of the embedded engine (default: the nearest ${DefaultStateDir} in the working directory or a parent, else ./${DefaultStateDir})`;

/**
 * The embedded engine's state directory when `--state-dir` is not given: the nearest existing
 * `.zonewall` directory in `cwd` or above it (as git finds `.git`), so a command run from a
 * subdirectory of the project uses the project's engine instead of starting an empty one; when
 * there is none, `.zonewall` in `cwd` (created by the first command that needs it). Relative to
 * `cwd`, so messages stay short (`../.zonewall`).
 */
export function findStateDir(cwd: string = process.cwd()): string {
  const start = resolve(cwd);
  for (let dir = start; ; dir = dirname(dir)) {
    const candidate = join(dir, DefaultStateDir);
    if (statSync(candidate, { throwIfNoEntry: false })?.isDirectory() === true) return relative(start, candidate);
    if (dirname(dir) === dir) return DefaultStateDir;
  }
}

/** The state directory of an embedded-engine command: `--state-dir`, else `findStateDir()`. */
export function stateDirOption(opts: object): string {
  const given = (opts as { readonly stateDir?: unknown }).stateDir;
  refuseEmpty(opts as Readonly<Record<string, unknown>>);
  return typeof given === 'string' && given !== '' ? givenStateDir(given) : findStateDir();
}

/** `--state-dir DIR` as given, refused in one line when DIR exists and is not a directory (a file named by mistake). */
function givenStateDir(dir: string): string {
  const stat = statSync(dir, { throwIfNoEntry: false });
  if (stat !== undefined && !stat.isDirectory()) throw new ZonewallError('ERR_USAGE', `--state-dir ${dir} is not a directory: give the embedded engine's state directory (created when missing)`);
  return dir;
}

/** Where the embedded engine of this run keeps its state (locks, rollback records); undefined for a remote provider. */
export function engineStateDir(provider: { kind: 'engine' | 'http' }, opts: object): string | undefined {
  return provider.kind === 'engine' ? stateDirOption(opts) : undefined;
}

/** Adds the provider options to a command, with help on the environment variables. */
export function addProviderOptions(cmd: Command): Command {
  return cmd
    .option('--remote <url>', `base URL of a v4 API, e.g. http://127.0.0.1:8484/client/v4 (default: $${ProviderEnv.url}, else the embedded engine)`)
    .option('--state-dir <dir>', StateDirHelp)
    .option('--rate-limit <n/seconds>', `remote request budget, e.g. 1200/300s (default: $${ProviderEnv.rateLimit}, else ${HttpDefaults.rateLimit.requests}/${HttpDefaults.rateLimit.seconds}s)`)
    .option('--timeout <ms>', `remote request timeout in milliseconds, or with a unit: 500ms, 30s, 2m (default: ${HttpDefaults.timeoutMs})`)
    .addHelpText('after', `
Remote credentials (environment only, never options):
  ${ProviderEnv.token}                        API token (Authorization: Bearer)
  ${ProviderEnv.email} + ${ProviderEnv.key}  e-mail and key (X-Auth-Email / X-Auth-Key)`);
}

/** Milliseconds of `--timeout`: a bare number is milliseconds; `ms`, `s` and `m` units are accepted. */
export function parseTimeout(text: string): number {
  const m = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/.exec(text);
  const ms = m === null ? Number.NaN : Math.round(Number(m[1]) * (m[2] === 's' ? 1000 : m[2] === 'm' ? 60_000 : 1));
  if (!(ms >= 1)) throw new ZonewallError('ERR_USAGE', `--timeout must be a positive number of milliseconds (or 30s, 2m), got ${JSON.stringify(text)}`);
  return ms;
}

/**
 * `--state-dir ""` or `--remote ""` (`--state-dir "$STATE"` with the variable unset) is refused: read
 * as absent, it sent the command to another provider than the one named (`.zonewall/`, or
 * `$ZONEWALL_API_URL`) without a word.
 */
function refuseEmpty(opts: Readonly<Record<string, unknown>>): void {
  for (const [name, flag] of [['stateDir', '--state-dir'], ['remote', '--remote']] as const) {
    if (typeof opts[name] === 'string' && (opts[name] as string).trim() === '') {
      throw new ZonewallError('ERR_USAGE', `${flag} was given an empty value (an unset variable?): give ${name === 'remote' ? 'the API\'s URL' : 'a directory'}, or leave the option out`);
    }
  }
}

/** Reads one option as a string; commander gives strings, but other commands pass wider records. */
function text(opts: Readonly<Record<string, unknown>>, name: keyof ProviderCliOptions): string | undefined {
  const v = opts[name];
  return typeof v === 'string' && v !== '' ? v : undefined;
}

/** Turns the parsed options and the environment into `openProvider` options. */
export function providerOptions(opts: ProviderCliOptions | Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv): ProviderOptions {
  const o = opts as Readonly<Record<string, unknown>>;
  refuseEmpty(o);
  const remoteFlag = text(o, 'remote');
  const stateDir = text(o, 'stateDir');
  if (remoteFlag !== undefined && stateDir !== undefined) {
    throw new ZonewallError('ERR_USAGE', '--remote and --state-dir choose different providers (remote API vs embedded engine): give one');
  }
  const remote = remoteFlag ?? (stateDir === undefined ? env[ProviderEnv.url]?.trim() || undefined : undefined);
  // Every option is checked whichever provider runs: a typo must not pass unnoticed until the day it is used remotely.
  // The flag, else the environment's budget, checked on the embedded engine too (where it is not used).
  const rateText = text(o, 'rateLimit') ?? (env[ProviderEnv.rateLimit]?.trim() || undefined);
  const rateLimit = rateText !== undefined ? parseRateLimit(rateText) : undefined;
  const timeoutText = text(o, 'timeout');
  const timeoutMs = timeoutText !== undefined ? parseTimeout(timeoutText) : undefined;
  const lockText = o.lockTimeout;
  const lockTimeoutMs = typeof lockText === 'string' ? parseDuration(lockText, '--lock-timeout') : undefined;
  if (remote === undefined) {
    return { stateDir: stateDir !== undefined ? givenStateDir(stateDir) : findStateDir(), ...(lockTimeoutMs !== undefined ? { lockTimeoutMs } : {}) };
  }
  if (remoteFlag === undefined) envProviderNotice(remote);
  const options: ProviderOptions = { remote, env };
  if (rateLimit !== undefined) options.rateLimit = rateLimit;
  if (timeoutMs !== undefined) options.timeoutMs = timeoutMs;
  return options;
}

let envNoticeWritten = false;

/** A URL as the notice shows it: any user:password part left out. */
function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    u.username = '';
    u.password = '';
    return u.toString().replace(/\/$/, url.endsWith('/') ? '/' : '');
  } catch {
    return url;
  }
}

/**
 * Says on stderr, once per run, that the provider came from the environment: a `ZONEWALL_API_URL`
 * left exported (after the remote tour, say) must not send later commands to a remote API silently.
 */
export function envProviderNotice(url: string, write: (text: string) => void = (t) => process.stderr.write(t)): void {
  if (envNoticeWritten) return;
  envNoticeWritten = true;
  write(`zonewall: using the API at ${shownUrl(url)} (from $${ProviderEnv.url}; pass --state-dir DIR or unset it for the embedded engine)\n`);
}

/** Says on stderr (or `write`) why a remote call is being retried, so a long wait is never silent and every retry is reported. */
export function retryNotice(event: RetryEvent, write: (text: string) => void = (t) => process.stderr.write(t)): void {
  const seconds = (event.delayMs / 1000).toFixed(1);
  if (event.reason === 'lost-answer') {
    write(`zonewall: ${event.method} ${event.path}: the answer was lost; re-reading in ${seconds}s to send only what is missing (attempt ${event.attempt + 1})\n`);
    return;
  }
  const why = { 'rate-limited': 'rate limited (429)', 'server-error': 'server error', timeout: 'timed out', network: 'network error' }[event.reason];
  write(`zonewall: ${event.method} ${event.path}: ${why}; retrying in ${seconds}s (attempt ${event.attempt + 1})\n`);
}

/**
 * Opens the provider the options and the environment choose (the embedded engine by default);
 * `readOnly`: the command only reads: nothing in the state directory is created, written or locked
 * (a missing one reads as empty).
 * @example const provider = await openCommandProvider(opts, process.env);
 */
export async function openCommandProvider(
  opts: ProviderCliOptions | Readonly<Record<string, unknown>>, env: NodeJS.ProcessEnv,
  use: { readOnly?: boolean; before?: (where: Pick<Provider, 'kind' | 'target'>) => void } = {},
): Promise<Provider> {
  const options = providerOptions(opts, env);
  // Told where the provider is before it is opened (which may create the state directory).
  use.before?.(providerTarget(options));
  // A command that only reads leaves a missing state directory uncreated.
  if (use.readOnly === true) options.readOnly = true;
  if (options.remote !== undefined) {
    options.onRetry = (event) => retryNotice(event);
    options.budgetListener = budgetProgress(process.stderr);
  }
  // A command that writes: files of the state directory this user cannot write are said in one
  // line before the engine opens it (why writers keep this walk: `state-dir-access.ts`). A command
  // that reads does not walk: the storage layer says the file it could not read when it meets it.
  if (options.remote === undefined && options.stateDir !== undefined && use.readOnly !== true) assertStateDirUsable(options.stateDir, { writes: true });
  const notice = options.stateDir !== undefined ? workerdNotice(options.stateDir) : undefined;
  if (notice !== undefined) process.stderr.write(`${notice}\n`);
  return openProvider(options);
}

/**
 * A warning for a state directory that `serve --runtime workerd` has served: its zones were copied
 * into workerd's objects, and the built-in engine's copies this command reads and writes are no
 * longer what that server answers with (nor does it take their later changes).
 */
export function workerdNotice(stateDir: string): string | undefined {
  if (!existsSync(join(stateDir, WorkerdStateFolder))) return undefined;
  return `warning: ${stateDir} is served by the workerd runtime (serve --runtime workerd keeps its zones in ${join(stateDir, WorkerdStateFolder)}); ` +
    'this command uses the built-in engine\'s copies, which that server neither shows nor takes up: to work on the served zones, use --remote with the server\'s URL';
}

/**
 * The provider flags of this run, to repeat in hints that suggest another command (e.g. "run
 * zonewall plan zone.yaml --state-dir .zw"): without them a user following the hint would plan
 * against another provider. Empty when the defaults were used. Never includes credentials (they
 * are not flags).
 */
export function providerFlags(opts: Readonly<Record<string, unknown>>): string {
  const flags: string[] = [];
  if (typeof opts.remote === 'string') flags.push(`--remote ${opts.remote}`);
  if (typeof opts.stateDir === 'string') flags.push(`--state-dir ${opts.stateDir}`);
  return flags.length === 0 ? '' : ` ${flags.join(' ')}`;
}
