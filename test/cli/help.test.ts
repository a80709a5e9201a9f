/**
 * Every command's `--help` says what its options do for that command: `--json` names the document
 * the command prints (apply's is not the plan's), and `serve --help` states the credentials' rules.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram } from '../../src/cli/main.js';

/** Every command and subcommand with its full name (`migrate status`). */
function allCommands(cmd: Command, prefix = ''): [string, Command][] {
  return cmd.commands.flatMap((c) => {
    const name = `${prefix}${c.name()}`;
    return [[name, c] as [string, Command], ...allCommands(c, `${name} `)];
  });
}

const optionHelp = (cmd: Command, flag: string) => cmd.options.find((o) => o.long === flag)?.description;

describe('--help', () => {
  it('--json says which document each command prints', async () => {
    const commands = new Map(allCommands(await buildProgram()));
    expect(optionHelp(commands.get('apply')!, '--json')).toMatch(/zonewall\.apply/);
    expect(optionHelp(commands.get('apply')!, '--json')).not.toMatch(/plan\.schema\.json/);
    expect(optionHelp(commands.get('plan')!, '--json')).toMatch(/plan\.schema\.json/);
    const withJson = [...commands].filter(([, c]) => optionHelp(c, '--json') !== undefined);
    // `engine account create|list` (lists, issue 30) were added with --json on purpose (docs/engine.md):
    // this list predates them.
    expect(withJson.map(([n]) => n).sort()).toEqual([
      'apply', 'engine account create', 'engine account list', 'engine zone create', 'engine zone delete', 'engine zone list', 'engine zone show',
      'migrate firewall-rules', 'migrate status', 'plan', 'test', 'validate',
    ]);
    for (const [name, cmd] of withJson) expect(optionHelp(cmd, '--json'), name).not.toBe('print JSON');
  });

  it('serve --help states the minimum length of tokens and keys', async () => {
    const serve = new Map(allCommands(await buildProgram())).get('serve')!;
    let text = '';
    serve.configureOutput({ writeOut: (s) => { text += s; } });
    serve.outputHelp();
    expect(text).toMatch(/tokens and keys: at least 8 characters, no whitespace/);
  });

  it('engine zone delete offers --auto-approve like apply', async () => {
    const commands = new Map(allCommands(await buildProgram()));
    expect(optionHelp(commands.get('engine zone delete')!, '--auto-approve')).toBe(optionHelp(commands.get('apply')!, '--auto-approve'));
  });

  it('rollback lists only the options it uses: no remote budget or timeout, as it never calls a remote API', async () => {
    const rollback = new Map(allCommands(await buildProgram())).get('rollback')!;
    let text = '';
    rollback.configureOutput({ writeOut: (s) => { text += s; } });
    rollback.outputHelp();
    expect(text).toContain('--state-dir');
    expect(text).not.toMatch(/--remote|--rate-limit|--timeout|ZONEWALL_API_TOKEN/);
    // --remote is still accepted, to refuse it with a line that says how to undo instead.
    expect(rollback.options.some((o) => o.long === '--remote')).toBe(true);
  });
});
