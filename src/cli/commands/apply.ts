/**
 * `zonewall apply PATH...` plans each manifest's zone with the zone locked (a second apply waits up
 * to `--lock-timeout` or refuses), shows the plans, refuses unsafe ones (error findings always,
 * danger findings without `--force`), asks for confirmation on a terminal (`--auto-approve`
 * otherwise), then applies zone by zone with a progress line, reporting exactly what was applied.
 * `zonewall apply plan.json` applies a saved plan instead, after checking that the zone has not
 * changed since it was saved. Exit 0 when everything applied, 1 otherwise.
 */
import type { Command } from 'commander';
import {
  acquireZoneLock, applyListWrites, applyZone, assertFresh, assertListsFresh, assertPlannedHere, zoneLocksDir, lockKey, readSavedPlan, savedPlanZone, type ApplyZoneResult,
} from '../../apply/index.js';
import { ZonewallError } from '../../errors.js';
import { formatIssueWithExcerpt, loadManifests } from '../../manifest/index.js';
import { assertApplicable, hasChanges, planDocument, planFromJson, renderListsPlan, renderPlanText, UnsafePlanError, type ListsPlan, type Plan, type PlanJson } from '../../plan/index.js';
import { mapLimit, type Provider } from '../../providers/index.js';
import { ExitCodes } from '../exit-codes.js';
import { addProviderOptions, engineStateDir, openCommandProvider, providerFlags } from '../provider-options.js';
import { renderApplyResult, progressLine } from '../views/apply-text.js';
import { styleFor } from '../views/color.js';
import { applyDocument, plansDocument, runDocument, ZonewallVersion, type ApplyRefusal } from '../views/json.js';
import { assertCanConfirm, confirm, isInteractive } from '../views/prompt.js';
import { InterruptedError } from '../error-boundary.js';
import { catchInterrupts, stopOnInterrupt } from '../interrupts.js';
import { createdNotices, missingNotice, renderRunSummary, renderZoneRun, runCallsLine } from '../views/text.js';
import type { CommandModule } from './command.js';
import { manifestErrorJson } from './plan.js';
import { addPlanFlags, planOptions, planZones, preflightOn, releaseLocks, ZoneConcurrency, type PlanFlags, type ZoneRun } from './plan-run.js';
import { parseDuration } from './duration.js';
import { listProgress, listsApiOf, listsCheck, listsPreflight, planAccount, readLiveAccount } from './lists-run.js';

/** The account's lists in an apply: their plan, and the account they are written to. */
interface ListsStep {
  plan: ListsPlan;
  account: string;
}

/** Options of `apply`. */
interface ApplyCommandOptions extends PlanFlags, Record<string, unknown> {
  force?: boolean;
  autoApprove?: boolean;
  lockTimeout?: string;
  stateDir?: string;
}

/** The `apply` command. */
export const command: CommandModule = {
  register(program: Command): void {
    const cmd = program
      .command('apply')
      .description('apply manifests (or a plan saved with `plan --out`) to their zones, in dependency order')
      .argument('<paths...>', 'manifest files, directories of manifests, or one saved plan (plan.json)');
    addPlanFlags(cmd, 'print one JSON document (kind zonewall.apply): the plans, then each zone\'s apply result; no text')
      .option('--force', 'apply plans with danger findings (mass deletions, weakened protection, WAF migration)')
      .option('--auto-approve', 'do not ask for confirmation (required without a terminal)')
      .option('--lock-timeout <duration>', 'wait this long (e.g. 30s, 2m) for another apply to the same zone to finish; 0 refuses at once', '0');
    addProviderOptions(cmd);
    cmd.action(async (paths: string[], opts: ApplyCommandOptions) => {
      // Until the writes start, an interrupt releases the locks and exits: nothing was applied.
      const early = stopOnInterrupt('reading the zones and planning');
      try {
        process.exitCode = await apply(paths, opts);
      } finally {
        early.dispose();
      }
    });
  },
};

/** Prints the apply document (`--json`). */
function printDocument(opts: ApplyCommandOptions, plan: PlanJson, results: readonly ApplyZoneResult[], outcome: { applied: boolean; refused?: ApplyRefusal }): void {
  if (opts.json === true) process.stdout.write(`${JSON.stringify(applyDocument(plan, results, outcome), null, 2)}\n`);
}

/**
 * Runs the part of an apply that comes before any write: an error there refuses the apply; with
 * `--json` the refusal is still one document on stdout (its plan as far as it got), then the error
 * goes on to the error boundary (stderr and the documented exit code), as without `--json`.
 */
async function refusing<T>(opts: ApplyCommandOptions, plan: () => PlanJson, fn: () => Promise<T> | T): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ZonewallError) printDocument(opts, plan(), [], { applied: false, refused: { code: err.code, message: err.message } });
    throw err;
  }
}

/**
 * Whether this apply can write at all: without a terminal and without `--auto-approve` it can only
 * show the plans and refuse (or say there is nothing to do), so it opens the provider read-only and
 * takes no lock: like `plan`, it creates and changes no file of the state directory.
 */
function canWrite(opts: ApplyCommandOptions): boolean {
  return opts.autoApprove === true || isInteractive();
}

async function apply(paths: string[], opts: ApplyCommandOptions): Promise<number> {
  const saved = paths.length === 1 ? readSavedPlan(paths[0]!) : undefined;
  if (saved !== undefined) return applySaved(saved, opts);
  // `$name`s are checked against the account manifest here, else against each zone's live account once it is known.
  const loaded = await loadManifests(paths, { lists: 'later' });
  for (const issue of loaded.errors) process.stderr.write(`${formatIssueWithExcerpt(issue)}\n`);
  if (loaded.errors.length > 0) {
    const message = 'nothing applied: fix the manifest errors first';
    printDocument(opts, planDocument([], manifestErrorJson(loaded.errors), { zonewallVersion: ZonewallVersion }), [], { applied: false, refused: { code: 'ERR_MANIFEST', message } });
    process.stderr.write('error: nothing applied: fix the manifest errors above first\n');
    return ExitCodes.error;
  }
  const empty = () => planDocument([], [], { zonewallVersion: ZonewallVersion });
  const writes = canWrite(opts);
  const provider = await refusing(opts, empty, () => openCommandProvider(opts, process.env, { readOnly: !writes }));
  let runs: ZoneRun[] = [];
  try {
    // The account's lists are planned first: they are written before the zones' rules that use them.
    const account = loaded.account;
    const lists: ListsStep | undefined = account === undefined ? undefined
      : { plan: (await refusing(opts, empty, () => planAccount(provider, account, loaded.zones))).plan, account: account.account };
    if (lists !== undefined && opts.json !== true) process.stdout.write(`${renderListsPlan(lists.plan)}\n`);
    runs = await refusing(opts, empty, () => {
      const timeoutMs = parseDuration(opts.lockTimeout ?? '0', '--lock-timeout');
      return planZones(provider, loaded.zones, planOptions(opts, provider), writes ? { stateDir: engineStateDir(provider, opts), timeoutMs } : undefined, preflightOn(opts, provider), lists === undefined ? undefined : listsPreflight(lists.plan, lists.account), account === undefined ? listsCheck(provider) : undefined);
    });
    const issues = runs.flatMap((r) => r.issues ?? []);
    if (issues.length > 0) {
      for (const issue of issues) process.stderr.write(`${formatIssueWithExcerpt(issue)}\n`);
      const message = 'nothing applied: fix the manifest errors first';
      printDocument(opts, planDocument([], manifestErrorJson(issues), { zonewallVersion: ZonewallVersion }), [], { applied: false, refused: { code: 'ERR_MANIFEST', message } });
      process.stderr.write('error: nothing applied: fix the manifest errors above first\n');
      return ExitCodes.error;
    }
    for (const run of runs) {
      const notice = missingNotice(run, provider);
      if (notice !== undefined) process.stderr.write(`${notice}\n`);
    }
    if (opts.json !== true) showPlans(runs, opts, provider);
    const failed = runs.filter((r) => r.error !== undefined);
    if (failed.length > 0) {
      const first = failed[0]!.error;
      const message = `nothing applied: ${failed.length} zone(s) could not be planned`;
      printDocument(opts, runDocument(runs, provider), [], { applied: false, refused: { code: first instanceof ZonewallError ? first.code : 'ERR_INTERNAL', message } });
      process.stderr.write(`error: ${message}\n`);
      return ExitCodes.error;
    }
    const plans = runs.map((r) => r.plan!);
    return await gateAndApply(plans, provider, opts, runDocument(runs, provider), lists);
  } finally {
    releaseLocks(runs);
    await provider.close();
  }
}

function showPlans(runs: readonly ZoneRun[], opts: ApplyCommandOptions, provider: Provider): void {
  const s = styleFor(process.stdout, opts);
  process.stdout.write(runs.map((r) => renderZoneRun(r, s)).join('\n'));
  if (runs.length > 1) process.stdout.write(`\n${renderRunSummary(runs, 0, s)}`);
  const calls = runCallsLine(runs, provider);
  if (calls !== undefined) process.stdout.write(`${calls}\n`);
}

/**
 * A saved plan's danger refusal: its findings were written when the plan was made, and their "raise
 * --delete-threshold" is a `plan --out` option (apply FILE refuses it); `--force` is apply's.
 */
function savedPlanRefusal(err: UnsafePlanError): UnsafePlanError {
  if (!err.findings.some((f) => f.level === 'danger')) return err;
  return new UnsafePlanError(`${err.message}\n(a saved plan: apply it with --force, or make it again with zonewall plan --out and another --delete-threshold)`, err.findings);
}

/** Safety, confirmation, then the applies; shared by manifests and saved plans (`saved`). */
async function gateAndApply(plans: readonly Plan[], provider: Provider, opts: ApplyCommandOptions, doc: PlanJson, lists?: ListsStep, saved = false): Promise<number> {
  const pending = await refusing(opts, () => doc, () => {
    if (lists !== undefined) assertListsApplicable(lists.plan, opts.force === true);
    try {
      for (const plan of plans) assertApplicable(plan, { force: opts.force === true });
    } catch (err) {
      throw saved && err instanceof UnsafePlanError ? savedPlanRefusal(err) : err;
    }
    return plans.filter((p) => hasChanges(p));
  });
  const listChanges = lists !== undefined && lists.plan.changes.some((c) => c.action !== 'no-op') ? lists : undefined;
  if (pending.length === 0 && listChanges === undefined) {
    if (opts.json === true) printDocument(opts, doc, [], { applied: true });
    else process.stdout.write('\nNo changes. Nothing to apply.\n');
    return ExitCodes.ok;
  }
  const approved = await refusing(opts, () => doc, async () => {
    assertCanConfirm(opts.autoApprove === true, 'apply asks for confirmation on a terminal; without one, pass --auto-approve (nothing was applied)');
    if (opts.autoApprove === true) return true;
    const names = [...(listChanges === undefined ? [] : [`the lists of account ${listChanges.plan.account.name}`]), ...pending.map((p) => p.zone.name)].join(', ');
    return confirm(`\nApply these changes to ${names}?`);
  });
  if (!approved) {
    printDocument(opts, doc, [], { applied: false, refused: { code: 'ERR_INTERRUPTED', message: 'Apply cancelled at the prompt: nothing was applied.' } });
    process.stderr.write('Apply cancelled.\n');
    return ExitCodes.error;
  }
  const results: ApplyZoneResult[] = [];
  const s = styleFor(process.stdout, opts);
  const interrupts = catchInterrupts();
  const api = listChanges === undefined ? undefined : listsApiOf(provider, listChanges.account);
  const listOptions = { ...(opts.json !== true ? { progress: listProgress(process.stderr) } : {}) };
  const created = new Map<string, string>();
  try {
    if (api !== undefined) {
      await applyListWrites(api, listChanges!.plan.writes.before, listOptions.progress === undefined ? {} : { progress: listOptions.progress }, created);
      if (listOptions.progress !== undefined) process.stderr.write('\n');
    }
    for (const plan of pending) {
      if (interrupts.signal.aborted) break;
      const progress = process.stderr.isTTY === true && opts.json !== true ? progressLine(process.stderr) : undefined;
      const result = await applyZone(plan, provider, {
        force: opts.force === true, stateDir: engineStateDir(provider, opts), signal: interrupts.signal, ...(progress ? { onEvent: progress.listener } : {}),
      }).finally(() => progress?.done());
      results.push(result);
      process.stderr.write(createdNotices(provider, plan.zone.id));
      if (opts.json !== true) process.stdout.write(renderApplyResult(result, s, { rollbackHint: result.record !== undefined, providerFlags: providerFlags(opts as Readonly<Record<string, unknown>>) }));
      if (!result.ok) break;
    }
    // Lists are deleted once the rules that used them are gone.
    if (api !== undefined && results.every((r) => r.ok) && !interrupts.signal.aborted) {
      await applyListWrites(api, listChanges!.plan.writes.after, listOptions.progress === undefined ? {} : { progress: listOptions.progress }, created);
    }
    if (listChanges !== undefined && opts.json !== true) process.stdout.write(`Lists of account ${listChanges.plan.account.name} applied.\n`);
  } finally {
    interrupts.dispose();
  }
  const skipped = pending.slice(results.length).map((p) => p.zone.name);
  const why = interrupts.received() !== undefined ? `the apply was interrupted (${interrupts.received()})` : 'an earlier zone failed';
  if (skipped.length > 0 && opts.json !== true) process.stdout.write(`Not applied, as ${why}: ${skipped.join(', ')}.\n`);
  const signal = interrupts.received();
  const applied = signal === undefined && results.every((r) => r.ok) && results.length === pending.length;
  printDocument(opts, doc, results, { applied });
  if (signal !== undefined) {
    throw new InterruptedError(signal, `apply interrupted by ${signal}: stopped after the request in flight; what was applied and what was not is listed above. Run zonewall plan to see what remains.`);
  }
  return applied ? ExitCodes.ok : ExitCodes.error;
}

/** `apply plan.json`: lock and re-read each zone, refuse if it changed, then apply the saved changes. */
async function applySaved(doc: PlanJson, opts: ApplyCommandOptions): Promise<number> {
  await refusing(opts, () => doc, () => {
    if (opts.prune === true || opts.deleteThreshold !== undefined) {
      throw new ZonewallError('ERR_USAGE', '--prune and --delete-threshold are fixed when the plan is made: pass them to zonewall plan --out, not to apply');
    }
    if (doc.errors.length > 0 || (doc.zones.length === 0 && doc.lists === undefined)) {
      throw new ZonewallError('ERR_USAGE', 'the saved plan has no zones to apply (it was saved with errors?); plan again');
    }
  });
  const writes = canWrite(opts);
  const provider = await refusing(opts, () => doc, () => openCommandProvider(opts, process.env, { readOnly: !writes, before: (where) => assertPlannedHere(doc, where) }));
  const locks: { release(): void }[] = [];
  try {
    const plans = await refusing(opts, () => doc, async () => {
      const timeoutMs = parseDuration(opts.lockTimeout ?? '0', '--lock-timeout');
      const all = doc.zones.map(planFromJson);
      const zones = await mapLimit(all, ZoneConcurrency, (plan) => savedPlanZone(provider, plan));
      // Without a way to confirm, nothing is written: no lock to take (see canWrite). The locks are
      // taken one at a time in key order before any zone is read, as an apply of manifests does.
      if (writes) {
        const keyed = zones.map((zone) => ({ zone, key: lockKey(provider, zone.id) })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
        for (const { zone, key } of keyed) locks.push(await acquireZoneLock({ dir: zoneLocksDir(provider, engineStateDir(provider, opts)), key, zone: zone.name, timeoutMs }));
      }
      await mapLimit(all, ZoneConcurrency, async (plan, i) => { assertFresh(plan, await provider.readZone(zones[i]!.id, plan.settings.reads)); });
      // The saved item writes name item ids: the account's lists must be those the plan was computed on.
      if (doc.lists !== undefined) assertListsFresh(doc.lists, await readLiveAccount(provider, doc.lists.account.id ?? doc.lists.account.name));
      return all;
    });
    if (opts.json !== true) {
      const s = styleFor(process.stdout, opts);
      process.stdout.write(plans.map((p) => renderPlanText(p, s)).join('\n'));
    }
    // The saved lists plan is applied as saved (before the zones' rules, its deletes after them), as a run from manifests does.
    const lists: ListsStep | undefined = doc.lists === undefined ? undefined : { plan: doc.lists, account: doc.lists.account.id ?? doc.lists.account.name };
    if (lists !== undefined && opts.json !== true) process.stdout.write(`${renderListsPlan(lists.plan)}\n`);
    const out = plansDocument(plans, provider);
    return await gateAndApply(plans, provider, opts, lists === undefined ? out : { ...out, lists: lists.plan }, lists, true);
  } finally {
    for (const l of locks) l.release();
    await provider.close();
  }
}

/** Refuses a lists plan with errors, or with danger findings without `--force`. */
function assertListsApplicable(plan: ListsPlan, force: boolean): void {
  const errors = plan.findings.filter((f) => f.level === 'error');
  if (errors.length > 0) throw new ZonewallError('ERR_UNSAFE_PLAN', `the lists plan cannot be applied: ${errors.map((f) => f.message).join('; ')}`);
  const dangers = plan.findings.filter((f) => f.level === 'danger');
  if (dangers.length > 0 && !force) throw new ZonewallError('ERR_UNSAFE_PLAN', `refusing without --force: ${dangers.map((f) => f.message).join('; ')}`);
}
