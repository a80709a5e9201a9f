/** The shape of one CLI command module: it registers itself on the commander program. */
import type { Command } from 'commander';

/** A CLI command: `register` adds it (and its subcommands) to the program. */
export interface CommandModule {
  register(program: Command): void;
}
