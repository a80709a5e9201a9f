/**
 * The CLI's wiring: commander commands, argument parsing and exit codes. Commands live in their own
 * files and only wire modules together; nothing here decides.
 */
import { Command, CommanderError } from 'commander';
import { ZonewallError } from '../errors.js';
import { ExitCodes } from './exit-codes.js';
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
    .description('Declarative reconciler for a zone\'s edge security: filters, firewall rules, WAF custom rules, managed rulesets, WAF migration.')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  const names = only ?? Object.keys(commands);
  const modules = await Promise.all(names.map((n) => commands[n]()));
  for (const m of modules) m.command.register(program);
  return program;
}

/** The command a command line runs, when it names a known one first. */
function commandOf(argv: readonly string[]): string | undefined {
  const first = argv.slice(2).find((a) => !a.startsWith('-'));
  return first !== undefined && Object.hasOwn(commands, first) ? first : undefined;
}

/** Runs the CLI with `argv` and resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    const name = commandOf(argv);
    const program = await buildProgram(name === undefined ? undefined : [name]);
    await program.parseAsync([...argv]);
    return typeof process.exitCode === 'number' ? process.exitCode : ExitCodes.ok;
  } catch (err) {
    if (err instanceof CommanderError) {
      return err.exitCode === 0 ? ExitCodes.ok : ExitCodes.error;
    }
    if (err instanceof ZonewallError) {
      process.stderr.write(`error: ${err.message}\n`);
      return ExitCodes.error;
    }
    process.stderr.write(`internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}\n`);
    return ExitCodes.error;
  }
}
