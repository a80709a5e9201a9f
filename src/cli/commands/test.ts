/**
 * `zonewall test PATH... [--cases FILE] [--against-zone] [--json]`: runs policy test cases (requests
 * and what must happen to them) against each manifest, offline by default, or through the live
 * zone's trace operation with `--against-zone` (the embedded engine, or `--remote` /
 * `ZONEWALL_API_URL` for `zonewall serve`). A PATH may be a directory of manifests; each manifest's
 * cases are `<name>.tests.yaml` beside it, else `tests/<name>.tests.yaml`. Prints a table of pass
 * and fail with the deciding rule and why; exit 1 when any case fails or anything is invalid.
 */
import type { Command } from 'commander';
import { ZonewallError } from '../../errors.js';
import { formatIssueWithExcerpt } from '../../manifest/index.js';
import { renderRunText, runJson, runPassed, runPolicyTests, type PolicyRunResult } from '../../policy/index.js';
import type { Provider } from '../../providers/index.js';
import { ExitCodes } from '../exit-codes.js';
import { addProviderOptions, openCommandProvider } from '../provider-options.js';
import { styleFor } from '../views/color.js';
import type { CommandModule } from './command.js';

interface TestOptions extends Record<string, unknown> {
  cases?: string;
  againstZone?: boolean;
  json?: boolean;
  color?: boolean;
}

/** The `test` command. */
export const command: CommandModule = {
  register(program: Command): void {
    const cmd = program
      .command('test')
      .description('run policy test cases (requests and what must happen to them) against manifests, offline or --against-zone')
      .argument('<paths...>', 'manifest files, or directories of manifests')
      .option('--cases <file>', 'the cases file (default: <manifest>.tests.yaml beside the manifest, else tests/<manifest>.tests.yaml)')
      .option('--against-zone', 'run the cases through the live zone (the service\'s request tracer) instead of offline')
      .option('--json', 'print the results as JSON')
      .option('--no-color', 'never color the output (colors are used only on a terminal, and never with NO_COLOR set)');
    addProviderOptions(cmd);
    cmd.action(async (paths: string[], opts: TestOptions) => {
      process.exitCode = await test(paths, opts);
    });
  },
};

async function test(paths: string[], opts: TestOptions): Promise<number> {
  if (opts.cases !== undefined && paths.length !== 1) {
    throw new ZonewallError('ERR_USAGE', `--cases names the cases of one manifest, but ${paths.length} paths were given: give one manifest, or drop --cases to use each manifest's own cases file`);
  }
  let provider: Provider | undefined;
  if (opts.againstZone === true) provider = await openCommandProvider(opts, process.env, { readOnly: true });
  let run: PolicyRunResult;
  try {
    run = await runPolicyTests(paths, { ...(opts.cases !== undefined ? { cases: opts.cases } : {}), ...(provider ? { againstZone: provider } : {}) });
  } finally {
    await provider?.close();
  }
  if (opts.json === true) {
    process.stdout.write(`${JSON.stringify(runJson(run), null, 2)}\n`);
  } else {
    for (const issue of run.errors) process.stderr.write(`${formatIssueWithExcerpt(issue)}\n`);
    process.stdout.write(renderRunText(run, styleFor(process.stdout, opts)));
  }
  return runPassed(run) ? ExitCodes.ok : ExitCodes.error;
}
