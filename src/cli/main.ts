/**
 * The CLI's wiring: commander commands, argument parsing and exit codes. Commands live in their own
 * files and only wire modules together; nothing here decides. Every failure, thrown or emitted
 * late, goes through `error-boundary.ts`: one line, one exit code, a stack trace only with
 * `--debug` (or `ZONEWALL_DEBUG=1`).
 */
import { Command } from 'commander';
import { debugWanted, quietOnBrokenPipe, reportError } from './error-boundary.js';
import { ExitCodes } from './exit-codes.js';
import { tuneHeapForBatch } from './heap.js';
import type { CommandModule } from './commands/command.js';

/**
 * Every command, in help order, loaded on demand: a run imports only the module of the command it
 * runs (each pulls in the engine, the planner or the providers), which keeps start-up short for
 * CI pipelines that call zonewall many times. `--help` and unknown commands load them all.
 */
const commands: Record<string, () => Promise<{ command: CommandModule }>> = {
  plan: () => import('./commands/plan.js'),
  apply: () => import('./commands/apply.js'),
  validate: () => import('./commands/validate.js'),
  test: () => import('./commands/test.js'),
  export: () => import('./commands/export.js'),
  rollback: () => import('./commands/rollback.js'),
  migrate: () => import('./commands/migrate.js'),
  serve: () => import('./commands/serve.js'),
  engine: () => import('./commands/engine.js'),
};

/** Builds the commander program with the named commands (all of them by default). */
export async function buildProgram(only?: readonly string[]): Promise<Command> {
  const program = new Command('zonewall')
    .description('Declarative reconciler for a zone\'s edge security: filters, firewall rules, WAF custom rules, rate limiting rules, managed rulesets and their exceptions, account lists, WAF migration.')
    .version('0.1.0')
    .option('--debug', 'show stack traces of internal errors (also ZONEWALL_DEBUG=1)')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  const names = only ?? Object.keys(commands);
  const modules = await Promise.all(names.map((n) => commands[n]()));
  for (const m of modules) m.command.register(program);
  return program;
}

/** True for `zonewall --version` / `-V` without a command: no command module is needed. */
function versionOnly(argv: readonly string[]): boolean {
  const args = argv.slice(2);
  return args.length > 0 && args.every((a) => a === '--version' || a === '-V');
}

/** The command a command line runs, when it names a known one first. */
function commandOf(argv: readonly string[]): string | undefined {
  const first = argv.slice(2).find((a) => !a.startsWith('-'));
  return first !== undefined && Object.hasOwn(commands, first) ? first : undefined;
}

/** Failures that escape the command's promise (an error event, a late rejection) end the run the same way. */
function catchStrays(debug: boolean): void {
  const end = (err: unknown): void => {
    process.exit(reportError(err, (s) => process.stderr.write(s), debug));
  };
  process.on('uncaughtException', end);
  process.on('unhandledRejection', end);
}

/** Runs the CLI with `argv` and resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const debug = debugWanted(argv, process.env);
  try {
    const args = argv.filter((a, i) => i < 2 || a !== '--debug');
    const name = commandOf(args);
    const program = await buildProgram(name !== undefined ? [name] : versionOnly(args) ? [] : undefined);
    await program.parseAsync([...args]);
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCodes.ok;
  } catch (err) {
    return reportError(err, (s) => process.stderr.write(s), debug);
  }
}

/**
 * The process entry (`bin/zonewall.js`): `main` plus the process-wide guards (a closed pipe ends
 * output quietly; a stray error is reported like any other) and, for a batch command, its heap
 * (`heap.ts`). Sets the exit code.
 */
export async function runCli(argv: readonly string[]): Promise<void> {
  quietOnBrokenPipe(process.stdout);
  quietOnBrokenPipe(process.stderr);
  catchStrays(debugWanted(argv, process.env));
  const name = commandOf(argv);
  if (name !== undefined && name !== 'serve') tuneHeapForBatch();
  // A command whose promise never settles (a request the HTTP client dropped) would end with exit 0
  // and no word once nothing is left to run: it ends as a failure instead.
  let finished = false;
  process.once('beforeExit', () => {
    if (finished) return;
    process.exitCode = reportError(new Error('the command stopped before it finished (a pending operation was dropped)'), (s) => process.stderr.write(s), debugWanted(argv, process.env));
  });
  process.exitCode = await main(argv);
  finished = true;
}
