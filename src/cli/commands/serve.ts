/**
 * `zonewall serve`: the embedded engine over HTTP at `http://127.0.0.1:PORT/client/v4`, so curl
 * users, the HTTP provider and tests talk to the same implementation as the in-process engine.
 *
 * Credentials come from the environment (`ZONEWALL_SERVE_TOKEN`, or `ZONEWALL_SERVE_AUTH_EMAIL` +
 * `ZONEWALL_SERVE_AUTH_KEY`: every zone) or `--credentials FILE` (per-zone scopes), never from argv.
 * With none configured the server refuses to start unless `--insecure-no-auth` is given, and then
 * says loudly that every request is allowed. `--strict` serves the real API's shapes only (no
 * zonewall extension fields or routes). The state directory defaults to the nearest `.zonewall/` (`findStateDir`). SIGINT
 * and SIGTERM stop the server and close the engine cleanly. `--runtime workerd` serves the same API
 * from the Worker of `deploy/worker` run by Miniflare (`engine/workerd-host.ts`).
 */
import type { Command } from 'commander';
import { ZonewallError } from '../../errors.js';
import {
  CredentialEnv, CredentialLimits, Engine, loadCredentials, loadPlanLimitsFile, startServer, startWorkerdServer, type Credential, type PlanLimitsOverride,
} from '../../engine/index.js';
import { holdPrivateState } from '../../providers/index.js';
import { StateDirHelp, stateDirOption } from '../provider-options.js';
import { assertStateDirUsable } from '../state-dir-access.js';
import type { CommandModule } from './command.js';

/** Default TCP port of `zonewall serve`. */
export const DefaultServePort = 8484;

interface ServeOptions {
  port: string;
  host: string;
  stateDir?: string;
  credentials?: string;
  limits?: string;
  insecureNoAuth?: boolean;
  strict?: boolean;
  runtime: string;
}

/** Where the zone objects run: this process (better-sqlite3), or workerd through Miniflare. */
const Runtimes = ['builtin', 'workerd'] as const;

/** The `serve` command. */
export const command: CommandModule = {
  register(program: Command): void {
    program
      .command('serve')
      .description('serve the embedded engine\'s v4 API on http://127.0.0.1:PORT/client/v4')
      .option('--port <n>', 'TCP port (0 picks a free one)', String(DefaultServePort))
      .option('--host <host>', 'loopback address to bind (127.0.0.1, localhost or ::1)', '127.0.0.1')
      .option('--state-dir <dir>', StateDirHelp)
      .option('--credentials <file>', 'JSON file of accepted credentials with zone scopes')
      .option('--limits <file>', 'JSON file overriding plan quotas and entitlements per tier')
      .option('--insecure-no-auth', 'accept every request without credentials (local experiments only)')
      .option('--strict', 'answer with the real API\'s shapes only: no zonewall extension fields or routes')
      .option('--runtime <runtime>', 'where zone objects run: builtin (this process) or workerd (the Worker of deploy/worker through Miniflare; state in STATE_DIR/workerd)', 'builtin')
      .addHelpText('after', `
Credentials (never on the command line; tokens and keys: at least ${CredentialLimits.secretMinLength} characters, no whitespace):
  ${CredentialEnv.token}=...      bearer token (Authorization: Bearer), every zone
  ${CredentialEnv.email}=... and ${CredentialEnv.key}=...
                                X-Auth-Email / X-Auth-Key, every zone
  --credentials FILE            per-zone scopes, e.g.
    {"credentials": [{"token": "...", "zones": ["example.com"]},
                     {"email": "...", "key": "...", "zones": "*"}]}`)
      .action(async (opts: ServeOptions) => serve(opts));
  },
};

async function serve(opts: ServeOptions): Promise<void> {
  const port = Number(opts.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ZonewallError('ERR_USAGE', `--port must be an integer from 0 to 65535, got ${opts.port}`);
  const credentials = loadCredentials(process.env, opts.credentials);
  if (credentials.length === 0 && opts.insecureNoAuth !== true) {
    throw new ZonewallError('ERR_AUTH',
      `no credentials configured: set ${CredentialEnv.token}, or ${CredentialEnv.email} and ${CredentialEnv.key}, ` +
        'or pass --credentials FILE; or, for local experiments only, --insecure-no-auth');
  }
  if (!(Runtimes as readonly string[]).includes(opts.runtime)) throw new ZonewallError('ERR_USAGE', `--runtime must be one of ${Runtimes.join(', ')}, got ${opts.runtime}`);
  const limits = opts.limits !== undefined ? loadPlanLimitsFile(opts.limits) : undefined;
  const stateDir = stateDirOption(opts);
  assertStateDirUsable(stateDir, { writes: true });
  // For as long as it serves, what the server creates in the state directory is the user's only (0700, 0600).
  const held = holdPrivateState(stateDir);
  try {
    await serveFrom(opts, stateDir, port, credentials, limits);
  } finally {
    held.release();
  }
}

async function serveFrom(opts: ServeOptions, stateDir: string, port: number, credentials: Credential[], limits: PlanLimitsOverride | undefined): Promise<void> {
  const server = opts.runtime === 'workerd'
    ? await startWorkerd(opts, stateDir, port, credentials, limits)
    : await startBuiltin(opts, stateDir, port, credentials, limits);
  if (opts.insecureNoAuth === true) {
    process.stderr.write('WARNING: --insecure-no-auth: authentication is OFF; every request to this server is allowed, for every zone.\n');
  }
  const notes = [`state: ${stateDir}`, ...(opts.runtime === 'workerd' ? ['runtime: workerd'] : []), ...(opts.strict === true ? ['strict: real API shapes only'] : [])];
  // Listen for the signals before saying "listening": a client that stops the server as soon as
  // it reads that line must not meet the default signal action (exit without closing).
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: NodeJS.Signals): void => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      process.stderr.write(`zonewall serve: ${signal}, shutting down\n`);
      resolve();
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write(`zonewall serve: listening on ${server.url} (${notes.join(', ')}); Ctrl-C to stop\n`);
  await stopped;
  await server.close();
}

/** The built-in runtime: the engine in this process behind `node:http`. */
async function startBuiltin(opts: ServeOptions, stateDir: string, port: number, credentials: Credential[], limits: PlanLimitsOverride | undefined): Promise<{ url: string; close(): Promise<void> }> {
  // A zone file made read-only to the server: its reads are answered, its writes refused (ERR_STATE_ACCESS).
  const engine = await Engine.open({ dir: stateDir, strict: opts.strict === true, readsWhenNotWritable: true, ...(limits !== undefined ? { limits } : {}) });
  try {
    const server = await startServer(engine, { port, host: opts.host, credentials, insecureNoAuth: opts.insecureNoAuth === true });
    return { url: server.url, close: async () => { await server.close(); await engine.close(); } };
  } catch (err) {
    await engine.close();
    throw err;
  }
}

/** The workerd runtime: deploy/worker in Miniflare, after importing the state directory's new zones. */
async function startWorkerd(opts: ServeOptions, stateDir: string, port: number, credentials: Credential[], limits: PlanLimitsOverride | undefined): Promise<{ url: string; close(): Promise<void> }> {
  const server = await startWorkerdServer({
    dir: stateDir, port, host: opts.host, credentials, insecureNoAuth: opts.insecureNoAuth === true, strict: opts.strict === true,
    ...(limits !== undefined ? { limits } : {}),
  });
  for (const name of server.importedAccounts) process.stderr.write(`zonewall serve: account ${name} and its lists imported into the workerd runtime\n`);
  for (const name of server.imported) process.stderr.write(`zonewall serve: zone ${name} imported into the workerd runtime\n`);
  return server;
}
