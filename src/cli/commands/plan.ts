/**
 * `zonewall plan PATH...`: reads each manifest's zone (a zone the embedded engine lacks reads as new; nothing is created),
 * prints what applying would change, unmanaged objects, safety findings and the API call estimate.
 * `--json` / `--markdown` choose the format; `--out FILE` saves the plan (with the fingerprint of
 * the state it was computed on) for `zonewall apply FILE`. Exit 0, or 1 on any error (including a
 * plan that could not be applied), or with `--detailed-exitcode` 2 when there are changes.
 */
import type { Command } from 'commander';
import { writeSavedPlan } from '../../apply/index.js';
import { ZonewallError } from '../../errors.js';
import { expandPaths, formatIssueWithExcerpt, isAccountManifestFile, loadManifests, type DesiredAccount, type ManifestIssue } from '../../manifest/index.js';
import { accountFingerprint, hasChanges, hasErrors, planDocument, renderListsPlan, type ListsPlan } from '../../plan/index.js';
import { ExitCodes } from '../exit-codes.js';
import type { Provider } from '../../providers/index.js';
import { addProviderOptions, openCommandProvider, providerFlags } from '../provider-options.js';
import { styleFor } from '../views/color.js';
import { runDocument, ZonewallVersion } from '../views/json.js';
import { renderRunMarkdown } from '../views/markdown.js';
import { missingNotice, renderRunSummary, renderZoneRun, runCallsLine } from '../views/text.js';
import type { CommandModule } from './command.js';
import { listsCheck, listsPreflight, planAccount } from './lists-run.js';
import { addPlanFlags, outline, planOptions, preflightOn, streamPlans, type ListsCheck, type PlanFlags, type RunOutline, type ZoneRun } from './plan-run.js';

/** Options of `plan`. */
interface PlanCommandOptions extends PlanFlags, Record<string, unknown> {
  out?: string;
  detailedExitcode?: boolean;
}

/** The `plan` command. */
export const command: CommandModule = {
  register(program: Command): void {
    const cmd = program
      .command('plan')
      .description('show what apply would change in each manifest\'s zone')
      .argument('<paths...>', 'manifest files, or directories of *.yaml / *.yml manifests');
    addPlanFlags(cmd, 'print the plan as JSON (kind zonewall.plan, schemas/plan.schema.json)')
      .option('--markdown', 'print the plan as markdown (for pull-request comments)')
      .option('--out <file>', 'save the plan (JSON, with a fingerprint of the zone) for `zonewall apply FILE`')
      .option('--detailed-exitcode', 'exit 0 without changes, 1 on error, 2 with changes');
    addProviderOptions(cmd);
    cmd.action(async (paths: string[], opts: PlanCommandOptions) => {
      process.exitCode = await plan(paths, opts);
    });
  },
};

/** Manifest errors in the plan document's error shape. */
export function manifestErrorJson(issues: readonly ManifestIssue[]) {
  return issues.map((i) => ({ file: i.file, code: 'ERR_MANIFEST', message: `${i.file}:${i.line}:${i.column}: ${i.path ? `${i.path}: ` : ''}${i.message}` }));
}

function exitCode(runs: readonly RunOutline[], manifestErrors: number, detailed: boolean, lists?: ListsPlan): number {
  const failed = manifestErrors > 0 || runs.some((r) => r.plan === undefined || hasErrors(r.plan)) || lists?.findings.some((f) => f.level === 'error') === true;
  if (failed) return ExitCodes.error;
  const listChanges = lists !== undefined && lists.changes.some((c) => c.action !== 'no-op');
  return detailed && (listChanges || runs.some((r) => r.plan !== undefined && hasChanges(r.plan))) ? ExitCodes.changes : ExitCodes.ok;
}

/**
 * The lists plan of the run's account manifest, when it has one (valid: its errors are reported as
 * the run's manifest issues). Opens the provider for it.
 */
async function planRunLists(paths: readonly string[], open: () => Promise<Provider>, saved: boolean): Promise<{ plan: ListsPlan; account: DesiredAccount } | undefined> {
  // Most runs have no account manifest: they are not read twice.
  // A look at each file's text, not a validation: the account manifest is validated once, below.
  const { files } = await expandPaths(paths);
  if (!files.some((f) => !/\.tests\.ya?ml$/i.test(f) && isAccountManifestFile(f))) return undefined;
  // The zones' manifests say which rules will still use each list (a list they use cannot be deleted).
  const { account, zones } = await loadManifests(paths, { lists: 'later' });
  if (account === undefined) return undefined;
  const { plan, live } = await planAccount(await open(), account, zones);
  // A saved plan records the lists it was computed on: apply FILE refuses it once they changed.
  return { plan: saved ? { ...plan, fingerprint: accountFingerprint(live) } : plan, account };
}

/** Whether `file` reads as an account manifest (unreadable files are left to the run to report). */
async function plan(paths: string[], opts: PlanCommandOptions): Promise<number> {
  if (opts.json === true && opts.markdown === true) throw new ZonewallError('ERR_USAGE', 'choose one of --json and --markdown');
  // The text view prints each zone as soon as it is planned and keeps only its outline; the JSON and
  // markdown documents (and a saved plan) need every plan at the end.
  const whole = opts.json === true || opts.markdown === true || opts.out !== undefined;
  const s = styleFor(process.stdout, opts);
  const runs: ZoneRun[] = [];
  const outlines: RunOutline[] = [];
  let provider: Provider | undefined;
  const open = async () => (provider ??= await openCommandProvider(opts, process.env, { readOnly: true }));
  try {
    // Lists first: apply writes them before the zones' rules that use them.
    const run = await planRunLists(paths, open, opts.out !== undefined);
    let check: ListsCheck | undefined;
    const lists = run?.plan;
    if (lists !== undefined && !whole) process.stdout.write(`${renderListsPlan(lists)}\n`);
    // Every `$name` is checked where the manifest uses it, as `validate` does: against the account
    // manifest, else the zone's live account (the provider is open by the time a zone is planned).
    const { issues } = await streamPlans(paths, {
      open,
      options: (p) => planOptions(opts, p),
      preflight: (p) => preflightOn(opts, p),
      lists: async (desired, zone) => (check ??= listsCheck(await open(), run?.account))(desired, zone),
      ...(lists !== undefined ? { prepare: listsPreflight(lists, lists.account.id ?? lists.account.name) } : {}),
      // The account manifest was read and validated for the lists plan: not again.
      ...(run !== undefined ? { skip: new Set([run.account.file]) } : {}),
      issue: (issue) => process.stderr.write(`${formatIssueWithExcerpt(issue)}\n`),
      zone: (run) => {
        const notice = missingNotice(run, provider!);
        if (notice !== undefined) process.stderr.write(`${notice}\n`);
        if (whole) runs.push(run);
        else {
          process.stdout.write(`${outlines.length > 0 ? '\n' : ''}${renderZoneRun(run, s)}`);
          outlines.push(outline(run));
        }
      },
    });
    if (provider === undefined) {
      if (opts.json === true) process.stdout.write(`${JSON.stringify(planDocument([], manifestErrorJson(issues), { zonewallVersion: ZonewallVersion }), null, 2)}\n`);
      if (opts.markdown === true) process.stdout.write(renderRunMarkdown([], issues));
      return ExitCodes.error;
    }
    if (!whole) {
      if (outlines.length > 1 || issues.length > 0) process.stdout.write(`\n${renderRunSummary(outlines, issues.length, s)}`);
      const calls = runCallsLine(outlines, provider);
      if (calls !== undefined) process.stdout.write(`${calls}\n`);
      return exitCode(outlines, issues.length, opts.detailedExitcode === true, lists);
    }
    const doc = lists === undefined ? runDocument(runs, provider, manifestErrorJson(issues)) : { ...runDocument(runs, provider, manifestErrorJson(issues)), lists };
    if (opts.json === true) process.stdout.write(`${JSON.stringify(doc, null, 2)}\n`);
    else if (opts.markdown === true) process.stdout.write(renderRunMarkdown(runs, issues, lists));
    else {
      if (lists !== undefined) process.stdout.write(`${renderListsPlan(lists)}\n`);
      process.stdout.write(runs.map((r) => renderZoneRun(r, s)).join('\n'));
      if (runs.length > 1 || issues.length > 0) process.stdout.write(`\n${renderRunSummary(runs, issues.length, s)}`);
      const calls = runCallsLine(runs, provider);
      if (calls !== undefined) process.stdout.write(`${calls}\n`);
    }
    if (opts.out !== undefined) {
      if (doc.errors.length > 0) {
        process.stderr.write(`plan not saved to ${opts.out}: ${doc.errors.length} zone(s) or manifest(s) had errors\n`);
        return ExitCodes.error;
      }
      writeSavedPlan(opts.out, doc);
      if (opts.json !== true) process.stderr.write(`Saved the plan to ${opts.out}; apply exactly it with: zonewall apply ${opts.out}${providerFlags(opts as Readonly<Record<string, unknown>>)}\n`);
    }
    return exitCode(runs, issues.length, opts.detailedExitcode === true, lists);
  } finally {
    await (provider as Provider | undefined)?.close();
  }
}
