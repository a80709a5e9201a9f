/**
 * The CLI's wiring: commander commands, argument parsing and exit codes. Commands live in their own
 * files and only wire modules together; nothing here decides.
 */
import { Command, CommanderError } from 'commander';
import { ZonewallError } from '../errors.js';
import { ExitCodes } from './exit-codes.js';
import type { CommandModule } from './commands/command.js';
import { command as validateCommand } from './commands/validate.js';
import { command as serveCommand } from './commands/serve.js';
import { command as engineCommand } from './commands/engine.js';
import { command as migrateCommand } from './commands/migrate.js';
import { command as exportCommand } from './commands/export.js';
import { command as planCommand } from './commands/plan.js';
import { command as applyCommand } from './commands/apply.js';
import { command as rollbackCommand } from './commands/rollback.js';
import { command as testCommand } from './commands/test.js';

/**
 * Every command, in help order. Each module exports `command: CommandModule`; add one line here
 * when a command lands.
 */
const commands: CommandModule[] = [
  validateCommand,
  serveCommand,
  engineCommand,
  migrateCommand,
  exportCommand,
  planCommand,
  applyCommand,
  rollbackCommand,
  testCommand,
];

/** Builds the commander program. Commands are registered by their own modules. */
export function buildProgram(): Command {
  const program = new Command('zonewall')
    .description('Declarative reconciler for a zone\'s edge security: filters, firewall rules, managed rulesets, WAF migration.')
    .version('0.1.0')
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s) });
  for (const c of commands) c.register(program);
  return program;
}

/** Runs the CLI with `argv` and resolves to the exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  const program = buildProgram();
  try {
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
